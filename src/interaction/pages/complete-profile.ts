// "Complete your profile", in the request's language: a first social sign-in that lacks what the account
// requires (an email, a required custom field, a required consent) shows what the provider gave and asks
// for the rest, with the account's consents as on the signup page.
import type { CustomFieldSetting } from '../../config/types.js';
import type { FieldError, Language } from '../../errors/ward-error.js';
import { html, joinHtml, type Page, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { customFieldControl } from './custom-field-control.js';
import { formActionSource } from './login.js';

/** How a validator's problem with one field reads on the page. */
export function fieldErrorText(language: Language, e: FieldError): string {
  const t = textsIn(language).pages.completeProfile;
  return e.code === 'missing' ? t.required : t.invalid(e.message);
}

export interface CompleteProfileInput {
  language: Language;
  signupToken: string;
  csrf: string;
  clientName: string;
  providerLabel: string;
  /** What the provider gave. */
  given: { name: string | null; email: string | null; emailVerified: boolean };
  /** Ask for an email (the account requires one the provider did not verify). */
  askEmail: boolean;
  /** The custom fields to ask for (the required ones, and any posted). */
  fields: CustomFieldSetting[];
  /** The account's active consent definitions, in the page's language: a checkbox each (`consents.<key>`). */
  consents: ReadonlyArray<{ key: string; title: string; description: string; required: boolean }>;
  /** Other fields a posted completion named (the app's page): shown so they can be corrected. */
  others: string[];
  /** What was posted, kept. */
  values: Record<string, string>;
  /** The problems, by field name as posted (`email`, `custom_fields.<name>`, ...). */
  errors: Record<string, string>;
  target: string | null;
}

/** One labelled field with its problem, if any. */
function field(
  id: string,
  label: string,
  name: string,
  p: CompleteProfileInput,
  render: (attrs: SafeHtml) => SafeHtml,
): SafeHtml {
  const problem = p.errors[name];
  const described = problem && html` aria-describedby="${id}-error" aria-invalid="true"`;
  const error = problem && html`<p class="error" id="${id}-error">${problem}</p>`;
  const control = render(html`id="${id}" name="${name}"${described}`);
  return html`<label for="${id}">${label}</label>${control}${error}`;
}

/** The checkbox of a consent (posted as `consents.<key>=true`), its description and its problem. */
function consentBox(c: CompleteProfileInput['consents'][number], p: CompleteProfileInput): SafeHtml {
  const t = textsIn(p.language).pages.completeProfile;
  const id = `c-${c.key}`;
  const name = `consents.${c.key}`;
  const problem = p.errors[name];
  const described = problem && html` aria-describedby="${id}-error" aria-invalid="true"`;
  const checked = p.values[name] === 'true' && html` checked`;
  return html`<p><input type="checkbox" id="${id}" name="${name}" value="true"${checked}${c.required && html` required`}${described}>
<label for="${id}" class="inline">${c.title}${!c.required && ` ${t.optional}`}</label></p>${c.description && html`<p class="muted">${c.description}</p>`}${problem && html`<p class="error" id="${id}-error">${problem}</p>`}`;
}

export function completeProfilePage(status: number, p: CompleteProfileInput): Page {
  const t = textsIn(p.language).pages.completeProfile;
  const confirmed = p.given.emailVerified ? t.verified : t.unverified;
  const given = [
    p.given.name && html`<li>${t.name}${t.colon}${p.given.name}</li>`,
    p.given.email && html`<li>${t.email}${t.colon}${p.given.email} (${confirmed})</li>`,
  ].filter((x) => x);
  const fields = joinHtml(
    [
      p.askEmail &&
        field(
          'email',
          t.email,
          'email',
          p,
          (a) => html`<input ${a} type="email" autocomplete="email" required value="${p.values.email ?? ''}">`,
        ),
      ...p.fields.map((f) => {
        const name = `custom_fields.${f.name}`;
        return field(`f-${f.name}`, f.name, name, p, (a) =>
          customFieldControl(f, a, p.values[name] ?? '', { required: f.required, choose: t.choose }),
        );
      }),
      ...p.consents.map((c) => consentBox(c, p)),
      ...p.others.map((name, i) =>
        field(`x-${i}`, name, name, p, (a) => html`<input ${a} type="text" value="${p.values[name] ?? ''}">`),
      ),
    ],
    html`\n`,
  );
  const problems = Object.keys(p.errors).length > 0 && html`<p class="error" role="alert">${t.problems}</p>`;
  return {
    status,
    lang: p.language,
    title: t.title,
    body: html`<h1>${t.heading(p.clientName)}</h1>${problems}
<p>${t.intro(p.providerLabel)}</p>
<p class="muted">${t.gave(p.providerLabel)}</p><ul class="muted">${given.length ? given : html`<li>${t.nothing}</li>`}</ul>
<form method="post" action="/identity/v1/signup/complete" novalidate>
<input type="hidden" name="signup_token" value="${p.signupToken}">
<input type="hidden" name="csrf" value="${p.csrf}">
${fields}
<button type="submit">${t.submit}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

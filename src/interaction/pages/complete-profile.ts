// "Complete your profile", in English and French: a first social sign-in that lacks what the account
// requires (an email, a required custom field) shows what the provider gave and asks for the rest.
import type { CustomFieldSetting } from '../../config/types.js';
import type { FieldError, Language } from '../../errors/ward-error.js';
import { customFieldControl } from './custom-field-control.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

const TEXT = {
  en: {
    title: 'Complete your profile',
    heading: (client: string) => `Complete your profile for ${client}`,
    intro: (provider: string) =>
      `You signed in with ${provider}. A few details are missing before your account can be created.`,
    gave: (provider: string) => `${provider} gave us:`,
    name: 'Name',
    email: 'Email',
    colon: ': ',
    verified: 'confirmed by the provider',
    unverified: 'not confirmed by the provider',
    nothing: 'no name or email',
    choose: 'Choose…',
    required: 'This field is required.',
    invalid: (detail: string) => `This value is not valid: it ${detail}.`,
    problems: 'Some fields are missing or not valid.',
    submit: 'Create my account',
  },
  fr: {
    title: 'Complétez votre profil',
    heading: (client: string) => `Complétez votre profil pour ${client}`,
    intro: (provider: string) =>
      `Vous vous êtes connecté avec ${provider}. Il manque quelques informations pour créer votre compte.`,
    gave: (provider: string) => `${provider} nous a transmis :`,
    name: 'Nom',
    email: 'E-mail',
    colon: ' : ',
    verified: 'confirmée par le fournisseur',
    unverified: 'non confirmée par le fournisseur',
    nothing: 'ni nom ni e-mail',
    choose: 'Choisir…',
    required: 'Ce champ est obligatoire.',
    invalid: (_detail: string) => 'Cette valeur n’est pas valide.',
    problems: 'Certains champs sont manquants ou invalides.',
    submit: 'Créer mon compte',
  },
};

/** How a validator's problem with one field reads on the page. */
export function fieldErrorText(language: Language, e: FieldError): string {
  const t = TEXT[language];
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
  /** Other fields a posted completion named (the app's page): shown so they can be corrected. */
  others: string[];
  /** What was posted, kept. */
  values: Record<string, string>;
  /** The problems, by field name as posted (`email`, `custom_fields.<name>`, ...). */
  errors: Record<string, string>;
  target: string | null;
}

/** One labelled field with its problem, if any. */
function field(id: string, label: string, name: string, p: CompleteProfileInput, render: (attrs: string) => string) {
  const problem = p.errors[name];
  const described = problem ? ` aria-describedby="${id}-error" aria-invalid="true"` : '';
  const error = problem ? `<p class="error" id="${id}-error">${escapeHtml(problem)}</p>` : '';
  const control = render(`id="${id}" name="${escapeHtml(name)}"${described}`);
  return `<label for="${id}">${escapeHtml(label)}</label>${control}${error}`;
}

export function completeProfilePage(status: number, p: CompleteProfileInput): Page {
  const t = TEXT[p.language];
  const confirmed = p.given.emailVerified ? t.verified : t.unverified;
  const given = [
    p.given.name ? `<li>${t.name}${t.colon}${escapeHtml(p.given.name)}</li>` : '',
    p.given.email ? `<li>${t.email}${t.colon}${escapeHtml(p.given.email)} (${confirmed})</li>` : '',
  ].join('');
  const fields = [
    p.askEmail
      ? field(
          'email',
          t.email,
          'email',
          p,
          (a) => `<input ${a} type="email" autocomplete="email" required value="${escapeHtml(p.values.email ?? '')}">`,
        )
      : '',
    ...p.fields.map((f) => {
      const name = `custom_fields.${f.name}`;
      return field(`f-${f.name}`, f.name, name, p, (a) =>
        customFieldControl(f, a, p.values[name] ?? '', { required: f.required, choose: t.choose }),
      );
    }),
    ...p.others.map((name, i) =>
      field(`x-${i}`, name, name, p, (a) => `<input ${a} type="text" value="${escapeHtml(p.values[name] ?? '')}">`),
    ),
  ].join('\n');
  const problems = Object.keys(p.errors).length ? `<p class="error" role="alert">${t.problems}</p>` : '';
  return {
    status,
    lang: p.language,
    title: t.title,
    body: `<h1>${escapeHtml(t.heading(p.clientName))}</h1>${problems}
<p>${escapeHtml(t.intro(p.providerLabel))}</p>
<p class="muted">${escapeHtml(t.gave(p.providerLabel))}</p><ul class="muted">${given || `<li>${t.nothing}</li>`}</ul>
<form method="post" action="/identity/v1/signup/complete" novalidate>
<input type="hidden" name="signup_token" value="${escapeHtml(p.signupToken)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
${fields}
<button type="submit">${t.submit}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

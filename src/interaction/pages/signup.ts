// The hosted signup page (linked from the login page) and the page that follows it when the account
// requires a verified email before sign-in, in the request's language (src/texts/).
import type { CaptchaWidget } from '../../captcha/widget.js';
import type { CustomFieldSetting } from '../../config/types.js';
import type { Language } from '../../errors/ward-error.js';
import { html, joinHtml, type Page, type SafeHtml } from '../../lib/html.js';
import { type Texts, textsIn } from '../../texts/texts.js';
import { captchaBox, captchaScript } from './captcha-widget.js';
import { isCheckbox } from '../../accounts/custom-field-types.js';
import { customFieldControl } from './custom-field-control.js';
import { formActionSource } from './login.js';
import { strengthMeterHtml, strengthMeterScript } from './strength-meter.js';

export interface SignupPageInput {
  clientId: string;
  clientName: string;
  interaction: string;
  csrf: string;
  language: Language;
  /** The custom fields the user may write (the account's `custom_fields`). */
  customFields: CustomFieldSetting[];
  minLength: number;
  /** What the user typed (never the password), to show again with an error. */
  values: Record<string, string>;
  error?: string;
  loginHref: string;
  target: string | null;
  /** The captcha the account asks on this form, if any. */
  captcha?: CaptchaWidget | null;
  /** The account's active consent definitions, in the page's language: a checkbox each. */
  consents?: ReadonlyArray<{ key: string; title: string; description: string; required: boolean }>;
}

/** The checkbox of a consent (posted as `consent_<key>`); a required one must be checked. */
function consentInput(
  c: NonNullable<SignupPageInput['consents']>[number],
  checked: boolean,
  t: Texts['pages']['signup'],
): SafeHtml {
  const id = `consent_${c.key}`;
  return html`<p><input type="checkbox" id="${id}" name="${id}" value="1"${checked && html` checked`}${c.required && html` required`}>
<label for="${id}" class="inline">${c.title}${!c.required && ` ${t.optional}`}</label></p>${c.description && html`<p class="muted">${c.description}</p>`}`;
}

/** The form input of a custom field (its name under custom_fields is the input's name after `cf_`). */
function customInput(f: CustomFieldSetting, value: string, t: Texts['pages']['signup']): SafeHtml {
  const id = `cf_${f.name}`;
  const name = f.name.replace(/_/g, ' ');
  const control = customFieldControl(f, html`id="${id}" name="${id}"`, value, { required: f.required, choose: '' });
  if (isCheckbox(f)) return html`<p>${control}\n<label for="${id}" class="inline">${name}: ${t.yes}</label></p>`;
  return html`<label for="${id}">${name}${!f.required && ` ${t.optional}`}</label>${control}`;
}

export function signupPage(status: number, p: SignupPageInput): Page {
  const t = textsIn(p.language).pages.signup;
  const value = (name: string) => p.values[name] ?? '';
  const error = p.error && html`<p class="error" role="alert" id="signup-error">${p.error}</p>`;
  const described = p.error && html` aria-describedby="signup-error"`;
  const custom = p.customFields.map((f) => customInput(f, p.values[`cf_${f.name}`] ?? '', t));
  const consents = (p.consents ?? []).map((c) => consentInput(c, p.values[`consent_${c.key}`] === '1', t));
  return {
    status,
    title: t.title,
    lang: p.language,
    body: html`<h1>${t.heading(p.clientName)}</h1>${error}
<form method="post" action="/oauth/authorize/signup" novalidate>
<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${value('email')}"${described}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required
  minlength="${p.minLength}" aria-describedby="password-hint">
<p class="muted" id="password-hint">${t.hint(p.minLength)}</p>
${strengthMeterHtml(p.language, p.clientId)}
<label for="given_name">${t.givenName} ${t.optional}</label>
<input id="given_name" name="given_name" type="text" autocomplete="given-name" value="${value('given_name')}">
<label for="family_name">${t.familyName} ${t.optional}</label>
<input id="family_name" name="family_name" type="text" autocomplete="family-name" value="${value('family_name')}">
${joinHtml(custom, html`\n`)}
${joinHtml(consents, html`\n`)}
${captchaBox(p.captcha)}
<button type="submit">${t.submit}</button>
</form>
<p>${t.haveAccount} <a href="${p.loginHref}">${t.signIn}</a></p>`,
    formAction: formActionSource(p.target),
    script: strengthMeterScript,
    connectSelf: true,
    ...captchaScript([p.captcha]),
  };
}

/** After a signup whose email must be confirmed before the first sign-in. */
export const signupSentPage = (language: Language, email: string, loginHref: string): Page => {
  const t = textsIn(language).pages.signup;
  return {
    status: 200,
    lang: language,
    title: t.sentTitle,
    body: html`<h1>${t.sentTitle}</h1><p>${t.sent(email)}</p>
<p><a href="${loginHref}">${t.signIn}</a></p>`,
  };
};

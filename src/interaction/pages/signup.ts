// The hosted signup page (linked from the login page) and the page that follows it when the account
// requires a verified email before sign-in. English and French.
import type { CustomFieldSetting } from '../../config/types.js';
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { customFieldControl } from './custom-field-control.js';
import { formActionSource } from './login.js';
import { strengthMeterHtml, strengthMeterScript } from './strength-meter.js';

const TEXT = {
  en: {
    title: 'Create an account',
    heading: (client: string) => `Create your account for ${client}`,
    email: 'Email',
    password: 'Password',
    hint: (min: number) => `At least ${min} characters; not your email or name, nor a common password.`,
    givenName: 'First name',
    familyName: 'Last name',
    optional: '(optional)',
    yes: 'Yes',
    submit: 'Create my account',
    haveAccount: 'Already have an account?',
    signIn: 'Sign in',
    sentTitle: 'Check your email',
    sent: (email: string) =>
      `We sent a link to ${email}. Open it to confirm your address, then sign in. It works for a limited time.`,
  },
  fr: {
    title: 'Créer un compte',
    heading: (client: string) => `Créez votre compte pour ${client}`,
    email: 'E-mail',
    password: 'Mot de passe',
    hint: (min: number) => `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant.`,
    givenName: 'Prénom',
    familyName: 'Nom',
    optional: '(facultatif)',
    yes: 'Oui',
    submit: 'Créer mon compte',
    haveAccount: 'Vous avez déjà un compte ?',
    signIn: 'Me connecter',
    sentTitle: 'Consultez vos e-mails',
    sent: (email: string) =>
      `Nous avons envoyé un lien à ${email}. Ouvrez-le pour confirmer votre adresse, puis connectez-vous. ` +
      'Il est valable un temps limité.',
  },
};

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
}

/** The form input of a custom field (its name under custom_fields is the input's name after `cf_`). */
function customInput(f: CustomFieldSetting, value: string, t: (typeof TEXT)['en']): string {
  const id = `cf_${f.name}`;
  const name = escapeHtml(f.name.replace(/_/g, ' '));
  const control = customFieldControl(f, `id="${id}" name="${id}"`, value, { required: f.required, choose: '' });
  if (f.data_type === 'boolean')
    return `<p>${control}\n<label for="${id}" class="inline">${name}: ${t.yes}</label></p>`;
  return `<label for="${id}">${name}${f.required ? '' : ` ${t.optional}`}</label>${control}`;
}

export function signupPage(status: number, p: SignupPageInput): Page {
  const t = TEXT[p.language];
  const value = (name: string) => escapeHtml(p.values[name] ?? '');
  const error = p.error ? `<p class="error" role="alert" id="signup-error">${escapeHtml(p.error)}</p>` : '';
  const described = p.error ? ' aria-describedby="signup-error"' : '';
  const custom = p.customFields.map((f) => customInput(f, p.values[`cf_${f.name}`] ?? '', t));
  return {
    status,
    title: t.title,
    lang: p.language,
    body: `<h1>${escapeHtml(t.heading(p.clientName))}</h1>${error}
<form method="post" action="/oauth/authorize/signup" novalidate>
<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
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
${custom.join('\n')}
<button type="submit">${t.submit}</button>
</form>
<p>${t.haveAccount} <a href="${escapeHtml(p.loginHref)}">${t.signIn}</a></p>`,
    formAction: formActionSource(p.target),
    script: strengthMeterScript,
    connectSelf: true,
  };
}

/** After a signup whose email must be confirmed before the first sign-in. */
export const signupSentPage = (language: Language, email: string, loginHref: string): Page => {
  const t = TEXT[language];
  return {
    status: 200,
    lang: language,
    title: t.sentTitle,
    body: `<h1>${t.sentTitle}</h1><p>${escapeHtml(t.sent(email))}</p>
<p><a href="${escapeHtml(loginHref)}">${t.signIn}</a></p>`,
  };
};

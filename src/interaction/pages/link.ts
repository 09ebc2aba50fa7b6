import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { type HostedMessage, hostedMessage } from './hosted-messages.js';
import { formActionSource } from './login.js';

const TEXT = {
  en: {
    title: 'Link your account',
    heading: 'You already have an account',
    lead: (email: string, provider: string) =>
      `An account exists for ${email}. Enter its password to link your ${provider} sign-in to it.`,
    password: 'Password',
    submit: 'Link and sign in',
    incorrectPassword: 'The password is incorrect.',
  },
  fr: {
    title: 'Associer votre compte',
    heading: 'Vous avez déjà un compte',
    lead: (email: string, provider: string) =>
      `Un compte existe pour ${email}. Saisissez son mot de passe pour y associer votre connexion ${provider}.`,
    password: 'Mot de passe',
    submit: 'Associer et me connecter',
    incorrectPassword: 'Le mot de passe est incorrect.',
  },
};

/** Why the password was refused: this page's own message, or the per-account protection's (as on the login page). */
export type LinkPageError = 'incorrectPassword' | Extract<HostedMessage, 'accountDelayed' | 'accountLocked'>;

export interface LinkPageInput {
  linkToken: string;
  csrf: string;
  email: string;
  /** The provider's label, as on the login page's button. */
  providerLabel: string;
  target: string | null;
  error?: LinkPageError;
  /** The page's language (ui_locales, else Accept-Language); English when absent. */
  language?: Language;
}

/** A social identity whose verified email has an account: linked only once that account's password is entered. */
export function linkPage(status: number, p: LinkPageInput): Page {
  const language = p.language ?? 'en';
  const t = TEXT[language];
  const message = p.error === 'incorrectPassword' ? t.incorrectPassword : p.error && hostedMessage(language, p.error);
  const error = message ? `<p class="error" role="alert" id="link-error">${escapeHtml(message)}</p>` : '';
  const described = message ? ' aria-describedby="link-error"' : '';
  return {
    status,
    title: t.title,
    lang: language,
    body: `<h1>${t.heading}</h1><p>${t.lead(escapeHtml(p.email), escapeHtml(p.providerLabel))}</p>${error}
<form method="post" action="/identity/v1/oauth/link">
<input type="hidden" name="link_token" value="${escapeHtml(p.linkToken)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">${t.submit}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

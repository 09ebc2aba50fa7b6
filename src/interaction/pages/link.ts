import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { type HostedMessage, hostedMessage } from './hosted-messages.js';
import { formActionSource } from './login.js';

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
  const t = textsIn(language).pages.link;
  const message = p.error === 'incorrectPassword' ? t.incorrectPassword : p.error && hostedMessage(language, p.error);
  const error = message && html`<p class="error" role="alert" id="link-error">${message}</p>`;
  const described = message && html` aria-describedby="link-error"`;
  return {
    status,
    title: t.title,
    lang: language,
    body: html`<h1>${t.heading}</h1><p>${t.lead(p.email, p.providerLabel)}</p>${error}
<form method="post" action="/identity/v1/oauth/link">
<input type="hidden" name="link_token" value="${p.linkToken}">
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">${t.submit}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

// The pages of logout, in the request's language (ui_locales, else Accept-Language).
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface LogoutConfirmInput {
  language: Language;
  /** The client that asked, when the request named one. */
  clientName: string | null;
  /** Who the SSO session says the user is. */
  who: string;
  /** The confirmation token (bound to the session) and the request's parameters, posted back. */
  token: string;
  carried: Record<string, string>;
  /** Where the browser goes after signing out (a redirect after the form's POST: CSP form-action). */
  target: string | null;
}

/**
 * A logout request that cannot be tied to the session (no id_token_hint, or one of another user or
 * session) never signs the user out by itself: a link on any page could. The user chooses here.
 */
export function logoutConfirmPage(p: LogoutConfirmInput): Page {
  const t = textsIn(p.language).pages.logout;
  const hidden = Object.entries({ ...p.carried, confirmation: p.token }).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  );
  const from = p.clientName && html`<p>${t.asks(p.clientName)}</p>`;
  return {
    status: 200,
    title: t.confirmTitle,
    lang: p.language,
    body: html`<h1>${t.confirmTitle}</h1>${from}<p>${t.signedInAs(p.who)}</p>
<form method="post" action="/identity/v1/logout">${hidden}
<button type="submit" name="confirm" value="yes">${t.signOut}</button></form>
<form method="post" action="/identity/v1/logout">${hidden}
<button type="submit" class="secondary" name="confirm" value="no">${t.staySignedIn}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

/** A logout that has nowhere to return to (`unregistered`: the SDK's return address that no client registered). */
export function signedOutPage(language: Language, unregistered?: string): Page {
  const t = textsIn(language).pages.logout;
  const note = unregistered && html`<p class="muted">${t.notRegistered(unregistered.slice(0, 200))}</p>`;
  return { status: 200, title: t.signedOutTitle, lang: language, body: html`<h1>${t.signedOut}</h1>${note}` };
}

export function stillSignedInPage(language: Language): Page {
  const t = textsIn(language).pages.logout;
  return { status: 200, title: t.stillTitle, lang: language, body: html`<h1>${t.still}</h1>` };
}

/** A refused logout request, shown to a browser: nothing was changed and nobody is redirected. */
export function logoutErrorPage(status: number, language: Language, message: string, error: string): Page {
  const t = textsIn(language).pages.logout;
  return {
    status,
    title: t.errorTitle,
    lang: language,
    body: html`<h1>${t.errorHeading}</h1><p class="error" role="alert">${message}</p><p
class="muted">${t.error} ${error}</p>`,
  };
}

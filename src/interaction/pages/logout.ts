// The pages of logout, in English or French (ui_locales, else Accept-Language).
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

const TEXT = {
  en: {
    confirmTitle: 'Sign out?',
    asks: (client: string) => `${client} asks to sign you out.`,
    signedInAs: (who: string) => `You are signed in as ${who}.`,
    signOut: 'Sign out',
    staySignedIn: 'Stay signed in',
    signedOutTitle: 'Signed out',
    signedOut: 'You are signed out',
    notRegistered: (url: string) => `The return address ${url} is not registered, so you stay here.`,
    stillTitle: 'Still signed in',
    still: 'You are still signed in',
    errorTitle: 'Sign-out error',
    errorHeading: 'This sign-out request cannot be completed',
    error: 'Error:',
  },
  fr: {
    confirmTitle: 'Se déconnecter ?',
    asks: (client: string) => `${client} demande votre déconnexion.`,
    signedInAs: (who: string) => `Vous êtes connecté en tant que ${who}.`,
    signOut: 'Me déconnecter',
    staySignedIn: 'Rester connecté',
    signedOutTitle: 'Déconnecté',
    signedOut: 'Vous êtes déconnecté',
    notRegistered: (url: string) => `L’adresse de retour ${url} n’est pas enregistrée : vous restez ici.`,
    stillTitle: 'Toujours connecté',
    still: 'Vous êtes toujours connecté',
    errorTitle: 'Erreur de déconnexion',
    errorHeading: 'Cette demande de déconnexion ne peut pas aboutir',
    error: 'Erreur :',
  },
};

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
  const t = TEXT[p.language];
  const hidden = Object.entries({ ...p.carried, confirmation: p.token })
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const from = p.clientName ? `<p>${t.asks(escapeHtml(p.clientName))}</p>` : '';
  return {
    status: 200,
    title: t.confirmTitle,
    lang: p.language,
    body: `<h1>${t.confirmTitle}</h1>${from}<p>${t.signedInAs(escapeHtml(p.who))}</p>
<form method="post" action="/identity/v1/logout">${hidden}
<button type="submit" name="confirm" value="yes">${t.signOut}</button></form>
<form method="post" action="/identity/v1/logout">${hidden}
<button type="submit" class="secondary" name="confirm" value="no">${t.staySignedIn}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

/** A logout that has nowhere to return to (`unregistered`: the SDK's return address that no client registered). */
export function signedOutPage(language: Language, unregistered?: string): Page {
  const t = TEXT[language];
  const note = unregistered ? `<p class="muted">${t.notRegistered(escapeHtml(unregistered.slice(0, 200)))}</p>` : '';
  return { status: 200, title: t.signedOutTitle, lang: language, body: `<h1>${t.signedOut}</h1>${note}` };
}

export function stillSignedInPage(language: Language): Page {
  const t = TEXT[language];
  return { status: 200, title: t.stillTitle, lang: language, body: `<h1>${t.still}</h1>` };
}

/** A refused logout request, shown to a browser: nothing was changed and nobody is redirected. */
export function logoutErrorPage(status: number, language: Language, message: string, error: string): Page {
  const t = TEXT[language];
  return {
    status,
    title: t.errorTitle,
    lang: language,
    body: `<h1>${t.errorHeading}</h1><p class="error" role="alert">${escapeHtml(message)}</p><p
class="muted">${t.error} ${escapeHtml(error)}</p>`,
  };
}

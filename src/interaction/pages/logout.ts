// The pages of OpenID Connect logout, in English or French (ui_locales, else Accept-Language).
import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
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
  const fr = p.language === 'fr';
  const hidden = Object.entries({ ...p.carried, confirmation: p.token })
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const from = p.clientName
    ? fr
      ? `<p>${escapeHtml(p.clientName)} demande votre déconnexion.</p>`
      : `<p>${escapeHtml(p.clientName)} asks to sign you out.</p>`
    : '';
  return {
    status: 200,
    title: fr ? 'Se déconnecter ?' : 'Sign out?',
    body: `<h1>${fr ? 'Se déconnecter ?' : 'Sign out?'}</h1>${from}<p>${fr ? 'Vous êtes connecté en tant que' : 'You are signed in as'} ${escapeHtml(p.who)}.</p>
<form method="post" action="/identity/v1/logout">${hidden}<button type="submit" name="confirm" value="yes">${fr ? 'Me déconnecter' : 'Sign out'}</button></form>
<form method="post" action="/identity/v1/logout">${hidden}<button type="submit" class="secondary" name="confirm" value="no">${fr ? 'Rester connecté' : 'Stay signed in'}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

export const signedOutPage = (language: Language): Page => ({
  status: 200,
  title: language === 'fr' ? 'Déconnecté' : 'Signed out',
  body: language === 'fr' ? '<h1>Vous êtes déconnecté</h1>' : '<h1>You are signed out</h1>',
});

export const stillSignedInPage = (language: Language): Page => ({
  status: 200,
  title: language === 'fr' ? 'Toujours connecté' : 'Still signed in',
  body: language === 'fr' ? '<h1>Vous êtes toujours connecté</h1>' : '<h1>You are still signed in</h1>',
});

/** A refused logout request, shown to a browser: nothing was changed and nobody is redirected. */
export function logoutErrorPage(status: number, language: Language, message: string, error: string): Page {
  const fr = language === 'fr';
  return {
    status,
    title: fr ? 'Erreur de déconnexion' : 'Sign-out error',
    body: `<h1>${fr ? 'Cette demande de déconnexion ne peut pas aboutir' : 'This sign-out request cannot be completed'}</h1><p class="error" role="alert">${escapeHtml(message)}</p><p class="muted">${fr ? 'Erreur :' : 'Error:'} ${escapeHtml(error)}</p>`,
  };
}

import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

const TEXT = {
  en: {
    title: 'Link your Messenger account',
    heading: (client: string) => `Link your Messenger account to ${client}?`,
    signedInAs: (who: string, client: string) =>
      `You are signed in as ${who}. ${client} will know your name and email address.`,
    allow: 'Link my account',
    cancel: 'Cancel',
  },
  fr: {
    title: 'Associer votre compte Messenger',
    heading: (client: string) => `Associer votre compte Messenger à ${client} ?`,
    signedInAs: (who: string, client: string) =>
      `Vous êtes connecté en tant que ${who}. ${client} connaîtra votre nom et votre adresse e-mail.`,
    allow: 'Associer mon compte',
    cancel: 'Annuler',
  },
};

export interface ConfirmPageInput {
  clientName: string;
  interaction: string;
  csrf: string;
  /** Who the SSO session says the user is. */
  who: string;
  target: string | null;
  /** The page's language (ui_locales, else Accept-Language); English when absent. */
  language?: Language;
}

/**
 * Messenger linking never issues a code silently from an SSO cookie (ML-05, linking CSRF): the user
 * first sees "Link your Messenger account to <client>?" and chooses.
 */
export function confirmPage(p: ConfirmPageInput): Page {
  const language = p.language ?? 'en';
  const t = TEXT[language];
  const hidden =
    `<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">`;
  const client = escapeHtml(p.clientName);
  return {
    status: 200,
    title: t.title,
    lang: language,
    body: `<h1>${t.heading(client)}</h1><p>${t.signedInAs(escapeHtml(p.who), client)}</p>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="allow">${t.allow}</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="deny">${t.cancel}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

const SIGN_IN_TEXT = {
  en: {
    title: 'Confirm sign-in',
    heading: (client: string) => `Sign in to ${client} on this device?`,
    body: (who: string) =>
      `A sign-in as <strong>${who}</strong> was started elsewhere than in this browser. Go on only if you started it yourself.`,
    allow: 'Sign in',
    cancel: 'Cancel',
  },
  fr: {
    title: 'Confirmer la connexion',
    heading: (client: string) => `Se connecter à ${client} sur cet appareil ?`,
    body: (who: string) =>
      `Une connexion en tant que <strong>${who}</strong> a été commencée ailleurs que dans ce navigateur. Continuez seulement si c’est vous qui l’avez commencée.`,
    allow: 'Me connecter',
    cancel: 'Annuler',
  },
};

/**
 * A tkn opened in a browser that did not ask for it: the user confirms who they sign in as before
 * this browser is signed in (login CSRF). Posts to the same consent route as the Messenger page.
 */
export function signInConfirmPage(p: ConfirmPageInput): Page {
  const language = p.language ?? 'en';
  const t = SIGN_IN_TEXT[language];
  const hidden =
    `<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">`;
  return {
    status: 200,
    title: t.title,
    lang: language,
    body: `<h1>${t.heading(escapeHtml(p.clientName))}</h1><p>${t.body(escapeHtml(p.who))}</p>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="allow">${t.allow}</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="deny">${t.cancel}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

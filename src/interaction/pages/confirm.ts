import type { Language } from '../../errors/ward-error.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

const TEXT: Record<Language, DecisionText> = {
  en: {
    title: 'Link your Messenger account',
    heading: (client: string) => `Link your Messenger account to ${client}?`,
    body: (who: string, client: string) =>
      `You are signed in as ${who}. ${client} will know your name and email address.`,
    allow: 'Link my account',
    cancel: 'Cancel',
  },
  fr: {
    title: 'Associer votre compte Messenger',
    heading: (client: string) => `Associer votre compte Messenger à ${client} ?`,
    body: (who: string, client: string) =>
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

interface DecisionText {
  title: string;
  heading: (client: string) => string;
  /** The paragraph under the heading; both arguments are already escaped. */
  body: (who: string, client: string) => string;
  allow: string;
  cancel: string;
}

/** A question the user answers with Allow or Cancel, both posted to /oauth/authorize/consent. */
function decisionPage(text: Record<Language, DecisionText>, p: ConfirmPageInput): Page {
  const language = p.language ?? 'en';
  const t = text[language];
  const hidden =
    `<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">`;
  const client = escapeHtml(p.clientName);
  return {
    status: 200,
    title: t.title,
    lang: language,
    body: `<h1>${t.heading(client)}</h1><p>${t.body(escapeHtml(p.who), client)}</p>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="allow">${t.allow}</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}
<button type="submit" name="decision" value="deny">${t.cancel}</button></form>`,
    formAction: formActionSource(p.target),
  };
}

/**
 * Messenger linking never issues a code silently from an SSO cookie (ML-05, linking CSRF): the user
 * first sees "Link your Messenger account to <client>?" and chooses.
 */
export const confirmPage = (p: ConfirmPageInput): Page => decisionPage(TEXT, p);

const SIGN_IN_TEXT: Record<Language, DecisionText> = {
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
export const signInConfirmPage = (p: ConfirmPageInput): Page => decisionPage(SIGN_IN_TEXT, p);

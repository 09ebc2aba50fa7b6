// The questions a sign-in asks before it goes on, answered with Allow or Cancel, in the request's
// language: Messenger linking, and a sign-in token opened in another browser.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

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

interface Decision {
  title: string;
  heading: (client: string) => string;
  allow: string;
  cancel: string;
}

/** A question the user answers with Allow or Cancel, both posted to /oauth/authorize/consent. */
function decisionPage(t: Decision, lead: SafeHtml, p: ConfirmPageInput): Page {
  const hidden = html`<input type="hidden" name="interaction" value="${p.interaction}"><input type="hidden" name="csrf" value="${p.csrf}">`;
  return {
    status: 200,
    title: t.title,
    lang: p.language ?? 'en',
    body: html`<h1>${t.heading(p.clientName)}</h1><p>${lead}</p>
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
export const confirmPage = (p: ConfirmPageInput): Page => {
  const t = textsIn(p.language ?? 'en').pages.messengerConfirm;
  return decisionPage(t, html`${t.body(p.who, p.clientName)}`, p);
};

/**
 * A tkn opened in a browser that did not ask for it: the user confirms who they sign in as before
 * this browser is signed in (login CSRF). Posts to the same consent route as the Messenger page.
 */
export const signInConfirmPage = (p: ConfirmPageInput): Page => {
  const t = textsIn(p.language ?? 'en').pages.signInConfirm;
  return decisionPage(t, html`${t.startedAs} <strong>${p.who}</strong> ${t.startedElsewhere}`, p);
};

import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

export interface ConfirmPageInput {
  clientName: string;
  interaction: string;
  csrf: string;
  /** Who the SSO session says the user is. */
  who: string;
  target: string | null;
}

/**
 * Messenger linking never issues a code silently from an SSO cookie (ML-05, linking CSRF): the user
 * first sees "Link your Messenger account to <client>?" and chooses.
 */
export function confirmPage(p: ConfirmPageInput): Page {
  const hidden = `<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}"><input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">`;
  const client = escapeHtml(p.clientName);
  return {
    status: 200,
    title: 'Link your Messenger account',
    body: `<h1>Link your Messenger account to ${client}?</h1><p>You are signed in as ${escapeHtml(p.who)}. ${client} will know your name and email address.</p>
<form method="post" action="/oauth/authorize/consent">${hidden}<button type="submit" name="decision" value="allow">Link my account</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}<button type="submit" name="decision" value="deny">Cancel</button></form>`,
    formAction: formActionSource(p.target),
  };
}

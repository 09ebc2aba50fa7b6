import { escapeHtml, type Page } from '../../lib/html.js';
import { formActionSource } from './login.js';

export interface LinkPageInput {
  linkToken: string;
  csrf: string;
  email: string;
  /** The provider's label, as on the login page's button. */
  providerLabel: string;
  target: string | null;
  error?: string;
}

/** A social identity whose verified email has an account: linked only once that account's password is entered. */
export function linkPage(status: number, p: LinkPageInput): Page {
  const error = p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : '';
  return {
    status,
    title: 'Link your account',
    body: `<h1>You already have an account</h1><p>An account exists for ${escapeHtml(p.email)}. Enter its password to link your ${escapeHtml(p.providerLabel)} sign-in to it.</p>${error}
<form method="post" action="/identity/v1/oauth/link"><input type="hidden" name="link_token" value="${escapeHtml(p.linkToken)}"><input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required><button type="submit">Link and sign in</button></form>`,
    formAction: formActionSource(p.target),
  };
}

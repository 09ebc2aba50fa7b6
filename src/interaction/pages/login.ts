import { escapeHtml, type Page } from '../../lib/html.js';

export interface LoginPageInput {
  clientName: string;
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  email?: string;
  error?: string;
  /** Where the form's 303 ends: the validated redirect target (see formActionSource). */
  target: string | null;
  /** One button per configured social provider. */
  social?: Array<{ label: string; href: string }>;
}

/** The hosted login page: one accessible form, posting back to Ward only. */
export function loginPage(status: number, p: LoginPageInput): Page {
  const error = p.error ? `<p class="error" role="alert" id="login-error">${escapeHtml(p.error)}</p>` : '';
  return {
    status,
    title: 'Sign in',
    body: `<h1>Sign in to ${escapeHtml(p.clientName)}</h1>${error}
<form method="post" action="/oauth/authorize/login" novalidate>
<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}"${p.error ? ' aria-describedby="login-error"' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${(p.social ?? []).map((b) => `<p><a class="provider" href="${escapeHtml(b.href)}">Continue with ${escapeHtml(b.label)}</a></p>`).join('')}
<form method="post" action="/oauth/authorize/consent">
<input type="hidden" name="interaction" value="${escapeHtml(p.interaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
<button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

/**
 * The CSP source the login form's redirect ends at: Chrome and Safari apply `form-action` to the 303
 * that follows the POST, so `form-action 'self'` alone would block the way back to the client. Only
 * the validated redirect target's origin is added (a scheme-source for a private-use scheme).
 */
export function formActionSource(target: string | null): string[] {
  if (!target) return [];
  const url = new URL(target);
  return [url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol];
}

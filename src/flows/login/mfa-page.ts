import type { FastifyReply } from 'fastify';
import { escapeHtml, sendPage } from '../../http/pages.js';
import { formActionSource } from './page.js';

export interface MfaPageInput {
  clientName: string;
  request: string;
  csrf: string;
  stepUp: string;
  challengeId: string;
  channel: 'email' | 'sms';
  channels: Array<'email' | 'sms'>;
  target: string | null;
  notice?: string;
  error?: string;
}

/** The hosted second-factor page: the code sent to a registered factor, resend, another factor. */
export function sendMfaPage(reply: FastifyReply, status: number, p: MfaPageInput): FastifyReply {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const common = hidden('request', p.request) + hidden('csrf', p.csrf) + hidden('step_up', p.stepUp);
  const where = p.channel === 'email' ? 'your email address' : 'your phone';
  const other = p.channels.filter((c) => c !== p.channel);
  const message = p.error
    ? `<p class="error" role="alert" id="mfa-error">${escapeHtml(p.error)}</p>`
    : p.notice
      ? `<p role="status">${escapeHtml(p.notice)}</p>`
      : '';
  return sendPage(
    reply,
    status,
    'Verification code',
    `<h1>Verify it is you</h1><p>We sent a code to ${where} to sign in to ${escapeHtml(p.clientName)}.</p>${message}
<form method="post" action="/oauth/authorize/mfa" novalidate>${common}${hidden('challenge_id', p.challengeId)}${hidden('auth_type', p.channel)}
<label for="code">Verification code</label>
<input id="code" name="verification_code" inputmode="numeric" autocomplete="one-time-code" required${p.error ? ' aria-describedby="mfa-error"' : ''}>
<button type="submit" name="action" value="verify">Verify</button>
</form>
<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', p.channel)}
<button type="submit" name="action" value="resend">Send a new code</button></form>
${other.map((c) => `<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}<button type="submit" name="action" value="resend">Send the code by ${c === 'email' ? 'email' : 'SMS'} instead</button></form>`).join('')}`,
    { formAction: formActionSource(p.target) },
  );
}

// The hosted second-factor page, in the request's language.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface MfaPageInput {
  clientName: string;
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  stepUp: string;
  challengeId: string;
  /** The factor asked for: a code sent by email or SMS, or the code of an authenticator app (`totp`). */
  channel: 'email' | 'sms' | 'totp';
  channels: Array<'email' | 'sms' | 'totp'>;
  /** Whether the user has recovery codes left (a form for one is shown). */
  recovery?: boolean;
  target: string | null;
  notice?: string;
  error?: string;
  language?: Language;
}

/** The hosted second-factor page: the code sent to a registered factor, resend, another factor. */
export function secondFactorPage(status: number, p: MfaPageInput): Page {
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;
  const common = [hidden('interaction', p.interaction), hidden('csrf', p.csrf), hidden('step_up', p.stepUp)];
  const t = textsIn(p.language ?? 'en').pages.secondFactor;
  const other = p.channels.filter((c) => c !== p.channel);
  const message = p.error
    ? html`<p class="error" role="alert" id="mfa-error">${p.error}</p>`
    : p.notice && html`<p role="status">${p.notice}</p>`;
  const verifyForm = (type: string, label: string, id: string, button: string, numeric: boolean) =>
    html`<form method="post" action="/oauth/authorize/mfa"
novalidate>${common}${hidden('challenge_id', type === 'totp' || type === 'recovery_code' ? '' : p.challengeId)}${hidden('auth_type', type)}
<label for="${id}">${label}</label>
<input id="${id}" name="verification_code"${numeric ? html` inputmode="numeric" autocomplete="one-time-code"` : html` autocomplete="off"`}
required${p.error && html` aria-describedby="mfa-error"`}>
<button type="submit" name="action" value="verify">${button}</button>
</form>`;
  const app = p.channel === 'totp';
  const switchTo = (c: 'email' | 'sms' | 'totp') =>
    c === 'totp'
      ? html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', 'totp')}
<button type="submit" name="action" value="switch">${t.useApp}</button></form>`
      : html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}
<button type="submit" name="action" value="resend">${t.other(c)}</button></form>`;
  return {
    status,
    title: t.title,
    lang: p.language ?? 'en',
    body: html`<h1>${t.heading}</h1><p>${app ? t.leadApp(p.clientName) : t.lead(p.channel as 'email' | 'sms', p.clientName)}</p>${message}
${verifyForm(p.channel, t.code, 'code', t.verify, true)}
${
  app
    ? ''
    : html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', p.channel)}
<button type="submit" name="action" value="resend">${t.resend}</button></form>`
}
${other.map(switchTo)}
${p.recovery ? verifyForm('recovery_code', t.recoveryLabel, 'recovery-code', t.useRecovery, false) : ''}`,
    formAction: formActionSource(p.target),
  };
}

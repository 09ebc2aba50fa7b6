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
  channel: 'email' | 'sms';
  channels: Array<'email' | 'sms'>;
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
  return {
    status,
    title: t.title,
    lang: p.language ?? 'en',
    body: html`<h1>${t.heading}</h1><p>${t.lead(p.channel, p.clientName)}</p>${message}
<form method="post" action="/oauth/authorize/mfa"
novalidate>${common}${hidden('challenge_id', p.challengeId)}${hidden('auth_type', p.channel)}
<label for="code">${t.code}</label>
<input id="code" name="verification_code" inputmode="numeric" autocomplete="one-time-code"
required${p.error && html` aria-describedby="mfa-error"`}>
<button type="submit" name="action" value="verify">${t.verify}</button>
</form>
<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', p.channel)}
<button type="submit" name="action" value="resend">${t.resend}</button></form>
${other.map(
  (c) => html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}
<button type="submit" name="action" value="resend">${t.other(c)}</button></form>`,
)}`,
    formAction: formActionSource(p.target),
  };
}

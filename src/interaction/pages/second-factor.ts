// The hosted second-factor page, in the request's language.
import type { Language } from '../../errors/ward-error.js';
import { html, jsonInScript, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface MfaPageInput {
  clientName: string;
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  stepUp: string;
  challengeId: string;
  /**
   * The factor asked for: a code sent by email or SMS, the code of an authenticator app (`totp`), or a
   * security key or passkey (`webauthn`, with its request options).
   */
  channel: PageFactor;
  channels: PageFactor[];
  /** The WebAuthn request options of a `webauthn` channel (stepup/service.ts webAuthnOptions). */
  webauthnOptions?: unknown;
  /** Whether the user has recovery codes left (a form for one is shown). */
  recovery?: boolean;
  target: string | null;
  notice?: string;
  error?: string;
  language?: Language;
}

type PageFactor = 'email' | 'sms' | 'totp' | 'webauthn';

/** The user's factors, most secure first (the recovery code is a fallback form of its own). */
const RANK: PageFactor[] = ['webauthn', 'totp', 'sms', 'email'];

/**
 * The security key's answer: the button asks the browser for an assertion on the options in the page
 * and posts it with the form, in the Core SDK's wire format (CSP allows this script by its hash).
 */
export const keyScript = (options: unknown) => `(function () {
  'use strict';
  var o = ${jsonInScript(options)};
  var form = document.getElementById('key-form');
  var button = document.getElementById('use-key');
  if (!window.PublicKeyCredential || !navigator.credentials) { button.disabled = true; return; }
  var bin = function (s) { return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), function (c) { return c.charCodeAt(0); }); };
  var b64 = function (b) { return btoa(String.fromCharCode.apply(null, new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  button.addEventListener('click', function () {
    var allow = (o.allowCredentials || []).map(function (c) { return { type: 'public-key', id: bin(c.id), transports: c.transports }; });
    navigator.credentials.get({ publicKey: { challenge: bin(o.challenge), rpId: o.rpId, allowCredentials: allow,
      userVerification: o.userVerification, timeout: o.timeout } }).then(function (c) {
      var r = c.response;
      form.elements.assertion.value = JSON.stringify({ id: c.id, raw_id: b64(c.rawId), type: 'public-key', response: {
        authenticator_data: b64(r.authenticatorData), client_data_json: b64(r.clientDataJSON), signature: b64(r.signature),
        user_handle: r.userHandle ? b64(r.userHandle) : null } });
      form.submit();
    }, function () {});
  });
})();`;

/** The hosted second-factor page: the code sent to a registered factor, resend, another factor. */
export function secondFactorPage(status: number, p: MfaPageInput): Page {
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;
  const common = [hidden('interaction', p.interaction), hidden('csrf', p.csrf), hidden('step_up', p.stepUp)];
  const t = textsIn(p.language ?? 'en').pages.secondFactor;
  const other = RANK.filter((c) => c !== p.channel && p.channels.includes(c));
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
  const key = p.channel === 'webauthn';
  const switchTo = (c: PageFactor) =>
    c === 'totp' || c === 'webauthn'
      ? html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}
<button type="submit" name="action" value="switch">${c === 'totp' ? t.useApp : t.useKey}</button></form>`
      : html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', c)}
<button type="submit" name="action" value="resend">${t.other(c)}</button></form>`;
  return {
    status,
    title: t.title,
    lang: p.language ?? 'en',
    body: html`<h1>${t.heading}</h1><p>${key ? t.leadKey(p.clientName) : app ? t.leadApp(p.clientName) : t.lead(p.channel as 'email' | 'sms', p.clientName)}</p>${message}
${
  key
    ? html`<form method="post" action="/oauth/authorize/mfa" id="key-form">${common}${hidden('auth_type', 'webauthn')}
<input type="hidden" name="assertion" value="">
<input type="hidden" name="action" value="verify">
<button type="button" id="use-key">${t.keyButton}</button></form>`
    : verifyForm(p.channel, t.code, 'code', t.verify, true)
}
${
  app || key
    ? ''
    : html`<form method="post" action="/oauth/authorize/mfa">${common}${hidden('auth_type', p.channel)}
<button type="submit" name="action" value="resend">${t.resend}</button></form>`
}
${other.map(switchTo)}
${p.recovery ? verifyForm('recovery_code', t.recoveryLabel, 'recovery-code', t.useRecovery, false) : ''}`,
    formAction: formActionSource(p.target),
    ...(key ? { script: keyScript(p.webauthnOptions ?? {}) } : {}),
  };
}

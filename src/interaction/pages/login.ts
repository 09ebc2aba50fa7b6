import type { CaptchaWidget } from '../../captcha/widget.js';
import type { Language } from '../../errors/ward-error.js';
import { html, joinHtml, jsonInScript, type Page, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { captchaBox, captchaScript } from './captcha-widget.js';

export interface LoginPageInput {
  clientName: string;
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  email?: string;
  /** What the identifier field takes: an email (the default), a custom identifier only, or any identifier. */
  identifier?: 'email' | 'custom' | 'any';
  error?: string;
  /** Where the form's 303 ends: the validated redirect target (see formActionSource). */
  target: string | null;
  /** One button per configured social provider. */
  social?: Array<{ label: string; href: string }>;
  /** Passkeys on: the request options of a discoverable sign-in (its challenge stored for this page). */
  passkey?: { options: unknown };
  /** The "Forgot your password?" page for this client. */
  forgotHref?: string;
  /** The hosted signup page of this sign-in. */
  signupHref?: string;
  /** The passwordless first factors the account allows. */
  passwordless?: { magicLink: boolean; sms: boolean };
  /** The page's language (ui_locales, else Accept-Language); English when absent. */
  language?: Language;
  /** The captchas the account asks on the password form and the passwordless forms, if any. */
  captcha?: { password?: CaptchaWidget | null; passwordless?: CaptchaWidget | null };
}

/** "Email me a sign-in link" and "Text me a code", each its own small form. */
function passwordlessForms(p: LoginPageInput): SafeHtml | null {
  const t = textsIn(p.language ?? 'en').pages.login;
  const hidden = html`<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">`;
  const forms: SafeHtml[] = [];
  if (p.passwordless?.magicLink)
    forms.push(html`<form method="post" action="/oauth/authorize/passwordless" novalidate>${hidden}
<input type="hidden" name="auth_type" value="magic_link">
<label for="pl-email">${t.email}</label><input id="pl-email" name="email" type="email" autocomplete="email" required>
${captchaBox(p.captcha?.passwordless)}
<button type="submit" class="secondary">${t.magicLink}</button></form>`);
  if (p.passwordless?.sms)
    forms.push(html`<form method="post" action="/oauth/authorize/passwordless" novalidate>${hidden}
<input type="hidden" name="auth_type" value="sms">
<label for="pl-phone">${t.phone}</label><input id="pl-phone" name="phone_number" type="tel" autocomplete="tel"
required placeholder="+33612345678">
${captchaBox(p.captcha?.passwordless)}
<button type="submit" class="secondary">${t.sms}</button></form>`);
  return forms.length ? html`<p class="muted">${t.orPasswordless}</p>${joinHtml(forms, html`\n`)}` : null;
}

/**
 * The passkey sign-in of the login page: autofill (conditional mediation) where the browser offers it,
 * and a button for a modal request (automation and older browsers). The assertion is posted with the
 * page's form, in the Core SDK's wire format; CSP allows this script by its hash and no fetch at all.
 */
const passkeyScript = (options: unknown) => `(function () {
  'use strict';
  var o = ${jsonInScript(options)};
  var form = document.getElementById('passkey-form');
  var button = document.getElementById('passkey');
  if (!window.PublicKeyCredential || !navigator.credentials) { button.hidden = true; return; }
  var bin = function (s) { return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), function (c) { return c.charCodeAt(0); }); };
  var b64 = function (b) { return btoa(String.fromCharCode.apply(null, new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  var sent = false;
  function send(c) {
    if (!c || sent) return;
    sent = true;
    var r = c.response;
    form.elements.assertion.value = JSON.stringify({ id: c.id, raw_id: b64(c.rawId), type: 'public-key', response: {
      authenticator_data: b64(r.authenticatorData), client_data_json: b64(r.clientDataJSON), signature: b64(r.signature),
      user_handle: r.userHandle ? b64(r.userHandle) : null } });
    form.submit();
  }
  // The button's modal request replaces a pending autofill request (the browser ends that one).
  function get(mediation) {
    var request = { publicKey: { challenge: bin(o.challenge), rpId: o.rpId, allowCredentials: [], userVerification: o.userVerification, timeout: o.timeout } };
    if (mediation) request.mediation = mediation;
    navigator.credentials.get(request).then(send, function () {});
  }
  button.addEventListener('click', function () { get(null); });
  if (PublicKeyCredential.isConditionalMediationAvailable)
    PublicKeyCredential.isConditionalMediationAvailable().then(function (ok) { if (ok) get('conditional'); });
})();`;

const providerLink = (href: string, label: string) => html`<p><a class="provider" href="${href}">${label}</a></p>`;

/** The hosted login page: one accessible form, posting back to Ward only. */
export function loginPage(status: number, p: LoginPageInput): Page {
  const t = textsIn(p.language ?? 'en').pages.login;
  const error = p.error && html`<p class="error" role="alert" id="login-error">${p.error}</p>`;
  return {
    status,
    title: t.title,
    lang: p.language ?? 'en',
    body: html`<h1>${t.heading(p.clientName)}</h1>${error}
<form method="post" action="/oauth/authorize/login" novalidate>
<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="email">${p.identifier === 'any' ? t.anyIdentifier : p.identifier === 'custom' ? t.customIdentifier : t.email}</label>
<input id="email" name="email" type="${p.identifier && p.identifier !== 'email' ? 'text' : 'email'}" autocomplete="${p.passkey ? 'username webauthn' : 'username'}"
required value="${p.email ?? ''}"${p.error && html` aria-describedby="login-error"`}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
${captchaBox(p.captcha?.password)}
<button type="submit">${t.submit}</button>
</form>
${p.forgotHref && html`<p><a href="${p.forgotHref}">${t.forgot}</a></p>`}
${p.signupHref && html`<p>${t.noAccount} <a href="${p.signupHref}">${t.signup}</a></p>`}
${passwordlessForms(p)}
${
  p.passkey &&
  html`<form method="post" action="/oauth/authorize/passkey" id="passkey-form">
<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">
<input type="hidden" name="assertion" value="">
<button type="button" id="passkey" class="secondary">${t.passkey}</button>
</form>`
}
${(p.social ?? []).map((b) => providerLink(b.href, t.provider(b.label)))}
<form method="post" action="/oauth/authorize/consent">
<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">
<button type="submit" name="decision" value="deny" class="secondary">${t.cancel}</button>
</form>`,
    formAction: formActionSource(p.target),
    ...(p.passkey ? { script: passkeyScript(p.passkey.options) } : {}),
    ...captchaScript([p.captcha?.password, p.captcha?.passwordless]),
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

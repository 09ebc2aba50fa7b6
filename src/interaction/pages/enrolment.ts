// The hosted pages between a first factor and the code when a second factor is to be set up
// (interaction/enrolment.ts): the authenticator app's QR code, key and first code, "Later" while the
// grace count lasts, a security key or passkey registered there (`action=key`, then the ceremony's
// `key_verify`), or a code sent to the user's verified email address or phone number instead; then
// the recovery codes shown once. Also the page after the last recovery code
// was used, which offers a new set before the sign-in goes on. Every form posts /oauth/authorize/enrol.
import type { Language } from '../../errors/ward-error.js';
import { html, trustedHtml, type Page, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { keyCreationScript } from './key-creation.js';
import { formActionSource } from './login.js';

interface FormInput {
  /** The stored interaction's handle (interaction/service.ts). */
  interaction: string;
  csrf: string;
  target: string | null;
  language: Language;
}

export interface EnrolmentPageInput extends FormInput {
  clientName: string;
  totp: { secret: string; uri: string; qrSvg: string };
  skipsLeft: number;
  /** The user's verified addresses that may become an email or SMS factor instead. */
  channels: Array<{ channel: 'email' | 'sms'; to: string }>;
  /** Whether a security key or passkey may be registered instead (a hosted WebAuthn ceremony). */
  keys: boolean;
  /** The ceremony started (`action=key`): its creation options, whose credential the page's script posts. */
  keyOptions?: unknown;
  /** A code was sent to one of them: its form comes first. */
  sent?: { channel: 'email' | 'sms'; to: string };
  error?: string;
}

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

const form = (p: FormInput, action: string, inner: SafeHtml | string = '') =>
  html`<form method="post" action="/oauth/authorize/enrol" novalidate>${hidden('interaction', p.interaction)}${hidden('csrf', p.csrf)}${hidden('action', action)}${inner}</form>`;

const textsOf = (language: Language) => textsIn(language).pages.enrolment;

/** Set up an authenticator app (the QR code and its URI as text), or "Later" while skips are left. */
export function enrolmentPage(status: number, p: EnrolmentPageInput): Page {
  const t = textsOf(p.language);
  const error = p.error && html`<p class="error" role="alert" id="enrol-error">${p.error}</p>`;
  const code = html`<label for="enrol-code">${t.code}</label>
<input id="enrol-code" name="verification_code" inputmode="numeric" autocomplete="one-time-code" required${p.error && html` aria-describedby="enrol-error"`}>
<button type="submit">${t.enable}</button>`;
  const later =
    p.skipsLeft > 0
      ? html`<p class="muted" id="skips-left">${t.skipsLeft(p.skipsLeft)}</p>${form(p, 'later', html`<button type="submit">${t.later}</button>`)}`
      : html`<p class="muted" id="skips-left">${t.noSkipLeft}</p>`;
  const sent =
    p.sent &&
    html`<section id="enrol-sent"><p role="status">${t.sentTo(p.sent.to)}</p>${form(
      p,
      'verify_sent',
      html`${hidden('channel', p.sent.channel)}<label for="enrol-sent-code">${t.sentCode}</label>
<input id="enrol-sent-code" name="verification_code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">${t.sentVerify}</button>`,
    )}</section>`;
  const others = p.channels.map(
    (c) =>
      html`${form(p, c.channel, html`<button type="submit">${c.channel === 'email' ? t.useEmail(c.to) : t.useSms(c.to)}</button>`)}`,
  );
  const key =
    p.keyOptions !== undefined
      ? html`<section id="enrol-security-key"><p>${t.keyLead}</p><form method="post" action="/oauth/authorize/enrol" id="key-form">${hidden('interaction', p.interaction)}${hidden('csrf', p.csrf)}${hidden('action', 'key_verify')}
<input type="hidden" name="credential" value=""><button type="button" id="create-key">${t.keyCreate}</button></form></section>`
      : p.keys
        ? form(p, 'key', html`<button type="submit" id="use-key">${t.useKey}</button>`)
        : '';
  // The SVG is the qrcode library's drawing of the URI (paths only, no script, nothing from the user).
  return {
    status,
    title: t.title,
    lang: p.language,
    body: html`<h1>${t.heading}</h1><p>${t.lead(p.clientName)}</p>${error}${sent}${p.keyOptions !== undefined ? key : ''}
<p>${t.scan}</p><figure id="enrol-qr">${trustedHtml(p.totp.qrSvg)}</figure>
<p>${t.key}: <code id="enrol-key">${p.totp.secret}</code></p><p class="muted"><code id="enrol-uri">${p.totp.uri}</code></p>
${form(p, 'verify', code)}
${p.keyOptions === undefined ? key : ''}
${others}
${later}`,
    formAction: formActionSource(p.target),
    ...(p.keyOptions !== undefined ? { script: keyCreationScript(p.keyOptions) } : {}),
  };
}

/** The recovery codes just made, shown once, and the button that goes on with the sign-in. */
export function recoveryCodesPage(p: FormInput & { codes: string[] }): Page {
  const t = textsOf(p.language);
  return {
    status: 200,
    title: t.codesTitle,
    lang: p.language,
    body: html`<h1>${t.codesTitle}</h1><p role="status">${t.codesLead}</p>
<ul id="recovery-codes">${p.codes.map((c) => html`<li><code>${c}</code></li>`)}</ul>
${form(p, 'continue', html`<button type="submit">${t.continue}</button>`)}`,
    formAction: formActionSource(p.target),
  };
}

/** The last recovery code was used: a new set offered before the sign-in goes on. */
export function lastRecoveryCodePage(p: FormInput): Page {
  const t = textsOf(p.language);
  return {
    status: 200,
    title: t.lastCodeTitle,
    lang: p.language,
    body: html`<h1>${t.lastCodeTitle}</h1><p role="status">${t.lastCodeLead}</p>
${form(p, 'new_codes', html`<button type="submit">${t.newCodes}</button>`)}
${form(p, 'continue', html`<button type="submit">${t.notNow}</button>`)}`,
    formAction: formActionSource(p.target),
  };
}

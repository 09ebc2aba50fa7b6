// The page of a magic link opened in another browser than the one that asked for it: nothing signs
// in there until the user confirms who they sign in as (a link a stranger sent would otherwise sign
// this browser into the stranger's account; a mail scanner that opens links gets only this page).
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';
import { formActionSource } from './login.js';

export interface PasswordlessConfirmInput {
  clientName: string;
  method: 'magic_link' | 'sms';
  address: string;
  token: string;
  csrf: string;
  target: string | null;
}

export function passwordlessConfirmPage(language: Language, p: PasswordlessConfirmInput): Page {
  const t = textsIn(language).pages.passwordless;
  return {
    status: 200,
    title: t.confirmTitle,
    lang: language,
    body: html`<h1>${t.confirmHeading}</h1>
<p>${t.otherBrowser}</p>
<p>${t.signingIn(p.clientName)} ${t.as}
<strong>${p.address}</strong>.</p>
<form method="post" action="/identity/v1/passwordless/confirm">
<input type="hidden" name="auth_type" value="${p.method}">
<input type="hidden" name="${p.method === 'sms' ? 'phone_number' : 'email'}" value="${p.address}">
<input type="hidden" name="verification_code" value="${p.token}">
<input type="hidden" name="csrf" value="${p.csrf}">
<button type="submit">${t.submit}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

export interface PasswordlessSentInput {
  clientName: string;
  /** The interaction's handle and the form token, posted with the code. */
  interaction: string;
  csrf: string;
  method: 'magic_link' | 'sms';
  address: string;
  target: string | null;
  error?: string;
  language?: Language;
}

/** After "Email me a sign-in link" or "Text me a code" on the login page: the code form (the link works too). */
export function passwordlessSentPage(status: number, p: PasswordlessSentInput): Page {
  const language = p.language ?? 'en';
  const t = textsIn(language).pages.passwordless;
  const error = p.error && html`<p class="error" role="alert" id="code-error">${p.error}</p>`;
  const field = p.method === 'magic_link' ? 'email' : 'phone_number';
  const lead = p.method === 'magic_link' ? t.sentLink(p.address) : t.sentSms(p.address);
  return {
    status,
    title: t.sentTitle,
    lang: language,
    body: html`<h1>${t.sentHeading(p.clientName)}</h1>${error}<p>${lead}</p>
<form method="post" action="/oauth/authorize/passwordless/verify" novalidate>
<input type="hidden" name="interaction" value="${p.interaction}">
<input type="hidden" name="csrf" value="${p.csrf}">
<input type="hidden" name="auth_type" value="${p.method}">
<input type="hidden" name="${field}" value="${p.address}">
<label for="verification_code">${t.code}</label>
<input id="verification_code" name="verification_code" inputmode="numeric" autocomplete="one-time-code"
required${p.error && html` aria-describedby="code-error"`}>
<button type="submit">${t.submit}</button>
</form>`,
    formAction: formActionSource(p.target),
  };
}

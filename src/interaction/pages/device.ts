// The device verification pages (RFC 8628 3.3): the form where the user types (or finds prefilled)
// the code their device shows, and the page that ends a device's sign-in (approved, denied, expired).
// Between them the usual sign-in and the approval page (consent.ts) run.
import type { Language } from '../../errors/ward-error.js';
import { html, type Page } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';

export interface DeviceCodePageInput {
  csrf: string;
  /** The code as typed or prefilled (verification_uri_complete). */
  userCode?: string;
  error?: string;
  language: Language;
}

export function deviceCodePage(status: number, p: DeviceCodePageInput): Page {
  const t = textsIn(p.language).device;
  const error = p.error && html`<p class="error" role="alert" id="device-error">${p.error}</p>`;
  return {
    status,
    title: t.title,
    lang: p.language,
    body: html`<h1>${t.heading}</h1>${error}<p>${t.lead}</p>
<form method="post" action="/device" novalidate>
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="user_code">${t.codeLabel}</label>
<input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
inputmode="text" maxlength="20" required value="${p.userCode ?? ''}"${p.error && html` aria-describedby="device-error"`}>
<button type="submit">${t.submit}</button>
</form>`,
  };
}

export type DeviceEnd = 'approved' | 'denied' | 'expired';

/** The end of a device's sign-in: the user goes back to the device (which polls for its answer). */
export function deviceDonePage(end: DeviceEnd, language: Language): Page {
  const t = textsIn(language).device;
  const [heading, text] = {
    approved: [t.approvedHeading, t.approvedText],
    denied: [t.deniedHeading, t.deniedText],
    expired: [t.expiredHeading, t.expiredText],
  }[end];
  return {
    status: end === 'expired' ? 400 : 200,
    title: heading,
    lang: language,
    body: html`<h1 data-device="${end}">${heading}</h1><p>${text}</p>`,
  };
}

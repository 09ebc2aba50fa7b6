/**
 * A verification-code message: email subject, plain text and HTML, and the SMS, in the language asked
 * for (src/texts/<lang>/messages.ts; any language Ward does not speak is English). The HTML is
 * self-contained (inline styles, no image, link or remote resource) and every value in it is escaped.
 * The SMS starts with the code and fits one GSM-7 segment (160).
 */
import { type Language, languageOfTag } from '../texts/language.js';
import { type Texts, textsIn } from '../texts/texts.js';

export type CodePurpose = 'stepup' | 'register';
export type MessageLocale = Language;

export interface VerificationMessageInput {
  purpose: CodePurpose;
  code: string;
  ttlSeconds: number;
  locale?: string;
  appName?: string;
}

export interface VerificationMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

type Catalog = Texts['messages'];

/**
 * The language of a message from the locale it was asked in: a language code ('fr'), a tag ('fr-FR',
 * 'fr_CA') or an Accept-Language value (its first tag); any other, or none, is the fallback (English
 * unless the delivery says which: the account's `default_language`).
 */
export function resolveLocale(locale?: string, fallback: MessageLocale = 'en'): MessageLocale {
  return languageOfTag((locale ?? '').split(/[,;]/)[0]) ?? fallback;
}

function duration(ttlSeconds: number, c: Catalog, short: boolean): string {
  const [n, unit] =
    ttlSeconds >= 7200
      ? [Math.floor(ttlSeconds / 3600), 'h' as const]
      : ttlSeconds >= 120 || ttlSeconds % 60 === 0
        ? [Math.floor(ttlSeconds / 60), 'min' as const]
        : [ttlSeconds, 's' as const];
  return short ? `${n} ${unit}` : `${n} ${c.units[unit][n === 1 ? 0 : 1]}`;
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

// GSM 03.38: the basic set (one septet each) and the extension table (two septets each).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ ' +
  '!"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

/** The length of a text in GSM-7 septets, or null when it needs UCS-2 (then a segment holds 70). */
export function gsmSeptets(text: string): number | null {
  let n = 0;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) n += 1;
    else if (GSM_EXTENDED.includes(ch)) n += 2;
    else return null;
  }
  return n;
}

/** A lifetime in words, in the locale's language ('15 minutes', '1 heure'). */
export function describeDuration(ttlSeconds: number, locale: MessageLocale): string {
  return duration(Math.max(1, Math.floor(ttlSeconds)), textsIn(locale).messages, false);
}

export function fitsOneSms(text: string): boolean {
  const n = gsmSeptets(text);
  return n !== null && n <= 160;
}

/** One line of printable text, at most 40 characters; 'Ward' when nothing is left. */
export function cleanAppName(name: string | undefined): string {
  const s = (name ?? '')
    .replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40)
    .trim();
  return s || 'Ward';
}

/**
 * The HTML of Ward's emails: a self-contained page (inline styles, no image, link or remote
 * resource) around `body`, paragraphs whose values the caller has escaped.
 */
export function emailHtml(locale: MessageLocale, title: string, body: string[]): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ` +
      `initial-scale=1"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f7f9;color:#1f2328;font-family:-apple-system,\'Segoe ' +
      'UI\',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5">',
    '<div style="max-width:480px;margin:0 auto;background:#ffffff;border:1px solid ' +
      '#d0d7de;border-radius:8px;padding:24px">',
    ...body,
    '</div></body></html>',
    '',
  ].join('\n');
}

export function renderVerificationMessage(input: VerificationMessageInput): VerificationMessage {
  const { purpose, code } = input;
  if (purpose !== 'stepup' && purpose !== 'register') throw new TypeError(`unknown purpose ${String(purpose)}`);
  if (typeof code !== 'string' || !/^[A-Za-z0-9-]{1,32}$/.test(code))
    throw new TypeError('the code must be 1 to 32 letters, digits or hyphens');
  if (!Number.isFinite(input.ttlSeconds) || input.ttlSeconds < 1)
    throw new TypeError('ttlSeconds must be a positive number');
  const ttl = Math.floor(input.ttlSeconds);
  const locale = resolveLocale(input.locale);
  const texts = textsIn(locale).messages;
  const c = texts.code;
  const app = cleanAppName(input.appName);
  const long = duration(ttl, texts, false);

  const subject = c.subject(code, app);
  const heading = c.heading(app);
  const text = [
    heading,
    '',
    `    ${code}`,
    '',
    `${c.lead[purpose]} ${c.expires(long)}`,
    '',
    `${c.ignore[purpose]} ${c.neverShare(app)}`,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 12px">${e(heading)}</p>`,
    '<p style="margin:0 0 16px;font-family:Menlo,Consolas,monospace;font-size:30px;font-weight:bold;' +
      `letter-spacing:4px">${e(code)}</p>`,
    `<p style="margin:0 0 16px">${e(c.lead[purpose])} ${e(c.expires(long))}</p>`,
    `<p style="margin:0;color:#57606a;font-size:13px">${e(c.ignore[purpose])} ${e(c.neverShare(app))}</p>`,
  ]);

  const shortDuration = duration(ttl, texts, true);
  const full = c.sms[purpose](code, app, shortDuration);
  const sms = fitsOneSms(full) ? full : c.smsShort(code, shortDuration);
  return { subject, text, html, sms };
}

/**
 * The notice a user gets once per lockout (NIST SP 800-63B 5.2.2, accounts/sign-in-protection.ts):
 * password sign-in to their account is paused after too many failed attempts, until when, and what to
 * do. Its texts are in src/texts/<lang>/messages.ts (`lockNotice`); the HTML escapes every value; the
 * SMS fits one GSM-7 segment.
 */
import { textsIn } from '../texts/texts.js';
import { cleanAppName, emailHtml, escapeHtml, gsmSeptets, resolveLocale } from './messages.js';

export interface LockNoticeInput {
  /** When the lockout began and when it ends (ms since the epoch); shown in UTC. */
  at: number;
  until: number;
  locale?: string;
  appName?: string;
}

/** '2026-11-21 14:03 UTC': the same in every locale. */
const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderLockNotice(input: LockNoticeInput): { subject: string; text: string; html: string; sms: string } {
  if (!Number.isFinite(input.at) || !Number.isFinite(input.until)) throw new TypeError('at and until must be times');
  const locale = resolveLocale(input.locale);
  const c = textsIn(locale).messages.lockNotice;
  const app = cleanAppName(input.appName);
  const until = utc(input.until);
  const what = c.what(app, utc(input.at), until);
  const subject = c.subject(app);
  const text = [what, '', c.ifYou, '', c.ifNot, ''].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px;font-weight:bold">${e(what)}</p>`,
    `<p style="margin:0 0 16px">${e(c.ifYou)}</p>`,
    `<p style="margin:0;color:#57606a;font-size:13px">${e(c.ifNot)}</p>`,
  ]);
  const full = c.sms(app, until);
  const n = gsmSeptets(full);
  const bare = c.sms('', until);
  const sms = n !== null && n <= 160 ? full : bare.charAt(0).toUpperCase() + bare.slice(1);
  return { subject, text, html, sms };
}

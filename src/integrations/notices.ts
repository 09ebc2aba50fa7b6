/**
 * Security notices (ASVS 6.3.7, checklist MF-03): the message a user gets when a second factor of
 * their account, or a passkey, is added or removed, so that a change they did not make does not go
 * unseen. Its texts are in src/texts/<lang>/messages.ts (`factorNotice`); the HTML is
 * self-contained and escapes every value; the SMS fits one GSM-7 segment. The changed factor is shown
 * masked, never in full (a passkey is not named).
 */
import { textsIn } from '../texts/texts.js';
import { cleanAppName, emailHtml, escapeHtml, gsmSeptets, resolveLocale } from './messages.js';

export type FactorChange = 'factor_added' | 'factor_removed' | 'recovery_code_used' | 'factors_reset';

export interface NoticeInput {
  change: FactorChange;
  /**
   * The factor that changed: its type and its masked destination (none for a passkey, never named, nor
   * for an authenticator app or a recovery code). `recovery_code_used` goes with `recovery_code` only.
   */
  factor: 'email' | 'sms' | 'passkey' | 'totp' | 'recovery_code' | 'all';
  masked: string;
  /** The recovery codes left, for `recovery_code_used`. */
  left?: number;
  /** When it changed (ms since the epoch); shown in UTC. */
  at: number;
  locale?: string;
  appName?: string;
}

export interface Notice {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/** '2026-11-21 14:03 UTC': the same in every locale, so no time zone has to be guessed. */
const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderNotice(input: NoticeInput): Notice {
  const { change, factor } = input;
  if (change === 'recovery_code_used' || factor === 'recovery_code') return renderRecoveryNotice(input);
  if (change === 'factors_reset' || factor === 'all') return renderResetNotice(input);
  if (change !== 'factor_added' && change !== 'factor_removed') throw new TypeError(`unknown change ${String(change)}`);
  if (factor !== 'email' && factor !== 'sms' && factor !== 'passkey' && factor !== 'totp')
    throw new TypeError(`unknown factor ${String(factor)}`);
  if (!Number.isFinite(input.at)) throw new TypeError('at must be a time');
  const locale = resolveLocale(input.locale);
  const c = textsIn(locale).messages.factorNotice;
  const app = cleanAppName(input.appName);
  const masked = input.masked.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, '').slice(0, 80);
  const what =
    factor === 'passkey'
      ? c.passkey.what[change](app, utc(input.at))
      : c.what[change](c.factor[factor](masked), app, utc(input.at));
  const subject = (factor === 'passkey' ? c.passkey.subject : c.subject)[change](app);
  const text = [what, '', c.ifYou, '', c.ifNot, ''].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px;font-weight:bold">${e(what)}</p>`,
    `<p style="margin:0 0 16px">${e(c.ifYou)}</p>`,
    `<p style="margin:0;color:#57606a;font-size:13px">${e(c.ifNot)}</p>`,
  ]);
  // One GSM-7 segment: without the app's name (which may need UCS-2) when the full text would not fit.
  const smsText = (a: string) =>
    factor === 'passkey' ? c.passkey.sms[change](a) : c.sms[change](c.factor[factor](masked), a);
  const full = smsText(app);
  const n = gsmSeptets(full);
  const bare = smsText('');
  const sms = n !== null && n <= 160 ? full : bare.charAt(0).toUpperCase() + bare.slice(1);
  return { subject, text, html, sms };
}

/** An administrator reset every factor of the account (`factors_reset`, factor `all`): what to do next. */
function renderResetNotice(input: NoticeInput): Notice {
  if (input.change !== 'factors_reset' || input.factor !== 'all') throw new TypeError('a reset concerns all factors');
  if (!Number.isFinite(input.at)) throw new TypeError('at must be a time');
  const locale = resolveLocale(input.locale);
  const c = textsIn(locale).messages.factorNotice;
  const app = cleanAppName(input.appName);
  const what = c.reset.what(app, utc(input.at));
  const subject = c.reset.subject(app);
  const text = [what, '', c.reset.ifYou, '', c.ifNot, ''].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px;font-weight:bold">${e(what)}</p>`,
    `<p style="margin:0 0 16px">${e(c.reset.ifYou)}</p>`,
    `<p style="margin:0;color:#57606a;font-size:13px">${e(c.ifNot)}</p>`,
  ]);
  const full = c.reset.sms(app);
  const n = gsmSeptets(full);
  return { subject, text, html, sms: n !== null && n <= 160 ? full : c.reset.sms('') };
}

/** A recovery code was used to sign in: how many are left, what to do if it was not the user. */
function renderRecoveryNotice(input: NoticeInput): Notice {
  if (input.change !== 'recovery_code_used' || input.factor !== 'recovery_code')
    throw new TypeError('a recovery code can only be used');
  if (!Number.isFinite(input.at)) throw new TypeError('at must be a time');
  const left = Math.max(0, Math.floor(input.left ?? 0));
  const locale = resolveLocale(input.locale);
  const c = textsIn(locale).messages.factorNotice;
  const app = cleanAppName(input.appName);
  const what = c.recoveryCode.what(app, utc(input.at), left);
  const subject = c.recoveryCode.subject(app);
  const text = [what, '', c.recoveryCode.ifYou, '', c.ifNot, ''].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px;font-weight:bold">${e(what)}</p>`,
    `<p style="margin:0 0 16px">${e(c.recoveryCode.ifYou)}</p>`,
    `<p style="margin:0;color:#57606a;font-size:13px">${e(c.ifNot)}</p>`,
  ]);
  const full = c.recoveryCode.sms(app, left);
  const n = gsmSeptets(full);
  const bare = c.recoveryCode.sms('', left);
  return { subject, text, html, sms: n !== null && n <= 160 ? full : bare };
}

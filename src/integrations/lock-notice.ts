/**
 * The notice a user gets once per lockout (NIST SP 800-63B 5.2.2, accounts/sign-in-protection.ts):
 * password sign-in to their account is paused after too many failed attempts, until when, and what to
 * do. English and French; the HTML escapes every value; the SMS fits one GSM-7 segment.
 */
import { cleanAppName, emailHtml, escapeHtml, gsmSeptets, resolveLocale, type MessageLocale } from './messages.js';

export interface LockNoticeInput {
  /** When the lockout began and when it ends (ms since the epoch); shown in UTC. */
  at: number;
  until: number;
  locale?: string;
  appName?: string;
}

interface LockCatalog {
  subject: (app: string) => string;
  what: (app: string, when: string, until: string) => string;
  ifYou: string;
  ifNot: string;
  sms: (app: string, until: string) => string;
}

const TEXTS: Record<MessageLocale, LockCatalog> = {
  en: {
    subject: (app) => `Sign-in to your ${app} account is paused`,
    what: (app, when, until) =>
      `On ${when}, after too many wrong passwords, password sign-in to your ${app} account was paused until ${until}.`,
    ifYou: 'If it was you, wait until then, or reset your password. Other ways to sign in still work.',
    ifNot:
      'If it was not you, someone may be guessing your password: choose a new, unique one, and turn on two-step ' +
      'verification.',
    sms: (app, until) =>
      `${app ? `${app}: ` : ''}too many wrong passwords, sign-in paused until ${until}. Not you? Change your password.`,
  },
  fr: {
    subject: (app) => `La connexion à votre compte ${app} est suspendue`,
    what: (app, when, until) =>
      `Le ${when}, après trop de mots de passe erronés, la connexion par mot de passe à votre compte ${app} a été ` +
      `suspendue jusqu'au ${until}.`,
    ifYou:
      "Si c'était vous, patientez jusque-là ou réinitialisez votre mot de passe. Les autres moyens de connexion " +
      'restent possibles.',
    ifNot:
      "Si ce n'était pas vous, quelqu'un essaie peut-être de deviner votre mot de passe : choisissez-en un " +
      'nouveau, unique, et activez la vérification en deux étapes.',
    sms: (app, until) =>
      `${app ? `${app} : ` : ''}trop de mots de passe erronés, connexion suspendue jusqu'au ${until}. Pas vous ? ` +
      `Changez votre mot de passe.`,
  },
};

/** '2026-11-21 14:03 UTC': the same in every locale. */
const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderLockNotice(input: LockNoticeInput): { subject: string; text: string; html: string; sms: string } {
  if (!Number.isFinite(input.at) || !Number.isFinite(input.until)) throw new TypeError('at and until must be times');
  const locale = resolveLocale(input.locale);
  const c = TEXTS[locale];
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

/**
 * Security notices (ASVS 6.3.7, checklist MF-03): the message a user gets when a second factor of
 * their account, or a passkey, is added or removed, so that a change they did not make does not go
 * unseen. English and French, like the verification codes; the HTML is self-contained and escapes
 * every value; the SMS fits one GSM-7 segment. The changed factor is shown masked, never in full (a
 * passkey is not named).
 */
import { cleanAppName, emailHtml, escapeHtml, gsmSeptets, resolveLocale, type MessageLocale } from './messages.js';

export type FactorChange = 'factor_added' | 'factor_removed';

export interface NoticeInput {
  change: FactorChange;
  /** The factor that changed: its type and its masked destination (none for a passkey, never named). */
  factor: 'email' | 'sms' | 'passkey';
  masked: string;
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

interface NoticeCatalog {
  subject: Record<FactorChange, (app: string) => string>;
  factor: Record<'email' | 'sms', (masked: string) => string>;
  what: Record<FactorChange, (factor: string, app: string, when: string) => string>;
  ifYou: string;
  ifNot: string;
  sms: Record<FactorChange, (factor: string, app: string) => string>;
  /** A passkey: its own words (a way to sign in, not a step of two-step verification). */
  passkey: Pick<NoticeCatalog, 'subject'> & {
    what: Record<FactorChange, (app: string, when: string) => string>;
    sms: Record<FactorChange, (app: string) => string>;
  };
}

const NOTICES: Record<MessageLocale, NoticeCatalog> = {
  en: {
    subject: {
      factor_added: (app) => `A second factor was added to your ${app} account`,
      factor_removed: (app) => `A second factor was removed from your ${app} account`,
    },
    factor: { email: (m) => `the email address ${m}`, sms: (m) => `the phone number ${m}` },
    what: {
      factor_added: (f, app, when) => `On ${when}, ${f} was added to the two-step verification of your ${app} account.`,
      factor_removed: (f, app, when) =>
        `On ${when}, ${f} was removed from the two-step verification of your ${app} account.`,
    },
    ifYou:
      'If you made this change, there is nothing more to do. Devices you had marked as trusted will ask for a code ' +
      'again.',
    ifNot:
      'If you did not, someone else may be signed in to your account: change your password now, sign out of your ' +
      'other sessions, and check your second factors.',
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app}: ` : ''}${f} was added to your two-step verification. Not you? Change your password now.`,
      factor_removed: (f, app) =>
        `${app ? `${app}: ` : ''}${f} was removed from your two-step verification. Not you? Change your password now.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `A passkey was added to your ${app} account`,
        factor_removed: (app) => `A passkey was removed from your ${app} account`,
      },
      what: {
        factor_added: (app, when) => `On ${when}, a passkey was added to your ${app} account: it signs in to it.`,
        factor_removed: (app, when) => `On ${when}, a passkey was removed from your ${app} account.`,
      },
      sms: {
        factor_added: (app) =>
          `${app ? `${app}: ` : ''}A passkey was added to your account. Not you? Change your password now.`,
        factor_removed: (app) =>
          `${app ? `${app}: ` : ''}A passkey was removed from your account. Not you? Change your password now.`,
      },
    },
  },
  fr: {
    subject: {
      factor_added: (app) => `Un second facteur a été ajouté à votre compte ${app}`,
      factor_removed: (app) => `Un second facteur a été retiré de votre compte ${app}`,
    },
    factor: { email: (m) => `l'adresse e-mail ${m}`, sms: (m) => `le numéro ${m}` },
    what: {
      factor_added: (f, app, when) =>
        `Le ${when}, ${f} a été ajouté(e) à la vérification en deux étapes de votre compte ${app}.`,
      factor_removed: (f, app, when) =>
        `Le ${when}, ${f} a été retiré(e) de la vérification en deux étapes de votre compte ${app}.`,
    },
    ifYou:
      "Si vous êtes à l'origine de ce changement, vous n'avez rien à faire. Les appareils de confiance vous " +
      'demanderont de nouveau un code.',
    ifNot:
      "Sinon, quelqu'un d'autre est peut-être connecté à votre compte : changez votre mot de passe, déconnectez " +
      'vos autres sessions et vérifiez vos seconds facteurs.',
    sms: {
      factor_added: (f, app) =>
        `${app ? `${app} : ` : ''}${f} a été ajouté à votre vérification en deux étapes. Pas vous ? Changez votre ` +
        `mot de passe.`,
      factor_removed: (f, app) =>
        `${app ? `${app} : ` : ''}${f} a été retiré de votre vérification en deux étapes. Pas vous ? Changez votre ` +
        `mot de passe.`,
    },
    passkey: {
      subject: {
        factor_added: (app) => `Une clé d'accès a été ajoutée à votre compte ${app}`,
        factor_removed: (app) => `Une clé d'accès a été retirée de votre compte ${app}`,
      },
      what: {
        factor_added: (app, when) =>
          `Le ${when}, une clé d'accès a été ajoutée à votre compte ${app} : elle permet de vous y connecter.`,
        factor_removed: (app, when) => `Le ${when}, une clé d'accès a été retirée de votre compte ${app}.`,
      },
      sms: {
        factor_added: (app) =>
          `${app ? `${app} : ` : ''}Une clé d'accès a été ajoutée à votre compte. Pas vous ? Changez votre mot de passe.`,
        factor_removed: (app) =>
          `${app ? `${app} : ` : ''}Une clé d'accès a été retirée de votre compte. Pas vous ? Changez votre mot de passe.`,
      },
    },
  },
};

/** '2026-11-21 14:03 UTC': the same in every locale, so no time zone has to be guessed. */
const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function renderNotice(input: NoticeInput): Notice {
  const { change, factor } = input;
  if (change !== 'factor_added' && change !== 'factor_removed') throw new TypeError(`unknown change ${String(change)}`);
  if (factor !== 'email' && factor !== 'sms' && factor !== 'passkey')
    throw new TypeError(`unknown factor ${String(factor)}`);
  if (!Number.isFinite(input.at)) throw new TypeError('at must be a time');
  const locale = resolveLocale(input.locale);
  const c = NOTICES[locale];
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

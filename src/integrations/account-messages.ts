/**
 * The messages of account self-service, in English and French: a code and link to confirm an email
 * address (at signup, on request, or a new address), a code to confirm a phone number, a password
 * reset (link and code by email, code by SMS), and the notices that follow a change (email, phone,
 * password). Each is a subject, a plain text, a self-contained HTML page (every value escaped) and an
 * SMS of one segment where it can be.
 *
 * An operator may replace any of them from a folder (`WARD_TEMPLATES_DIR`): `<kind>.<locale>.subject.txt`,
 * `<kind>.<locale>.txt`, `<kind>.<locale>.html`, `<kind>.<locale>.sms.txt`, each optional, with the
 * placeholders {{app}}, {{code}}, {{link}}, {{expires}}, {{address}} and {{when}} (escaped in HTML).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cleanAppName,
  describeDuration,
  emailHtml,
  escapeHtml,
  fitsOneSms,
  resolveLocale,
  type MessageLocale,
} from './messages.js';

export type AccountMessageKind =
  | 'verify_email'
  | 'change_email'
  | 'reset_password'
  | 'verify_phone'
  | 'change_phone'
  | 'email_changed'
  | 'phone_changed'
  | 'password_changed'
  | 'passwordless'
  | 'account_recovery'
  | 'passkeys_reset'
  | 'invitation';

export const ACCOUNT_MESSAGE_KINDS: readonly AccountMessageKind[] = [
  'verify_email',
  'change_email',
  'reset_password',
  'verify_phone',
  'change_phone',
  'email_changed',
  'phone_changed',
  'password_changed',
  'passwordless',
  'account_recovery',
  'passkeys_reset',
  'invitation',
];

export interface AccountMessageInput {
  kind: AccountMessageKind;
  code?: string;
  /** The link to open (built from the issuer), when the message has one. */
  link?: string;
  /** Lifetime of the code, seconds. */
  codeTtl?: number;
  /** Lifetime of the link, seconds. */
  linkTtl?: number;
  /** The address concerned, already masked where the reader is not its owner. */
  address?: string;
  /** When the change happened (ms since the epoch), for notices; shown in UTC. */
  at?: number;
  locale?: string;
  appName?: string;
}

export interface AccountMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

interface Values {
  app: string;
  code: string;
  link: string;
  expires: string;
  linkExpires: string;
  address: string;
  when: string;
}

interface Texts {
  subject: (v: Values) => string;
  /** Paragraphs before the link and code. */
  lead: (v: Values) => string;
  /** The button's text, when there is a link. */
  button?: string;
  /** Said before the code. */
  codeLead?: string;
  /** The closing paragraph (what to do if it was not you). */
  after: (v: Values) => string;
  sms: (v: Values) => string;
}

const EN: Record<AccountMessageKind, Texts> = {
  verify_email: {
    subject: (v) => `Confirm your email address for ${v.app}`,
    lead: (v) => `Confirm that ${v.address} is your email address for ${v.app}. The link works for ${v.linkExpires}.`,
    button: 'Confirm my email address',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not ask for this, you can ignore this message.',
    sms: (v) => `${v.code} is your code to confirm this email for ${v.app}.`,
  },
  change_email: {
    subject: (v) => `Confirm your new email address for ${v.app}`,
    lead: (v) =>
      `You asked to use ${v.address} for your ${v.app} account. It replaces the old one once you confirm it; the ` +
      `link works for ${v.linkExpires}.`,
    button: 'Confirm my new email address',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not ask for this, ignore this message: nothing changes.',
    sms: (v) => `${v.code} is your code to confirm this email for ${v.app}.`,
  },
  reset_password: {
    subject: (v) => `Reset your ${v.app} password`,
    lead: (v) => `Someone asked to reset the password of your ${v.app} account. The link works for ${v.linkExpires}.`,
    button: 'Choose a new password',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If it was not you, ignore this message: your password stays the same. Never share this code or link.',
    sms: (v) => `${v.code} is your ${v.app} password reset code. It expires in ${v.expires}. Never share it.`,
  },
  verify_phone: {
    subject: (v) => `Confirm your phone number for ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) => `${v.code} is your code to confirm this phone number for ${v.app}. It expires in ${v.expires}.`,
  },
  change_phone: {
    subject: (v) => `Confirm your new phone number for ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) => `${v.code} is your code to confirm your new phone number for ${v.app}. It expires in ${v.expires}.`,
  },
  email_changed: {
    subject: (v) => `The email address of your ${v.app} account was changed`,
    lead: (v) => `On ${v.when}, the email address of your ${v.app} account was changed to ${v.address}.`,
    after: () =>
      'If you made this change, there is nothing more to do. If you did not, reset your password now and contact ' +
      'support.',
    sms: (v) => `${v.app}: the email address of your account was changed. Not you? Reset your password now.`,
  },
  phone_changed: {
    subject: (v) => `The phone number of your ${v.app} account was changed`,
    lead: (v) => `On ${v.when}, the phone number of your ${v.app} account was changed to ${v.address}.`,
    after: () =>
      'If you made this change, there is nothing more to do. If you did not, reset your password now and contact ' +
      'support.',
    sms: (v) => `${v.app}: the phone number of your account was changed. Not you? Reset your password now.`,
  },
  password_changed: {
    subject: (v) => `Your ${v.app} password was changed`,
    lead: (v) =>
      `On ${v.when}, the password of your ${v.app} account was changed, and your other sessions were signed out.`,
    after: () => 'If you made this change, there is nothing more to do. If you did not, reset your password now.',
    sms: (v) => `${v.app}: your password was changed. Not you? Reset it now.`,
  },
  passwordless: {
    subject: (v) => `Sign in to ${v.app}`,
    lead: (v) => `Open this link to sign in to ${v.app} as ${v.address}. It works once, for ${v.linkExpires}.`,
    button: 'Sign in',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If you did not try to sign in, ignore this message. Never share this link or code.',
    sms: (v) => `${v.code} is your ${v.app} sign-in code. It expires in ${v.expires}. Never share it.`,
  },
  account_recovery: {
    subject: (v) => `Recover your ${v.app} account`,
    lead: (v) =>
      `Someone asked to recover your ${v.app} account: with this link or code you can register a new passkey. The ` +
      `link works for ${v.linkExpires}.`,
    button: 'Register a new passkey',
    codeLead: 'Or enter this code, valid for',
    after: () => 'If it was not you, ignore this message: nothing changes. Never share this link or code.',
    sms: (v) => `${v.code} is your ${v.app} account recovery code. It expires in ${v.expires}. Never share it.`,
  },
  invitation: {
    subject: (v) => `You are invited to ${v.app}`,
    lead: (v) =>
      `An account was made for you on ${v.app} with the address ${v.address}. Choose your password to start; the ` +
      `link works for ${v.linkExpires}.`,
    button: 'Choose my password',
    after: () => 'If you did not expect this, ignore this message.',
    sms: (v) => `${v.app}: an account was made for you. Open the link in your email to choose a password.`,
  },
  passkeys_reset: {
    subject: (v) => `A new passkey was registered for your ${v.app} account`,
    lead: (v) =>
      `On ${v.when}, your ${v.app} account was recovered: a new passkey was registered and your other sessions ` +
      `were signed out.`,
    after: () =>
      'If it was you, there is nothing more to do. If not, recover your account again now and contact support.',
    sms: (v) => `${v.app}: your account was recovered with a new passkey. Not you? Recover it again now.`,
  },
};

const FR: Record<AccountMessageKind, Texts> = {
  verify_email: {
    subject: (v) => `Confirmez votre adresse e-mail pour ${v.app}`,
    lead: (v) =>
      `Confirmez que ${v.address} est votre adresse e-mail pour ${v.app}. Le lien est valable ${v.linkExpires}.`,
    button: 'Confirmer mon adresse e-mail',
    codeLead: 'Ou saisissez ce code, valable',
    after: () => "Si vous n'avez rien demandé, vous pouvez ignorer ce message.",
    sms: (v) => `${v.code} est votre code pour confirmer cet e-mail sur ${v.app}.`,
  },
  change_email: {
    subject: (v) => `Confirmez votre nouvelle adresse e-mail pour ${v.app}`,
    lead: (v) =>
      `Vous avez demandé à utiliser ${v.address} pour votre compte ${v.app}. Elle remplacera l'ancienne dès que ` +
      `vous l'aurez confirmée ; le lien est valable ${v.linkExpires}.`,
    button: 'Confirmer ma nouvelle adresse',
    codeLead: 'Ou saisissez ce code, valable',
    after: () => "Si vous n'avez rien demandé, ignorez ce message : rien ne change.",
    sms: (v) => `${v.code} est votre code pour confirmer cet e-mail sur ${v.app}.`,
  },
  reset_password: {
    subject: (v) => `Réinitialisez votre mot de passe ${v.app}`,
    lead: (v) =>
      `Quelqu'un a demandé à réinitialiser le mot de passe de votre compte ${v.app}. Le lien est ` +
      `valable ${v.linkExpires}.`,
    button: 'Choisir un nouveau mot de passe',
    codeLead: 'Ou saisissez ce code, valable',
    after: () =>
      "Si ce n'était pas vous, ignorez ce message : votre mot de passe ne change pas. Ne communiquez jamais ce " +
      'code ni ce lien.',
    sms: (v) =>
      `${v.code} est votre code de réinitialisation ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
  },
  verify_phone: {
    subject: (v) => `Confirmez votre numéro de téléphone pour ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) => `${v.code} est votre code pour confirmer ce numéro sur ${v.app}. Il expire dans ${v.expires}.`,
  },
  change_phone: {
    subject: (v) => `Confirmez votre nouveau numéro pour ${v.app}`,
    lead: () => '',
    after: () => '',
    sms: (v) =>
      `${v.code} est votre code pour confirmer votre nouveau numéro sur ${v.app}. Il expire dans ${v.expires}.`,
  },
  email_changed: {
    subject: (v) => `L'adresse e-mail de votre compte ${v.app} a été modifiée`,
    lead: (v) => `Le ${v.when}, l'adresse e-mail de votre compte ${v.app} a été remplacée par ${v.address}.`,
    after: () =>
      "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant et " +
      'contactez le support.',
    sms: (v) =>
      `${v.app} : l'adresse e-mail de votre compte a été modifiée. Pas vous ? Réinitialisez votre mot de passe.`,
  },
  phone_changed: {
    subject: (v) => `Le numéro de téléphone de votre compte ${v.app} a été modifié`,
    lead: (v) => `Le ${v.when}, le numéro de téléphone de votre compte ${v.app} a été remplacé par ${v.address}.`,
    after: () =>
      "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant et " +
      'contactez le support.',
    sms: (v) => `${v.app} : le numéro de votre compte a été modifié. Pas vous ? Réinitialisez votre mot de passe.`,
  },
  password_changed: {
    subject: (v) => `Votre mot de passe ${v.app} a été modifié`,
    lead: (v) =>
      `Le ${v.when}, le mot de passe de votre compte ${v.app} a été modifié et vos autres sessions ont été fermées.`,
    after: () => "Si c'est vous, il n'y a rien d'autre à faire. Sinon, réinitialisez votre mot de passe maintenant.",
    sms: (v) => `${v.app} : votre mot de passe a été modifié. Pas vous ? Réinitialisez-le maintenant.`,
  },
  passwordless: {
    subject: (v) => `Connexion à ${v.app}`,
    lead: (v) =>
      `Ouvrez ce lien pour vous connecter à ${v.app} en tant que ${v.address}. Il sert une fois, ` +
      `pendant ${v.linkExpires}.`,
    button: 'Me connecter',
    codeLead: 'Ou saisissez ce code, valable',
    after: () =>
      "Si vous n'avez pas essayé de vous connecter, ignorez ce message. Ne communiquez jamais ce lien ni ce code.",
    sms: (v) => `${v.code} est votre code de connexion ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
  },
  account_recovery: {
    subject: (v) => `Récupérez votre compte ${v.app}`,
    lead: (v) =>
      `Quelqu'un a demandé à récupérer votre compte ${v.app} : ce lien ou ce code permet d'enregistrer une ` +
      `nouvelle clé d'accès. Le lien est valable ${v.linkExpires}.`,
    button: "Enregistrer une nouvelle clé d'accès",
    codeLead: 'Ou saisissez ce code, valable',
    after: () =>
      "Si ce n'était pas vous, ignorez ce message : rien ne change. Ne communiquez jamais ce lien ni ce code.",
    sms: (v) =>
      `${v.code} est votre code de récupération ${v.app}. Il expire dans ${v.expires}. Ne le donnez à personne.`,
  },
  invitation: {
    subject: (v) => `Vous êtes invité sur ${v.app}`,
    lead: (v) =>
      `Un compte a été créé pour vous sur ${v.app} avec l'adresse ${v.address}. Choisissez votre mot de passe pour ` +
      `commencer ; le lien est valable ${v.linkExpires}.`,
    button: 'Choisir mon mot de passe',
    after: () => 'Si vous ne vous y attendiez pas, ignorez ce message.',
    sms: (v) =>
      `${v.app} : un compte a été créé pour vous. Ouvrez le lien reçu par e-mail pour choisir un mot de passe.`,
  },
  passkeys_reset: {
    subject: (v) => `Une nouvelle clé d'accès a été enregistrée pour votre compte ${v.app}`,
    lead: (v) =>
      `Le ${v.when}, votre compte ${v.app} a été récupéré : une nouvelle clé d'accès a été enregistrée et vos ` +
      `autres sessions ont été fermées.`,
    after: () =>
      "Si c'est vous, il n'y a rien d'autre à faire. Sinon, récupérez votre compte maintenant et contactez le support.",
    sms: (v) => `${v.app} : votre compte a été récupéré avec une nouvelle clé d'accès. Pas vous ? Récupérez-le.`,
  },
};

const TEXTS: Record<MessageLocale, Record<AccountMessageKind, Texts>> = { en: EN, fr: FR };

const whenOf = (at: number, locale: MessageLocale) =>
  `${new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(at))} UTC`;

/** An operator's replacement texts for one kind and locale, read from the templates folder. */
function overrides(dir: string | undefined, kind: AccountMessageKind, locale: MessageLocale) {
  if (!dir) return {};
  const read = (suffix: string) => {
    const f = join(dir, `${kind}.${locale}.${suffix}`);
    return existsSync(f) ? readFileSync(f, 'utf8') : undefined;
  };
  return { subject: read('subject.txt')?.trim(), text: read('txt'), html: read('html'), sms: read('sms.txt')?.trim() };
}

const fill = (template: string, v: Values, quote: (s: string) => string) =>
  template.replace(/\{\{(app|code|link|expires|address|when)\}\}/g, (_, k: keyof Values) => quote(v[k]));

export function renderAccountMessage(input: AccountMessageInput, templatesDir?: string): AccountMessage {
  if (!ACCOUNT_MESSAGE_KINDS.includes(input.kind)) throw new TypeError(`unknown message ${String(input.kind)}`);
  const locale = resolveLocale(input.locale);
  const t = TEXTS[locale][input.kind];
  const v: Values = {
    app: cleanAppName(input.appName),
    code: input.code ?? '',
    link: input.link ?? '',
    expires: describeDuration(input.codeTtl ?? 900, locale),
    linkExpires: describeDuration(input.linkTtl ?? 3600, locale),
    address: input.address ?? '',
    when: whenOf(input.at ?? Date.now(), locale),
  };
  const subject = t.subject(v);
  const codeLine = v.code && t.codeLead ? `${t.codeLead} ${v.expires}${locale === 'fr' ? ' :' : ':'}` : '';
  const text = [
    t.lead(v),
    '',
    ...(v.link ? [v.link, ''] : []),
    ...(codeLine ? [codeLine, '', `    ${v.code}`, ''] : []),
    t.after(v),
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = emailHtml(locale, subject, [
    `<p style="margin:0 0 16px">${e(t.lead(v))}</p>`,
    ...(v.link
      ? [
          `<p style="margin:0 0 16px"><a href="${e(v.link)}" ` +
            `style="display:inline-block;background:#0969da;color:#ffffff;padding:10px ` +
            `16px;border-radius:6px;text-decoration:none">${e(t.button ?? v.link)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;color:#57606a">${e(v.link)}</p>`,
        ]
      : []),
    ...(codeLine
      ? [
          `<p style="margin:0 0 8px">${e(codeLine)}</p>`,
          '<p style="margin:0 0 16px;font-family:Menlo,Consolas,monospace;font-size:28px;font-weight:bold;' +
            `letter-spacing:4px">${e(v.code)}</p>`,
        ]
      : []),
    `<p style="margin:0;color:#57606a;font-size:13px">${e(t.after(v))}</p>`,
  ]);
  const full = t.sms(v);
  const sms = fitsOneSms(full) || !v.code ? full : `${v.code}: ${v.app}`;
  const o = overrides(templatesDir, input.kind, locale);
  const plain = (s: string) => s;
  return {
    subject: o.subject ? fill(o.subject, v, plain) : subject,
    text: o.text ? fill(o.text, v, plain) : text,
    html: o.html ? fill(o.html, v, e) : html,
    sms: o.sms ? fill(o.sms, v, plain) : sms,
  };
}

// The words of the hosted account page (account.ts) in English and French, and how a refusal of one
// of its forms reads there.
import type { Language, WardError } from '../../errors/ward-error.js';
import { hostedMessage } from './hosted-messages.js';

type Channel = 'email' | 'sms';
type Pending = { email: string | null; phone: string | null };

/** The fixed notices a form's 303 names (`?notice=`): nothing of the query is ever shown as text. */
export const ACCOUNT_NOTICES = [
  'email_sent',
  'phone_code_sent',
  'phone_changed',
  'password_changed',
  'confirmed',
] as const;
export type AccountNotice = (typeof ACCOUNT_NOTICES)[number];

export const isAccountNotice = (v: unknown): v is AccountNotice =>
  typeof v === 'string' && (ACCOUNT_NOTICES as readonly string[]).includes(v);

const EN = {
  title: 'Your account',
  signedOut: 'You are not signed in',
  signedOutLead: 'Sign in to an application that uses this account, then open this page again.',
  email: 'Email',
  phone: 'Phone number',
  none: 'None',
  confirmed: 'confirmed',
  unconfirmed: 'not confirmed',
  changeEmail: 'Change your email address',
  newEmail: 'New email address',
  sendLink: 'Send me a confirmation link',
  changePhone: 'Change your phone number',
  newPhone: 'New phone number',
  phoneHint: 'In international format, such as +33612345678.',
  sendSms: 'Text me a code',
  enterPhoneCode: (to: string) => `Enter the code we sent by SMS to ${to}.`,
  smsCode: 'Code received by SMS',
  confirmPhone: 'Confirm this number',
  changePassword: 'Change your password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  passwordHint: (min: number) =>
    `At least ${min} characters; not your email or name, nor a common password. ` +
    'Your other sessions will be signed out.',
  confirmPassword: 'Confirm the new password',
  savePassword: 'Change my password',
  stepUpHeading: 'Confirm it’s you',
  stepUpLead: 'To change your email address, phone number or password, first confirm it’s you with a code.',
  sendCode: (c: Channel, to: string) => `Send a code by ${c === 'email' ? 'email' : 'SMS'} to ${to}`,
  codeSentTo: (c: Channel) => `We sent a code to ${c === 'email' ? 'your email address' : 'your phone'}.`,
  verificationCode: 'Verification code',
  verify: 'Verify',
  resend: 'Send a new code',
  back: (app: string) => `Back to ${app}`,
  notices: {
    email_sent: (p: Pending) =>
      `We sent a link to ${p.email ?? 'your new address'}; your address changes once you open it.`,
    phone_code_sent: (p: Pending) => `We sent a code by SMS to ${p.phone ?? 'your new number'}.`,
    phone_changed: () => 'Your phone number is confirmed.',
    password_changed: () => 'Your password was changed. Your other sessions were signed out.',
    confirmed: () => 'Thank you. You may now change your email address, phone number or password.',
  },
  problems: {
    expired: 'This form has expired. Try again.',
    invalidEmail: 'Enter a valid email address.',
    sameEmail: 'This is already your email address.',
    invalidPhone: 'Enter a phone number in international format, such as +33612345678.',
    samePhone: 'This is already your phone number.',
    missing: 'Fill in every field.',
    passwordsDiffer: 'The two new passwords differ.',
    tooMany: 'Too many attempts. Wait a moment and try again.',
    stepUpRequired: 'First confirm it’s you with a code.',
    too_short: (min: number) => `The password must have at least ${min} characters (and at most 256).`,
    too_common: 'This password is too common. Choose another one.',
    contains_user_info: 'The password must not contain your email address or your name.',
    too_weak: 'This password is too easy to guess. A few unrelated words make a strong one.',
    breached: 'This password appeared in a data breach. Choose another one.',
  },
};

const FR: typeof EN = {
  title: 'Votre compte',
  signedOut: 'Vous n’êtes pas connecté',
  signedOutLead: 'Connectez-vous à une application qui utilise ce compte, puis rouvrez cette page.',
  email: 'E-mail',
  phone: 'Numéro de téléphone',
  none: 'Aucun',
  confirmed: 'confirmé',
  unconfirmed: 'non confirmé',
  changeEmail: 'Changer d’adresse e-mail',
  newEmail: 'Nouvelle adresse e-mail',
  sendLink: 'M’envoyer un lien de confirmation',
  changePhone: 'Changer de numéro de téléphone',
  newPhone: 'Nouveau numéro de téléphone',
  phoneHint: 'Au format international, par exemple +33612345678.',
  sendSms: 'M’envoyer un code par SMS',
  enterPhoneCode: (to: string) => `Saisissez le code envoyé par SMS au ${to}.`,
  smsCode: 'Code reçu par SMS',
  confirmPhone: 'Confirmer ce numéro',
  changePassword: 'Changer de mot de passe',
  currentPassword: 'Mot de passe actuel',
  newPassword: 'Nouveau mot de passe',
  passwordHint: (min: number) =>
    `Au moins ${min} caractères ; ni votre e-mail ou votre nom, ni un mot de passe courant. ` +
    'Vos autres sessions seront fermées.',
  confirmPassword: 'Confirmez le nouveau mot de passe',
  savePassword: 'Changer mon mot de passe',
  stepUpHeading: 'Confirmez qu’il s’agit bien de vous',
  stepUpLead:
    'Pour changer d’adresse e-mail, de numéro de téléphone ou de mot de passe, ' +
    'confirmez d’abord qu’il s’agit bien de vous avec un code.',
  sendCode: (c: Channel, to: string) => `Recevoir un code par ${c === 'email' ? 'e-mail' : 'SMS'} (${to})`,
  codeSentTo: (c: Channel) =>
    `Nous avons envoyé un code ${c === 'email' ? 'à votre adresse e-mail' : 'à votre téléphone'}.`,
  verificationCode: 'Code de vérification',
  verify: 'Vérifier',
  resend: 'Envoyer un nouveau code',
  back: (app: string) => `Retour à ${app}`,
  notices: {
    email_sent: (p: Pending) =>
      `Nous avons envoyé un lien à ${p.email ?? 'votre nouvelle adresse'} ; ` +
      'votre adresse changera dès que vous l’ouvrirez.',
    phone_code_sent: (p: Pending) => `Nous avons envoyé un code par SMS au ${p.phone ?? 'nouveau numéro'}.`,
    phone_changed: () => 'Votre numéro de téléphone est confirmé.',
    password_changed: () => 'Votre mot de passe a été modifié. Vos autres sessions ont été fermées.',
    confirmed: () =>
      'Merci. Vous pouvez maintenant changer d’adresse e-mail, de numéro de téléphone ou de mot de passe.',
  },
  problems: {
    expired: 'Ce formulaire a expiré. Réessayez.',
    invalidEmail: 'Saisissez une adresse e-mail valide.',
    sameEmail: 'C’est déjà votre adresse e-mail.',
    invalidPhone: 'Saisissez un numéro au format international, par exemple +33612345678.',
    samePhone: 'C’est déjà votre numéro de téléphone.',
    missing: 'Remplissez tous les champs.',
    passwordsDiffer: 'Les deux nouveaux mots de passe diffèrent.',
    tooMany: 'Trop de tentatives. Patientez un instant puis réessayez.',
    stepUpRequired: 'Confirmez d’abord qu’il s’agit bien de vous avec un code.',
    too_short: (min: number) => `Le mot de passe doit compter au moins ${min} caractères (et au plus 256).`,
    too_common: 'Ce mot de passe est trop courant. Choisissez-en un autre.',
    contains_user_info: 'Le mot de passe ne doit contenir ni votre adresse e-mail ni votre nom.',
    too_weak: 'Ce mot de passe est trop facile à deviner. Quelques mots sans rapport en font un solide.',
    breached: 'Ce mot de passe figure dans une fuite de données. Choisissez-en un autre.',
  },
};

export const ACCOUNT_TEXT: Record<Language, typeof EN> = { en: EN, fr: FR };

export type AccountProblem = Exclude<keyof typeof EN.problems, 'too_short'>;

/** A problem the page finds itself (a form that expired, passwords that differ), in the page's language. */
export const accountProblem = (language: Language, problem: AccountProblem): string =>
  ACCOUNT_TEXT[language].problems[problem];

/** How a refusal of the account services reads on the page, in its language. */
export function accountErrorText(language: Language, e: WardError, minLength: number): string {
  const p = ACCOUNT_TEXT[language].problems;
  const detail = e.details?.[0];
  switch (e.id) {
    case 'invalidParameter': {
      const same = detail?.message.startsWith('is already') ?? false;
      if (detail?.field === 'email') return same ? p.sameEmail : p.invalidEmail;
      if (detail?.field === 'phone_number') return same ? p.samePhone : p.invalidPhone;
      return e.userMessage(language);
    }
    case 'missingParameter':
      return p.missing;
    case 'passwordTooShort':
      return p.too_short(minLength);
    case 'passwordTooWeak':
      return detail && detail.code !== 'missing' && detail.code !== 'invalid' && detail.code !== 'too_short'
        ? p[detail.code]
        : e.userMessage(language);
    case 'invalidVerificationCode':
    case 'invalidStepUp':
      return hostedMessage(language, 'wrongCode');
    case 'rateLimited':
      return p.tooMany;
    case 'stepUpRequired':
      return p.stepUpRequired;
    default:
      return e.userMessage(language);
  }
}

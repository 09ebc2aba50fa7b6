// The messages the sign-in routes show on the hosted pages, in English and French.
import type { Language } from '../../errors/ward-error.js';

const MESSAGES = {
  wrongPassword: ['The email or password is incorrect.', "L'adresse e-mail ou le mot de passe est incorrect."],
  tooManyAttempts: [
    'Too many sign-in attempts. Wait a minute and try again.',
    'Trop de tentatives de connexion. Patientez une minute puis réessayez.',
  ],
  passkeyFailed: [
    'That passkey could not be used. Try again, or use your password.',
    "Cette clé d'accès n'a pas pu être utilisée. Réessayez, ou utilisez votre mot de passe.",
  ],
  wrongCode: [
    'The code is wrong or has expired. Try again or ask for a new one.',
    'Le code est incorrect ou a expiré. Réessayez ou demandez-en un nouveau.',
  ],
  tooManyCodes: [
    'Too many codes were asked for. Wait before asking for another one.',
    'Trop de codes ont été demandés. Patientez avant d’en demander un autre.',
  ],
  accountDelayed: [
    'Too many failed attempts for this account. Try again in a moment.',
    'Trop de tentatives échouées pour ce compte. Réessayez dans un instant.',
  ],
  accountLocked: [
    'Too many failed attempts for this account. Try again later, or reset your password.',
    'Trop de tentatives échouées pour ce compte. Réessayez plus tard, ou réinitialisez votre mot de passe.',
  ],
  codeSent: [
    'A new code was sent. The previous one no longer works.',
    "Un nouveau code a été envoyé. L'ancien ne fonctionne plus.",
  ],
} as const;

export type HostedMessage = keyof typeof MESSAGES;

export const hostedMessage = (language: Language, id: HostedMessage): string => MESSAGES[id][language === 'fr' ? 1 : 0];

export const isHostedMessage = (v: string): v is HostedMessage => Object.hasOwn(MESSAGES, v);

// The words of the hosted account page (account.ts), from the language files (src/texts/), and how
// a refusal of one of its forms reads there.
import type { Language, WardError } from '../../errors/ward-error.js';
import { type Texts, textsIn } from '../../texts/texts.js';
import { hostedMessage } from './hosted-messages.js';

/** The fixed notices a form's 303 names (`?notice=`): nothing of the query is ever shown as text. */
export const ACCOUNT_NOTICES = [
  'email_sent',
  'phone_code_sent',
  'phone_changed',
  'password_changed',
  'confirmed',
  'app_removed',
  'session_ended',
  'others_ended',
  'device_forgotten',
  'profile_saved',
] as const;
export type AccountNotice = (typeof ACCOUNT_NOTICES)[number];

export const isAccountNotice = (v: unknown): v is AccountNotice =>
  typeof v === 'string' && (ACCOUNT_NOTICES as readonly string[]).includes(v);

type AccountTexts = Texts['pages']['account'];

/** The account page's texts in a language (src/texts/<language>/pages.ts). */
export const accountText = (language: Language): AccountTexts => textsIn(language).pages.account;

export type AccountProblem = Exclude<keyof AccountTexts['problems'], 'too_short'>;

/** A problem the page finds itself (a form that expired, passwords that differ), in the page's language. */
export const accountProblem = (language: Language, problem: AccountProblem): string =>
  accountText(language).problems[problem];

/** How a refusal of the account services reads on the page, in its language. */
export function accountErrorText(language: Language, e: WardError, minLength: number): string {
  const p = accountText(language).problems;
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

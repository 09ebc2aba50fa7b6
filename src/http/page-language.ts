import { type Language, pageLanguageOf } from '../errors/ward-error.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import { chooseLanguage } from '../texts/choose-language.js';
import type { Language as TextLanguage } from '../texts/language.js';

/**
 * The account's default language, the last resort of the language rule. No account setting holds it
 * yet: English, as Ward always fell back to; the setting replaces this constant when it exists.
 */
export const ACCOUNT_DEFAULT_LANGUAGE: TextLanguage = 'en';

type WithHeaders = { headers: Record<string, string | string[] | undefined> };

/**
 * The language of a request (texts/choose-language.ts): the interaction's ui_locales, else the
 * user's stored locale, else the browser's Accept-Language, else the account's default. Its pages,
 * error messages, emails and SMS all use it; pass what is known (no interaction: an expired form, a
 * logout, a bad link; no user: before the first factor).
 */
export const requestLanguage = (
  req: WithHeaders,
  known: { uiLocales?: string | null; userLocale?: string | null } = {},
): TextLanguage =>
  chooseLanguage(
    { ...known, acceptLanguage: req.headers['accept-language'] as string | undefined },
    ACCOUNT_DEFAULT_LANGUAGE,
  );

/** The language of a hosted page: the request's language, as far as the pages speak it. */
export const pageLanguage = (
  req: WithHeaders,
  request?: Pick<Partial<AuthorizeRequest>, 'uiLocales'>,
  userLocale?: string | null,
): Language => pageLanguageOf(requestLanguage(req, { uiLocales: request?.uiLocales, userLocale }));

import type { FastifyInstance } from 'fastify';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import { chooseLanguage } from '../texts/choose-language.js';
import type { Language as TextLanguage } from '../texts/language.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account's `default_language` when the request came in (app.ts sets it). */
    accountLanguage?: TextLanguage;
  }
}

/** A request as the rule reads it; without `accountLanguage` (a request outside the app), English. */
type WithHeaders = { headers: Record<string, string | string[] | undefined>; accountLanguage?: TextLanguage };

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
    req.accountLanguage ?? 'en',
  );

/** The language of a hosted page: the request's language (its interaction's ui_locales when known). */
export const pageLanguage = (
  req: WithHeaders,
  request?: Pick<Partial<AuthorizeRequest>, 'uiLocales'>,
  userLocale?: string | null,
): TextLanguage => requestLanguage(req, { uiLocales: request?.uiLocales, userLocale });

/**
 * Gives every request the account's default language, read when the request asks for it (a getter:
 * no per-request hook on the hot path, and the value current at the time of use).
 */
export function installAccountLanguage(app: FastifyInstance, defaultLanguage: () => TextLanguage): void {
  app.decorateRequest('accountLanguage', { getter: defaultLanguage });
}

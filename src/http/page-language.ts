import { type Language, languageOf, uiLocalesLanguage } from '../errors/ward-error.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/**
 * The language of a hosted page: the authorization request's ui_locales, else the browser's
 * Accept-Language (the only rule when no request is at hand: an expired form, a logout, a bad link).
 */
export const pageLanguage = (
  req: { headers: Record<string, string | string[] | undefined> },
  request?: Pick<Partial<AuthorizeRequest>, 'uiLocales'>,
): Language =>
  uiLocalesLanguage(request?.uiLocales) ?? languageOf(req.headers['accept-language'] as string | undefined);

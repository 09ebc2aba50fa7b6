// The one rule that picks the language of a request: its pages, its error messages, and the emails
// and SMS it sends all use what this returns, so a sign-in never switches language half way.
import { type Language, languageOfTag } from './language.js';

/**
 * A request's language once the user is known: the caller closes over what the request says
 * (ui_locales, Accept-Language, the account default) and the rule puts the user's stored locale in its
 * place between them. Code that learns who the user is late (a password check) takes this, not a language.
 */
export type LanguageFor = (userLocale?: string | null) => Language;

export interface LanguageSources {
  /** OIDC `ui_locales` of the stored interaction (space-separated tags, in order of preference). */
  uiLocales?: string | null;
  /** The user's stored profile `locale` (one BCP 47 tag), once the user is known. */
  userLocale?: string | null;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | null;
}

/** The first tag of a `ui_locales` value Ward speaks, else null. */
export function uiLocalesLanguage(uiLocales: string | null | undefined): Language | null {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return null;
}

/**
 * The Accept-Language range Ward speaks with the highest weight (RFC 9110 12.5.4; the first of equal
 * weights), else null. Only the first 200 characters are read: the header is the client's to size.
 */
export function acceptLanguageLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  let best: { language: Language; q: number } | undefined;
  for (const range of header.slice(0, 200).split(',')) {
    const [tag, ...params] = range.trim().split(';');
    const language = languageOfTag(tag);
    if (!language) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language, q };
  }
  return best?.language ?? null;
}

/**
 * The language of a request: the interaction's `ui_locales` (the client asked for it), else the
 * user's stored locale, else the weighted Accept-Language, else the account's default. Each source
 * counts only when Ward speaks a language it names.
 */
export function chooseLanguage(sources: LanguageSources, accountDefault: Language): Language {
  return (
    uiLocalesLanguage(sources.uiLocales) ??
    languageOfTag(sources.userLocale) ??
    acceptLanguageLanguage(sources.acceptLanguage) ??
    accountDefault
  );
}

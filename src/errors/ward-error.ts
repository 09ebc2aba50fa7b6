import { CATALOG, type CatalogEntry, type ErrorName } from './catalog.js';

/**
 * The one error Ward throws for a refusal, built from a catalog entry. Its API body is the contract's
 * (identity-api.md, "Transport rules"): {error, error_description, error_user_msg, error_message_key,
 * error_id?, error_details?}. In English the user message is the description (the entry's text, or the
 * more precise sentence the thrower gave); in French it is the entry's French text, since descriptions
 * are English only.
 */
export interface FieldError {
  field: string;
  message: string;
  /** `missing`, `invalid`, or the password rule a new password breaks. */
  code: 'missing' | 'invalid' | 'too_short' | 'too_common' | 'contains_user_info' | 'too_weak' | 'breached';
}

export type Language = 'en' | 'fr';

export interface WardErrorOptions {
  /** A more precise English sentence than the entry's (it becomes error_description). */
  description?: string;
  details?: FieldError[];
  /** Retry-After, WWW-Authenticate, ... */
  headers?: Record<string, string>;
  /** Only for Fastify's own 4xx, which keep the status Fastify chose. */
  status?: number;
  /** For /oauth/authorize errors: the (partial) authorization request, to find where a redirect may go. */
  authorizeRequest?: object;
  /** 303 after a POST, so the browser never re-posts the form. */
  redirectStatus?: number;
}

/** Speed-up `stackless_client_errors` (docs/performance.md): the composition sets it. */
export const refusalStacks = { skip: false };

export class WardError extends Error {
  readonly entry: CatalogEntry;
  readonly status: number;
  readonly description: string;
  readonly details?: FieldError[];
  readonly headers: Record<string, string>;
  readonly authorizeRequest?: object;
  readonly redirectStatus: number;

  constructor(
    readonly id: ErrorName,
    opts: WardErrorOptions = {},
  ) {
    const entry: CatalogEntry = CATALOG[id];
    const description = opts.description ?? entry.en;
    const status = opts.status ?? entry.status;
    // A refusal is expected and never logged as a crash: the tuned path captures no stack for it.
    const limit = Error.stackTraceLimit;
    if (refusalStacks.skip && status < 500) Error.stackTraceLimit = 0;
    super(description);
    Error.stackTraceLimit = limit;
    this.entry = entry;
    this.status = status;
    this.description = description;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
    this.authorizeRequest = opts.authorizeRequest;
    this.redirectStatus = opts.redirectStatus ?? 302;
  }

  get error(): string {
    return this.entry.error;
  }

  get messageKey(): string {
    return this.entry.key;
  }

  /** Whether this error of /oauth/authorize may go back to the client (only once its target is validated). */
  get redirectable(): boolean {
    return this.entry.redirectable === true;
  }

  userMessage(language: Language = 'en'): string {
    return language === 'fr' ? this.entry.fr : this.description;
  }

  /** The same refusal, for the authorization request it is about (the error handler answers it there). */
  at(authorizeRequest: object, redirectStatus?: number): WardError {
    return new WardError(this.id, {
      description: this.description,
      details: this.details,
      headers: this.headers,
      authorizeRequest,
      redirectStatus: redirectStatus ?? this.redirectStatus,
    });
  }

  body(language: Language = 'en', errorId?: string): Record<string, unknown> {
    return {
      error: this.error,
      error_description: this.description,
      error_user_msg: this.userMessage(language),
      error_message_key: this.messageKey,
      ...(errorId ? { error_id: errorId } : {}),
      ...(this.details ? { error_details: this.details } : {}),
    };
  }
}

/** Error descriptions go into a Location header and pages: keep them to printable ASCII, no CR/LF/TAB. */
export function cleanDescription(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, ' ').slice(0, 300);
}

/** The first language of an OIDC `ui_locales` value (space-separated tags) Ward speaks, else null. */
export function uiLocalesLanguage(uiLocales: string | undefined): Language | null {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const primary = tag.split(/[-_]/)[0]?.toLowerCase();
    if (primary === 'en' || primary === 'fr') return primary;
  }
  return null;
}

/**
 * The language of the user messages: the first of the Accept-Language ranges Ward speaks, by weight
 * (RFC 9110 12.5.4); English when the request says nothing Ward understands.
 */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  let best: { language: Language; q: number } | undefined;
  for (const range of acceptLanguage.slice(0, 200).split(',')) {
    const [tag, ...params] = range.trim().split(';');
    const primary = (tag ?? '').trim().split(/[-_]/)[0]!.toLowerCase();
    if (primary !== 'en' && primary !== 'fr') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language: primary, q };
  }
  return best?.language ?? 'en';
}

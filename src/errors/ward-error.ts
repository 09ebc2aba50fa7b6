import { chooseLanguage, uiLocalesLanguage as uiLocalesTextLanguage } from '../texts/choose-language.js';
import type { Language as TextLanguage } from '../texts/language.js';
import { textsIn } from '../texts/texts.js';
import { CATALOG, type CatalogEntry, type ErrorName } from './catalog.js';

/**
 * The one error Ward throws for a refusal, built from a catalog entry. Its API body is the contract's
 * (identity-api.md, "Transport rules"): {error, error_description, error_user_msg, error_message_key,
 * error_id?, error_details?}. In English the user message is the description (the entry's text, or the
 * more precise sentence the thrower gave); in another language it is the entry's text in that language
 * (src/texts/<lang>/errors.ts), since descriptions are English only.
 */
export interface FieldError {
  field: string;
  message: string;
  /** `missing`, `invalid`, or the password rule a new password breaks. */
  code:
    | 'missing'
    | 'invalid'
    | 'too_short'
    | 'too_common'
    | 'contains_user_info'
    | 'too_weak'
    | 'breached'
    | 'missing_characters';
}

/** The languages Ward speaks (src/texts/language.ts). */
export type Language = TextLanguage;

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
  /**
   * Why, and whose, for the audit log only, when the answer must read like another refusal (a lite
   * profile is refused like an unknown user: sign-in-methods/audit.ts failureReason reads it). Never sent.
   */
  audit?: { reason: string; userId?: string };
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
  readonly audit?: { reason: string; userId?: string };

  constructor(
    readonly id: ErrorName,
    opts: WardErrorOptions = {},
  ) {
    const entry: CatalogEntry = CATALOG[id];
    const description = opts.description ?? textsIn('en').errors[id];
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
    this.audit = opts.audit;
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

  userMessage(language: TextLanguage = 'en'): string {
    return language === 'en' ? this.description : textsIn(language).errors[this.id];
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

  body(language: TextLanguage = 'en', errorId?: string): Record<string, unknown> {
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

/** The first language of an OIDC `ui_locales` value Ward speaks, else null. */
export function uiLocalesLanguage(uiLocales: string | undefined): Language | null {
  return uiLocalesTextLanguage(uiLocales);
}

/**
 * The language of a request known only by its Accept-Language (no interaction, no user): the one rule
 * of texts/choose-language.ts with nothing before the header, then the account's default.
 */
export function languageOf(acceptLanguage: string | undefined, accountDefault: TextLanguage = 'en'): TextLanguage {
  return chooseLanguage({ acceptLanguage }, accountDefault);
}

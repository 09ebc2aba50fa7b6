// A hook's refusal as a WardError: the catalog's `hookDenied` entry (403, access_denied), whose
// message key and user message are the ones the hook gave (else the entry's own, in every language).
// The SDK's JSON answer carries them as error_message_key and error_user_msg; the hosted pages show
// the message.
import type { Language } from '../texts/language.js';
import { cleanDescription, WardError, type WardErrorOptions } from '../errors/ward-error.js';

export class HookDenied extends WardError {
  constructor(
    private readonly hookKey: string | undefined,
    private readonly hookText: string | undefined,
    opts: Omit<WardErrorOptions, 'description'> = {},
  ) {
    super('hookDenied', { ...opts, ...(hookText ? { description: cleanDescription(hookText) } : {}) });
  }

  override get messageKey(): string {
    return this.hookKey ?? super.messageKey;
  }

  /** The hook's own text, in whatever language it wrote it. */
  override userMessage(language: Language = 'en'): string {
    return this.hookText ?? super.userMessage(language);
  }

  override at(authorizeRequest: object, redirectStatus?: number): WardError {
    return new HookDenied(this.hookKey, this.hookText, {
      authorizeRequest,
      redirectStatus: redirectStatus ?? this.redirectStatus,
    });
  }
}

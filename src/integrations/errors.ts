/**
 * DeliveryError: a verification code could not be handed to its transport. Its message never holds
 * the code nor a transport secret (`scrub` removes them), so a caller may log it and answer a 5xx.
 */
export type DeliveryChannel = 'email' | 'sms';

/**
 * not_configured: no transport for the channel (production mode);
 * invalid_destination: an empty address or phone number;
 * refused: the provider answered no (bad credentials, rejected recipient, 4xx, permanent SMTP error);
 * unavailable: the provider could not be reached, timed out, or failed (5xx, transient SMTP error).
 */
export type DeliveryFailure = 'not_configured' | 'invalid_destination' | 'refused' | 'unavailable';

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';

  constructor(
    readonly channel: DeliveryChannel,
    readonly failure: DeliveryFailure,
    message: string,
    /** The provider's HTTP status or SMTP reply code, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Removes every listed secret from a text meant for an error message or a log, and bounds it. */
export function scrub(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .trim()
    .slice(0, 300);
}

// Standard Webhooks signing (https://www.standardwebhooks.com/): the secret is `whsec_` + base64 of
// random bytes; the signature is `v1,` + base64 of HMAC-SHA256, keyed by those bytes, over
// "<webhook-id>.<webhook-timestamp>.<body>". During a rotation's overlap both secrets sign and the
// header carries both signatures, space-separated, so a receiver holding either one verifies.
import { createHmac } from 'node:crypto';
import { secureRandomBytes } from '../lib/random.js';

const PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export const newSigningSecret = (): string => PREFIX + secureRandomBytes(32).toString('base64');

/** The key bytes of a `whsec_...` secret. */
export const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(PREFIX.length), 'base64');

/** The webhook-signature header of one message under every given secret. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map((s) => `v1,${createHmac('sha256', keyOf(s)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`)
    .join(' ');
}

/** The three Standard Webhooks headers of one message. */
export function signedHeaders(secrets: readonly string[], id: string, nowMs: number, body: string) {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}

// Messenger webhook kit: the two checks on an incoming call (checklist WH-01..WH-04).
// - GET handshake: 200 text/plain echoing hub.challenge only for hub.mode=subscribe and the right
//   hub.verify_token; otherwise 403 and the challenge is never echoed.
// - POST signature: X-Hub-Signature-256 = "sha256=" + lowercase hex HMAC-SHA256(app secret, raw body
//   bytes). Anything else (missing, repeated, malformed, uppercase hex, legacy sha1 only) is refused.
//   The compare is timingSafeEqual on two equal-length buffers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HandlerResult, HeadersLike } from './types.js';

const TEXT = 'text/plain; charset=utf-8';

/** Reads one header by (case-insensitive) name; a repeated header reads as undefined. */
export function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(n: string): string | null }).get(name);
    return v === null ? undefined : v;
  }
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : rec[key];
  return typeof v === 'string' ? v : undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Unequal lengths are refused before the compare (timingSafeEqual throws on them).
  return x.length === y.length && timingSafeEqual(x, y);
}

function queryValue(query: URLSearchParams | string | Record<string, unknown>, key: string): string | undefined {
  if (typeof query === 'string') query = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (query instanceof URLSearchParams) {
    const all = query.getAll(key);
    return all.length === 1 ? all[0] : undefined;
  }
  const v = query[key];
  return typeof v === 'string' ? v : undefined;
}

/** The GET verification handshake (WH-01, WH-02). */
export function verifyHandshake(
  query: URLSearchParams | string | Record<string, unknown>,
  verifyToken: string,
): HandlerResult {
  const mode = queryValue(query, 'hub.mode');
  const token = queryValue(query, 'hub.verify_token');
  const challenge = queryValue(query, 'hub.challenge');
  if (mode === 'subscribe' && token !== undefined && challenge !== undefined && sameText(token, verifyToken)) {
    return { status: 200, contentType: TEXT, body: challenge };
  }
  return { status: 403, contentType: TEXT, body: 'Forbidden' };
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/** True only for a well-formed X-Hub-Signature-256 that matches the raw bytes (WH-03, WH-04). */
export function signatureMatches(rawBody: Buffer, headers: HeadersLike, appSecret: string): boolean {
  const header = headerValue(headers, 'x-hub-signature-256');
  if (header === undefined) return false;
  const m = SIGNATURE.exec(header);
  if (!m) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest('hex');
  return sameText(m[1], expected);
}

/** The signature a platform (or the simulator) sends for these bytes. */
export function signBody(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export const textResult = (status: number, body: string): HandlerResult => ({ status, contentType: TEXT, body });

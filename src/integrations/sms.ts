/**
 * SMS through a Twilio-compatible HTTP API: POST {baseUrl}/2010-04-01/Accounts/{sid}/Messages.json,
 * form-encoded To, From, Body, HTTP Basic auth sid:token. Success is a 201 JSON carrying a `sid`;
 * any other answer, a redirect, a timeout or a network error is a DeliveryError, whose message holds
 * neither the auth token nor the message body.
 */
import type { Outbound } from '../lib/outbound/client.js';
import { DeliveryError, scrub } from './errors.js';

export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

export interface SmsSenderOptions {
  /** e.g. https://api.twilio.com (no trailing path). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: an E.164 number or an alphanumeric sender id. */
  from: string;
  /** Whole request timeout; default 10 s. */
  timeoutMs?: number;
  /** The guarded client (lib/outbound/) the request goes through. */
  outbound: Pick<Outbound, 'fetch'>;
}

/** Twilio's error answer: {code, message, more_info, status}. Only its numeric code and a scrubbed message are kept. */
function describeRefusal(text: string, secrets: string[]): string {
  try {
    const j = JSON.parse(text) as { code?: unknown; message?: unknown };
    const code = typeof j.code === 'number' ? ` ${j.code}` : '';
    const message = typeof j.message === 'string' ? `: ${scrub(j.message, secrets).slice(0, 160)}` : '';
    return `${code}${message}`;
  } catch {
    return '';
  }
}

export function createSmsSender(opts: SmsSenderOptions): SmsSender {
  if (!opts.baseUrl || !opts.accountSid || !opts.authToken || !opts.from)
    throw new Error('the SMS sender needs baseUrl, accountSid, authToken and from');
  const base = new URL(opts.baseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('the SMS base URL must be http(s)');
  const endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const basic = Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64');
  const timeoutMs = opts.timeoutMs ?? 10_000;

  return {
    async send(to, body) {
      if (typeof to !== 'string' || to.trim() === '')
        throw new DeliveryError('sms', 'invalid_destination', 'no phone number to send to');
      const secrets = [opts.authToken, basic, body];
      let res: Awaited<ReturnType<Outbound['fetch']>>;
      let text: string;
      try {
        res = await opts.outbound.fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: to.trim(), From: opts.from, Body: body }).toString(),
          timeoutMs,
        });
        text = await res.text();
      } catch (e) {
        const err = e as { name?: string; message?: string; cause?: { code?: unknown } };
        const why =
          err.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : err.name === 'OutboundRefused'
              ? `refused: ${err.message}`
              : typeof err.cause?.code === 'string'
                ? err.cause.code
                : 'network error';
        throw new DeliveryError(
          'sms',
          'unavailable',
          `SMS delivery failed: the SMS provider could not be reached (${why})`,
        );
      }
      if (res.status === 201) {
        let sid: unknown;
        try {
          sid = (JSON.parse(text) as { sid?: unknown }).sid;
        } catch {
          sid = undefined;
        }
        if (typeof sid === 'string' && sid !== '') return;
        throw new DeliveryError(
          'sms',
          'unavailable',
          'SMS delivery failed: the SMS provider answered 201 without a message sid',
          201,
        );
      }
      const failure = res.status >= 500 || res.status === 429 ? 'unavailable' : 'refused';
      throw new DeliveryError(
        'sms',
        failure,
        `SMS delivery failed: the SMS provider answered ${res.status}${describeRefusal(text, secrets)}`,
        res.status,
      );
    },
  };
}

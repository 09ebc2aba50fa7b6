import { randomId } from '../../src/lib/random.js';
import { startSmsSink, type SmsSink } from './sms-sink.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { startWard, type TestWard, type TestWardOptions } from './ward.js';

export const SMS_CREDS = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'sms-auth-token-for-tests' };

export interface MfaWard {
  ward: TestWard;
  smtp: SmtpSink;
  sms: SmsSink;
  close(): Promise<void>;
}

/** A Ward whose codes go to a real SMTP server and a Twilio-compatible SMS API, both on loopback. */
export async function startMfaWard(opts: TestWardOptions = {}): Promise<MfaWard> {
  const smtp = await startSmtpSink();
  const sms = await startSmsSink(SMS_CREDS);
  // The per-IP verification limit is off unless a test sets it: race tests send many codes from one IP.
  const account = (opts.account ?? {}) as { rate_limits?: Record<string, unknown> };
  const ward = await startWard({
    ...opts,
    account: { ...account, rate_limits: { verification: { limit: null }, ...(account.rate_limits ?? {}) } },
    delivery: {
      smtpUrl: smtp.url,
      smsUrl: sms.url,
      smsAccountSid: SMS_CREDS.accountSid,
      smsAuthToken: SMS_CREDS.authToken,
      smsFrom: '+15005550006',
      ...(opts.delivery ?? {}),
    },
  });
  return {
    ward,
    smtp,
    sms,
    async close() {
      await ward.close();
      await smtp.close();
      await sms.close();
    },
  };
}

/** The code in a message (the first run of `length` digits). */
export function codeIn(text: string, length = 6): string {
  const m = new RegExp(`\\b(\\d{${length}})\\b`).exec(text);
  if (!m) throw new Error(`no ${length}-digit code in: ${text.slice(0, 200)}`);
  return m[1]!;
}

/** Gives a user verified factors directly in storage (test setup; registration itself is tested through the API). */
export async function giveFactors(
  ward: TestWard,
  userId: string,
  factors: { email?: string; phone?: string },
): Promise<void> {
  const now = ward.clock.now();
  if (factors.email)
    await ward.registry.storage.mfaCredentials.insert({
      id: randomId(),
      user_id: userId,
      type: 'email',
      destination: factors.email,
      friendly_name: null,
      verified_at: now,
      created_at: now,
    });
  if (factors.phone)
    await ward.registry.storage.mfaCredentials.insert({
      id: randomId(),
      user_id: userId,
      type: 'sms',
      destination: factors.phone,
      friendly_name: null,
      verified_at: now,
      created_at: now,
    });
}

export async function postJson(ward: TestWard, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await ward.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as Record<string, any>,
  };
}

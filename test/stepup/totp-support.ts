// RFC 6238 TOTP computed here with node:crypto alone (independent of the `otpauth` library Ward uses),
// checked against the RFC's own test vectors in totp.test.ts; and the steps of the TOTP tests.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { decodeJwt } from 'jose';
import { postJson, type MfaWard } from '../helpers/mfa.js';
import { pkcePair, redeem } from '../helpers/oauth.js';
import { bearer, stepUpBody, type User } from './support.js';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding) to bytes. */
export function base32Bytes(s: string): Buffer {
  let bits = '';
  for (const c of s.replace(/=+$/, '').toUpperCase()) {
    const v = B32.indexOf(c);
    if (v < 0) throw new Error(`not base32: ${c}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const out: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) out.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(out);
}

/** RFC 4226 HOTP with SHA-1 (dynamic truncation), `digits` long. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(msg).digest();
  const off = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[off]! & 0x7f) << 24) | (mac[off + 1]! << 16) | (mac[off + 2]! << 8) | mac[off + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: the code at `ms` (30-second steps from the epoch), shifted by `steps`. */
export const totpAt = (secretB32: string, ms: number, steps = 0) =>
  hotp(base32Bytes(secretB32), Math.floor(ms / 30_000) + steps);

/** Enrols an authenticator app with a token allowed to (first factor, or fresh step-up): its secret and codes. */
export async function enrolTotp(m: MfaWard, access: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const e = await postJson(m.ward, '/identity/v1/mfa/credentials/totp', {}, bearer(access));
  assert.equal(e.status, 200, JSON.stringify(e.body));
  const secret = e.body.secret as string;
  const v = await postJson(
    m.ward,
    '/identity/v1/mfa/credentials/totp/verify',
    { verification_code: totpAt(secret, m.ward.clock.now()) },
    bearer(access),
  );
  assert.equal(v.status, 200, JSON.stringify(v.body));
  return { secret, recoveryCodes: v.body.recovery_codes ?? [] };
}

/** A step_up token by password login → tkn → /mfa/stepup, with its answer. */
export async function totpStepUp(m: MfaWard, user: User) {
  const l = await postJson(m.ward, '/identity/v1/password/login', {
    client_id: 'spa',
    scope: 'openid email',
    email: user.email,
    password: user.password,
  });
  assert.equal(l.status, 200, JSON.stringify(l.body));
  const pkce = pkcePair();
  const s = await postJson(
    m.ward,
    '/identity/v1/mfa/stepup',
    stepUpBody(pkce.challenge, { tkn: l.body.tkn, scope: 'openid email offline_access' }),
  );
  assert.equal(s.status, 200, JSON.stringify(s.body));
  return { token: s.body.token as string, verifier: pkce.verifier, body: s.body };
}

export const verifyFactor = (m: MfaWard, stepUp: string, authType: string, code: string) =>
  postJson(m.ward, '/identity/v1/mfa/stepup/verify', {
    step_up: stepUp,
    auth_type: authType,
    verification_code: code,
  });

/** A full sign-in answered by a factor: the tokens (their amr checked by the caller) and the access token. */
export async function signInWith(m: MfaWard, user: User, authType: string, code: string) {
  const s = await totpStepUp(m, user);
  const v = await verifyFactor(m, s.token, authType, code);
  assert.equal(v.status, 200, JSON.stringify(v.body));
  assert.equal(v.body.state, 'st-1');
  const { res, body } = await redeem(m.ward, v.body.code, s.verifier);
  assert.equal(res.status, 200, JSON.stringify(body));
  return { access: body.access_token!, amr: decodeJwt(body.id_token!).amr as string[] };
}

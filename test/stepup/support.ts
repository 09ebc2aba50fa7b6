// Shared steps of the step-up MFA checklist tests (codes, limits, credentials): users with factors,
// step_up tokens by tkn, code requests read back from the SMTP / SMS sinks, access tokens with and
// without a step-up, and the storage rows the tests inspect.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { sha256 } from '../../src/lib/secrets.js';
import { codeIn, giveFactors, postJson, type MfaWard } from '../helpers/mfa.js';
import { codeFor, pkcePair, redeem, signup, tokenRequest } from '../helpers/oauth.js';

/** No per-IP limits: these tests log in many times from one address. */
export const OPEN = { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } };

export type User = Awaited<ReturnType<typeof signup>>;

export async function mfaUser(m: MfaWard, factors: { phone?: string; email?: boolean } = {}): Promise<User> {
  const user = await signup(m.ward);
  await giveFactors(m.ward, user.id, {
    ...(factors.email === false ? {} : { email: user.email }),
    ...(factors.phone ? { phone: factors.phone } : {}),
  });
  return user;
}

export function stepUpBody(challenge: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: 'spa',
    response_type: 'code',
    redirect_uri: 'https://app.example/cb',
    scope: 'openid email offline_access',
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

/** A fresh step_up token of a user (password login → tkn → /mfa/stepup), and the PKCE verifier it binds. */
export async function stepUpOf(m: MfaWard, user: User): Promise<{ token: string; verifier: string; amr: string[] }> {
  const l = await postJson(m.ward, '/identity/v1/password/login', {
    client_id: 'spa',
    scope: 'openid email',
    email: user.email,
    password: user.password,
  });
  assert.equal(l.status, 200, JSON.stringify(l.body));
  const pkce = pkcePair();
  const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody(pkce.challenge, { tkn: l.body.tkn }));
  assert.equal(s.status, 200, JSON.stringify(s.body));
  return { token: s.body.token, verifier: pkce.verifier, amr: s.body.amr };
}

export const start = (m: MfaWard, stepUp: string, authType: 'email' | 'sms' = 'email') =>
  postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: authType, step_up: stepUp });

export const verify = (m: MfaWard, challengeId: unknown, code: unknown, extra: Record<string, unknown> = {}) =>
  postJson(m.ward, '/identity/v1/passwordless/verify', {
    challenge_id: challengeId,
    verification_code: code,
    ...extra,
  });

/** Starts a code by email and reads it from the SMTP sink. */
export async function emailCode(
  m: MfaWard,
  user: User,
  stepUp: string,
): Promise<{ challengeId: string; code: string }> {
  const s = await start(m, stepUp, 'email');
  assert.equal(s.status, 200, JSON.stringify(s.body));
  return {
    challengeId: s.body.challenge_id,
    code: codeIn((await m.smtp.next(user.email)).text, m.ward.registry.account().verification_code_length),
  };
}

/** A code of the same length that is not `code`. */
export function wrong(code: string, k = 1): string {
  const mod = 10 ** code.length;
  return String((Number(code) + k) % mod).padStart(code.length, '0');
}

/** Asserts the one refusal of a bad code: 400 invalid_grant error.invalidVerificationCode. */
export function assertWrongCode(res: { status: number; body: Record<string, any> }, what = 'refused'): void {
  assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error, 'invalid_grant', what);
  assert.equal(res.body.error_message_key, 'error.invalidVerificationCode', what);
}

/** Asserts a 429 rate_limit_reached with a positive Retry-After. */
export function assertLimited(
  res: { status: number; headers: Headers | { get(n: string): string | null }; body: Record<string, any> },
  what = 'limited',
): void {
  assert.equal(res.status, 429, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error, 'rate_limit_reached', what);
  assert.equal(res.body.error_message_key, 'error.rateLimitReached', what);
  assert.ok(Number(res.headers.get('retry-after')) >= 1, `${what}: Retry-After`);
}

/** A new user (no factor yet) and a plain access token of theirs (signup → tkn → code → token; amr pwd). */
export async function plainToken(m: MfaWard): Promise<{ user: User; access: string }> {
  const { code, verifier, user } = await codeFor(m.ward, { scope: 'openid profile email offline_access' });
  const { res, body } = await redeem(m.ward, code, verifier);
  assert.equal(res.status, 200, JSON.stringify(body));
  return { user, access: body.access_token! };
}

/**
 * The full step-up with a Bearer token: /mfa/stepup → start → the code from the SMTP sink → verify
 * → redeem at /oauth/token. Answers the new tokens (their amr has mfa).
 */
export async function steppedUpToken(m: MfaWard, user: User, access: string, opts: { trustDevice?: boolean } = {}) {
  const pkce = pkcePair();
  const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody(pkce.challenge), {
    authorization: `Bearer ${access}`,
  });
  assert.equal(s.status, 200, JSON.stringify(s.body));
  const { challengeId, code } = await emailCode(m, user, s.body.token);
  const v = await verify(m, challengeId, code, opts.trustDevice ? { trust_device: true } : {});
  assert.equal(v.status, 200, JSON.stringify(v.body));
  const { res, body } = await redeem(m.ward, v.body.code, pkce.verifier);
  assert.equal(res.status, 200, JSON.stringify(body));
  const amr = decodeJwt(body.id_token!).amr as string[];
  assert.ok(amr.includes('mfa') && amr.includes('email'), `amr ${JSON.stringify(amr)}`);
  const deviceCookie = v.headers.getSetCookie().find((c) => c.startsWith('__Host-ward_td='));
  return { access: body.access_token!, refresh: body.refresh_token, deviceCookie };
}

export const refresh = async (m: MfaWard, refreshToken: string) => {
  const res = await tokenRequest(m.ward, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: 'spa',
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
};

/** The stored challenges of a step_up token (or of a user), for assertions on state. */
export async function challengesOf(m: MfaWard, where: { stepUp?: string; userId?: string }) {
  let q = m.ward.registry.db.db.selectFrom('challenges').selectAll();
  if (where.stepUp) q = q.where('step_up_digest', '=', sha256(where.stepUp));
  if (where.userId) q = q.where('user_id', '=', where.userId);
  return q.execute();
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

export async function getJson(m: MfaWard, path: string, headers: Record<string, string> = {}) {
  const res = await m.ward.fetch(path, { headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as Record<string, any>,
  };
}

export async function del(m: MfaWard, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await m.ward.fetch(path, {
    method: 'DELETE',
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

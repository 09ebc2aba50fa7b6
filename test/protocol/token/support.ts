// Shared assertions and flows of the token-endpoint tests (test/protocol/token/*.test.ts).
import assert from 'node:assert/strict';
import type { Response } from 'undici';
import { codeFor, redeem, tokenRequest } from '../../helpers/oauth.js';
import type { TestWard } from '../../helpers/ward.js';

export type Body = Record<string, unknown>;

/** Asserts an exact status and OAuth `error`, and the contract's error_message_key; returns the body. */
export async function expectError(res: Response, status: number, error: string): Promise<Body> {
  const text = await res.text();
  assert.equal(res.status, status, `expected ${status} ${error}, got ${res.status} ${text}`);
  const body = JSON.parse(text) as Body;
  assert.equal(body.error, error, text);
  assert.equal(typeof body.error_message_key, 'string', `error_message_key missing: ${text}`);
  assert.ok((body.error_message_key as string).length > 0);
  assert.equal(body.access_token, undefined);
  assert.equal(body.refresh_token, undefined);
  assert.equal(body.id_token, undefined);
  return body;
}

/** Asserts a 200 token response and returns it. */
export async function expectTokens(res: Response): Promise<Record<string, string>> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const body = JSON.parse(text) as Record<string, string>;
  assert.equal(body.token_type, 'Bearer');
  assert.equal(typeof body.access_token, 'string');
  return body;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** The userinfo status for an access token: 200 while it lives, 401 once revoked. */
export async function userinfoStatus(ward: TestWard, accessToken: string): Promise<number> {
  const res = await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
  await res.arrayBuffer();
  return res.status;
}

export const OFFLINE = 'openid profile email offline_access';

/** A code flow with offline_access on the public client: access + refresh tokens (and the browser). */
export async function offlineTokens(ward: TestWard) {
  const flow = await codeFor(ward, { scope: OFFLINE });
  const { res, body } = await redeem(ward, flow.code, flow.verifier);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(typeof body.refresh_token, 'string', 'offline_access yields a refresh token');
  return { ...flow, tokens: body };
}

export function refresh(ward: TestWard, refreshToken: string, extra: Record<string, string> = {}, clientId = 'spa') {
  return tokenRequest(ward, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
    ...extra,
  });
}

/** The error body with its per-request parts removed: what must be identical across failures (TK-08). */
export function shape(body: Body): Body {
  const { error_id: _id, ...rest } = body;
  return rest;
}

/** redeem() without reading the body: the Response for expectError / expectTokens. */
export function redeemRaw(
  ward: TestWard,
  code: string,
  verifier: string,
  clientId = 'spa',
  redirectUri = 'https://app.example/cb',
): Promise<Response> {
  return tokenRequest(ward, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
}

/** Account settings for suites that sign many users up from one IP (the limits have their own tests). */
export const NO_LIMITS = { rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } } };

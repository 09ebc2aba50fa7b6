// Shared helpers of the security tests (not a test file): a Ward with the two standard clients and no
// rate limits (nor per-account waits), a user with live tokens, the exact 401 of a refused Bearer, and
// the hosted login form.
import assert from 'node:assert/strict';
import type { Response } from 'undici';
import type { Browser } from '../helpers/browser.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  pkcePair,
  redeem,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard, type TestWardOptions } from '../helpers/ward.js';

/** What a leaked error would show in a JSON error body: a stack, a source file, SQL, a parser's own message. */
export const INTERNALS =
  /stack|\bat [\w.<>]+ \(|node_modules|\.ts\b|\.js\b|sqlite|kysely|select |insert |update |SyntaxError|Unexpected token|JSON at position|FST_|TypeError|ReferenceError/i;

export const NO_RATE_LIMITS = {
  rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
  // Nor the per-account waits of failed passwords (test/accounts/sign-in-protection.test.ts tests them).
  sign_in_delay_after: 100,
  sign_in_lock_after: 100,
};

export function startSecurityWard(opts: TestWardOptions = {}): Promise<TestWard> {
  return startWard({
    clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT],
    ...opts,
    account: { ...NO_RATE_LIMITS, ...(opts.account ?? {}) },
  });
}

export interface Issued {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  user: { id: string; email: string; password: string };
  browser: Browser;
  code: string;
  verifier: string;
}

/** A new user of the public client 'spa', signed in through a browser (SSO cookie), with its tokens. */
export async function issueSpaTokens(ward: TestWard, scope = 'openid profile email'): Promise<Issued> {
  const { code, verifier, user, browser } = await codeFor(ward, { scope });
  const { res, body } = await redeem(ward, code, verifier);
  assert.equal(res.status, 200, JSON.stringify(body));
  return {
    access_token: body.access_token!,
    id_token: body.id_token!,
    refresh_token: body.refresh_token,
    user,
    browser,
    code,
    verifier,
  };
}

/** The same for the confidential HS256 client 'backend' (client_secret_basic). */
export async function issueBackendTokens(
  ward: TestWard,
): Promise<{ access_token: string; id_token: string; user: { id: string } }> {
  const { code, user } = await codeFor(ward, {
    clientId: 'backend',
    redirectUri: 'https://api.example/cb',
    pkce: false,
  });
  const res = await tokenRequest(
    ward,
    { grant_type: 'authorization_code', code, redirect_uri: 'https://api.example/cb' },
    { authorization: basic('backend', CONFIDENTIAL_SECRET) },
  );
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, string>;
  return { access_token: body.access_token!, id_token: body.id_token!, user };
}

export const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export function userinfo(ward: TestWard, authorization?: string): Promise<Response> {
  return ward.fetch('/identity/v1/userinfo', { headers: authorization === undefined ? {} : { authorization } });
}

export const INVALID_TOKEN_BODY = {
  error: 'invalid_token',
  error_description: 'The access token is missing, invalid, expired or revoked',
  error_user_msg: 'The access token is missing, invalid, expired or revoked',
  error_message_key: 'error.invalidToken',
};

/** The one answer to any refused Bearer credential: 401, the exact JSON body, WWW-Authenticate, no-store. */
export async function assertRefused(
  res: Response,
  what: string,
  challenge = 'Bearer realm="ward", error="invalid_token"',
): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 401, `${what}: ${res.status} ${text}`);
  assert.deepEqual(JSON.parse(text), INVALID_TOKEN_BODY, what);
  assert.equal(res.headers.get('www-authenticate'), challenge, what);
  assert.equal(res.headers.get('cache-control'), 'no-store', what);
}

export async function assertAccepted(ward: TestWard, accessToken: string, sub: string): Promise<void> {
  const res = await userinfo(ward, `Bearer ${accessToken}`);
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { sub: string }).sub, sub);
}

/** Opens the hosted login page for 'spa' in `browser`: its CSRF token and the interaction to post back. */
export async function openLoginPage(_ward: TestWard, browser: Browser, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const res = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid profile email',
      state: 'st-login',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    }),
  );
  assert.equal(res.status, 200);
  const html = await res.text();
  const field = (name: string) => {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    assert.ok(m, `no ${name} field in the login page`);
    return m[1]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  };
  return {
    csrf: field('csrf'),
    interaction: field('interaction'),
    verifier: pkce.verifier,
    setCookies: res.headers.getSetCookie(),
  };
}

/** Posts the hosted login form from Ward's own origin (as the browser would). */
export function postLogin(
  ward: TestWard,
  browser: Browser,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return browser.postForm('/oauth/authorize/login', form, { origin: ward.url, ...headers });
}

/** The value of one cookie in a response's Set-Cookie headers, with its attribute string. */
export function setCookie(res: Response, name: string): { value: string; raw: string } | undefined {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!raw) return undefined;
  return { value: raw.slice(name.length + 1).split(';')[0]!, raw };
}

export const SSO = '__Host-ward_sso';
export const CSRF = '__Host-ward_csrf';

import { createHash, randomBytes } from 'node:crypto';
import type { Response } from 'undici';
import { Browser } from './browser.js';
import type { TestWard } from './ward.js';

export const PUBLIC_CLIENT = {
  client_id: 'spa',
  name: 'Shop SPA',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://app.example/cb', 'https://app.example/other'],
  allowed_origins: ['https://app.example'],
  sso: true,
};
export const CONFIDENTIAL_SECRET = 'a-confidential-secret-of-at-least-32-bytes!';
export const CONFIDENTIAL_CLIENT = {
  client_id: 'backend',
  name: 'Shop backend',
  type: 'confidential',
  client_secret: CONFIDENTIAL_SECRET,
  jwt_algorithm: 'HS256',
  allowed_callback_urls: ['https://api.example/cb'],
};

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

let n = 0;
export async function signup(
  ward: TestWard,
  clientId = 'spa',
  extra: Record<string, unknown> = {},
  /** Fields of the request beside `data` (a captcha_token, say). */
  request: Record<string, unknown> = {},
): Promise<{ id: string; email: string; password: string; tkn: string }> {
  const email = `user${++n}-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const res = await ward.fetch('/identity/v1/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      scope: 'openid profile email',
      data: { email, password, given_name: 'Ada', family_name: 'Lovelace', ...extra },
      ...request,
    }),
  });
  if (res.status !== 200) throw new Error(`signup ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { id: string; tkn: string };
  return { id: body.id, email, password, tkn: body.tkn };
}

export async function passwordLogin(
  ward: TestWard,
  email: string,
  password: string,
  clientId = 'spa',
  scope = 'openid profile email',
): Promise<string> {
  const res = await ward.fetch('/identity/v1/password/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, scope, email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${res.status} ${await res.text()}`);
  return ((await res.json()) as { tkn: string }).tkn;
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

/** /oauth/authorize for the public client's code flow with PKCE (`challenge`), with `extra` parameters. */
export function spaAuthorizeUrl(challenge: string, extra: Record<string, string | undefined> = {}): string {
  return authorizeUrl({
    client_id: PUBLIC_CLIENT.client_id,
    response_type: 'code',
    redirect_uri: PUBLIC_CLIENT.allowed_callback_urls[0],
    scope: 'openid',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
}

export function location(res: Response): URL {
  const loc = res.headers.get('location');
  if (!loc) throw new Error(`no Location (status ${res.status})`);
  return new URL(loc);
}

/** Signs a new user up and runs the code flow with a tkn: returns the code and its PKCE verifier. */
export async function codeFor(
  ward: TestWard,
  opts: {
    clientId?: string;
    redirectUri?: string;
    scope?: string;
    nonce?: string;
    pkce?: boolean;
    browser?: Browser;
    /** More authorization parameters (e.g. resource). */
    extra?: Record<string, string>;
  } = {},
) {
  const clientId = opts.clientId ?? 'spa';
  const user = await signup(ward, clientId);
  // The password login knows only Ward's scopes; an API resource's are asked at /oauth/authorize.
  const loginScope = opts.extra?.resource ? 'openid' : (opts.scope ?? 'openid profile email');
  const tkn = await passwordLogin(ward, user.email, user.password, clientId, loginScope);
  const pkce = pkcePair();
  const browser = opts.browser ?? new Browser(ward);
  const res = await browser.get(
    authorizeUrl({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: opts.redirectUri ?? 'https://app.example/cb',
      scope: opts.scope ?? 'openid profile email',
      state: 'st-1',
      nonce: opts.nonce,
      tkn,
      ...opts.extra,
      ...(opts.pkce === false ? {} : { code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
    }),
  );
  if (res.status !== 302) throw new Error(`authorize ${res.status} ${await res.text()}`);
  const loc = location(res);
  const code = loc.searchParams.get('code');
  if (!code) throw new Error(`no code in ${loc.toString()}`);
  return { code, verifier: pkce.verifier, user, browser, location: loc };
}

export async function tokenRequest(
  ward: TestWard,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return ward.fetch('/oauth/token', {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

export async function redeem(
  ward: TestWard,
  code: string,
  verifier: string,
  clientId = 'spa',
  redirectUri = 'https://app.example/cb',
) {
  const res = await tokenRequest(ward, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  return { res, body: (await res.json()) as Record<string, string> };
}

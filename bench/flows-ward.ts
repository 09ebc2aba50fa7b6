// Ward's scripted flows (B4-B9) and the setup that gives them users, SSO sessions, refresh tokens,
// verified email factors and live challenges. Every user is made through the public API (signup,
// the hosted login page, factor registration with the code read from the SMTP sink).
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import type { Flow, Ctx } from './flow.js';
import { type Pool, runOnce } from './flow.js';
import {
  codeFromLocation,
  cookieHeader,
  form,
  FORM,
  header,
  hiddenField,
  json,
  keepCookies,
  nextPkce,
  send,
  type Jar,
  type Req,
} from './http.js';
import type { Sink } from './smtp.js';

export const SPA = 'bench-spa';
/** B4e's client: bench-spa's twin signing with ES256, made through the management API (ensureEs256Client). */
export const SPA_ES = 'bench-spa-es';
export const REDIRECT = 'https://app.example/cb';
export const SCOPE = 'openid profile email';
export const PASSWORD = 'bench-password-0123';

export interface WardUser {
  id: string;
  email: string;
  jar: Jar;
  accessToken: string;
}
export interface RefreshState {
  rt: string;
}
export const JSONH = { 'content-type': 'application/json' };

const authorizePath = (scope: string, challenge: string, client = SPA, resource?: string) =>
  '/oauth/authorize?' +
  form({
    client_id: client,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    state: 'bench',
    nonce: 'n-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(resource ? { resource } : {}),
  });

export const tokenStep = (path: string, client = SPA) => ({
  name: 'token',
  expect: [200],
  build: (c: Ctx): Req => ({
    method: 'POST',
    path,
    headers: { 'content-type': FORM },
    body: form({
      grant_type: 'authorization_code',
      code: c.code,
      client_id: client,
      redirect_uri: REDIRECT,
      code_verifier: c.p.verifier,
    }),
  }),
  after: (r: { body: string }, c: Ctx) => {
    if (c.keep) c.tokens = json(r.body);
    return r.body.includes('"id_token"');
  },
});

const pick = <T>(list: T[]) => {
  let i = 0;
  return () => list[i++ % list.length]!;
};

/** B6: GET /oauth/authorize (login page) → POST /oauth/authorize/login (argon2id) → 303 with the code → token. */
export function wardLogin(users: WardUser[], scope = SCOPE): Flow {
  const next = pick(users);
  return {
    name: 'ward-login',
    begin: (c) => {
      c.u ??= next();
      c.p = nextPkce();
      c.jar = {};
      return true;
    },
    steps: [
      {
        name: 'authorize',
        expect: [200],
        build: (c) => ({ method: 'GET', path: authorizePath(scope, c.p.challenge), headers: {} }),
        after: (r, c) => {
          keepCookies(c.jar, r.headers);
          // The stored interaction's handle (before it, the raw request: `--ref` may run an older src/).
          c.formName = hiddenField(r.body, 'interaction') ? 'interaction' : 'request';
          c.request = hiddenField(r.body, c.formName);
          c.csrf = hiddenField(r.body, 'csrf');
          return !!(c.request && c.csrf);
        },
      },
      {
        name: 'login',
        expect: [303],
        build: (c) => ({
          method: 'POST',
          path: '/oauth/authorize/login',
          headers: { 'content-type': FORM, cookie: cookieHeader(c.jar) },
          body: form({ [c.formName]: c.request, csrf: c.csrf, email: c.u.email, password: PASSWORD }),
        }),
        after: (r, c) => {
          keepCookies(c.jar, r.headers);
          c.code = codeFromLocation(header(r.headers, 'location'));
          return !!c.code;
        },
      },
      tokenStep('/oauth/token'),
    ],
  };
}

/** B5: GET /oauth/authorize with the SSO cookie → 302 with the code → token (no password check). */
export function wardSso(users: WardUser[], scope = SCOPE, client = SPA, resource?: string): Flow {
  const next = pick(users);
  return {
    name: 'ward-sso',
    begin: (c) => {
      c.u ??= next();
      c.p = nextPkce();
      return true;
    },
    steps: [
      {
        name: 'authorize',
        expect: [302, 303],
        build: (c) => ({
          method: 'GET',
          path: authorizePath(scope, c.p.challenge, client, resource),
          headers: { cookie: cookieHeader(c.u.jar) },
        }),
        after: (r, c) => !!(c.code = codeFromLocation(header(r.headers, 'location'))),
      },
      tokenStep('/oauth/token', client),
    ],
  };
}

/**
 * B4d's DPoP proofs (RFC 9449) for POST `url`/oauth/token, ES256, a fresh jti each: made before the run
 * by node:crypto, so the load generator signs nothing while Ward is measured (`next` signs one more
 * only when they run out).
 */
export function dpopProofs(url: string, count: number): { next(): string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const header = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } });
  const make = () => {
    const input = `${header}.${b64({ jti: randomUUID(), htm: 'POST', htu: `${url}/oauth/token`, iat: Math.floor(Date.now() / 1000) })}`;
    return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  const made = Array.from({ length: count }, make);
  return { next: () => made.pop() ?? make() };
}

/** B4 (both servers: only the path differs): one refresh_token grant, the rotated token kept for the next. */
export function refreshFlow(
  path: string,
  pool: Pool<RefreshState>,
  client = SPA,
  dpop?: { next(): string },
  jwt = false,
): Flow {
  return {
    name: dpop ? 'refresh-dpop' : jwt ? 'refresh-jwt' : 'refresh',
    begin: (c) => !!(c.s = pool.acquire()),
    end: (c, ok) => (ok ? pool.release(c.s) : pool.drop(c.s)),
    steps: [
      {
        name: 'refresh',
        expect: [200],
        build: (c) => ({
          method: 'POST',
          path,
          headers: { 'content-type': FORM, ...(dpop ? { dpop: dpop.next() } : {}) },
          body: form({ grant_type: 'refresh_token', refresh_token: c.s.rt, client_id: client }),
        }),
        after: (r, c) => {
          const m = /"refresh_token":"([^"]+)"/.exec(r.body);
          if (m) c.s.rt = m[1];
          return (
            !!m &&
            r.body.includes('"id_token"') &&
            (!dpop || r.body.includes('"token_type":"DPoP"')) &&
            // A JWT access token (RFC 9068) starts with its header; a sealed one does not.
            (!jwt || r.body.includes('"access_token":"eyJ'))
          );
        },
      },
    ],
  };
}

/** B7: POST /identity/v1/password/login (argon2id) answering a tkn. */
export function wardPasswordLogin(users: WardUser[]): Flow {
  const next = pick(users);
  return {
    name: 'ward-password-login',
    steps: [
      {
        name: 'login',
        expect: [200],
        after: (r) => r.body.includes('"tkn"'),
        build: () => ({
          method: 'POST',
          path: '/identity/v1/password/login',
          headers: JSONH,
          body: JSON.stringify({ client_id: SPA, scope: SCOPE, email: next().email, password: PASSWORD }),
        }),
      },
    ],
  };
}

/** B8: a wrong code against live step-up challenges, spread over users (see README: failure window). */
export function wardVerifyWrong(challenges: Array<{ id: string; wrong: string }>): Flow {
  const next = pick(challenges);
  return {
    name: 'ward-verify-wrong',
    steps: [
      {
        name: 'verify',
        expect: [400],
        build: () => {
          const ch = next();
          return {
            method: 'POST',
            path: '/identity/v1/passwordless/verify',
            headers: JSONH,
            body: JSON.stringify({ challenge_id: ch.id, verification_code: ch.wrong }),
          };
        },
      },
    ],
  };
}

export const stepUpStep = {
  name: 'stepup',
  expect: [200],
  build: (c: Ctx): Req => ({
    method: 'POST',
    path: '/identity/v1/mfa/stepup',
    headers: { ...JSONH, authorization: `Bearer ${c.u.accessToken}` },
    body: JSON.stringify({
      client_id: SPA,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: SCOPE,
      state: 'bench',
      code_challenge: c.p.challenge,
      code_challenge_method: 'S256',
    }),
  }),
  after: (r: { body: string }, c: Ctx) => !!(c.su = (json(r.body) as { token?: string }).token),
};
const startStep = (sink: Sink) => ({
  name: 'start',
  expect: [200],
  build: (c: Ctx): Req => ({
    method: 'POST',
    path: '/identity/v1/passwordless/start',
    headers: JSONH,
    body: JSON.stringify({ auth_type: 'email', step_up: c.su }),
  }),
  after: (r: { body: string }, c: Ctx) => {
    c.cid = (json(r.body) as { challenge_id?: string }).challenge_id;
    const l = sink.latest(c.u.email);
    if (!c.cid || !l || l.n <= c.n0) return false;
    c.vc = l.code;
    return true;
  },
});

/** B9: stepup (Bearer) → passwordless/start (email through SMTP) → verify with the delivered code → token. */
export function wardStepUp(pool: Pool<WardUser>, sink: Sink): Flow {
  return {
    name: 'ward-stepup',
    begin: (c) => {
      if (!(c.u = pool.acquire())) return false;
      c.p = nextPkce();
      c.n0 = sink.latest(c.u.email)?.n ?? 0;
      return true;
    },
    end: (c) => pool.release(c.u),
    steps: [
      stepUpStep,
      startStep(sink),
      {
        name: 'verify',
        expect: [200],
        build: (c) => ({
          method: 'POST',
          path: '/identity/v1/passwordless/verify',
          headers: JSONH,
          body: JSON.stringify({ challenge_id: c.cid, verification_code: c.vc }),
        }),
        after: (r, c) => !!(c.code = (json(r.body) as { code?: string }).code),
      },
      tokenStep('/oauth/token'),
    ],
  };
}

export async function pmap<T, R>(items: T[], limit: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** Users made through the API: signup, a hosted login (SSO cookie + access token), a verified email factor. */
export async function makeWardUsers(url: string, sink: Sink, n: number, tag: string): Promise<WardUser[]> {
  return pmap(
    Array.from({ length: n }, (_, i) => i),
    4,
    async (i) => {
      const email = `bench-${tag}-${i}@example.com`;
      const s = await send(url, {
        method: 'POST',
        path: '/identity/v1/signup',
        headers: JSONH,
        body: JSON.stringify({
          client_id: SPA,
          scope: SCOPE,
          data: { email, password: PASSWORD, given_name: 'Ada', family_name: 'Lovelace' },
        }),
      });
      if (s.status !== 200) throw new Error(`signup ${s.status} ${s.body}`);
      const u: WardUser = { id: json<{ id: string }>(s.body).id, email, jar: {}, accessToken: '' };
      const c = await runOnce(url, wardLogin([u]), { u, keep: true });
      u.jar = c.jar;
      u.accessToken = c.tokens.access_token;
      const bearer = { ...JSONH, authorization: `Bearer ${u.accessToken}` };
      const n0 = sink.latest(email)?.n ?? 0;
      const reg = await send(url, {
        method: 'POST',
        path: '/identity/v1/mfa/credentials/emails',
        headers: bearer,
        body: '{}',
      });
      if (reg.status !== 200) throw new Error(`factor registration ${reg.status} ${reg.body}`);
      const code = await sink.waitFor(email, n0);
      const ok = await send(url, {
        method: 'POST',
        path: '/identity/v1/mfa/credentials/emails/verify',
        headers: bearer,
        body: JSON.stringify({ verification_code: code }),
      });
      if (ok.status !== 204) throw new Error(`factor verification ${ok.status} ${ok.body}`);
      return u;
    },
  );
}

/** Refresh-token families (offline_access) minted from the users' SSO sessions. */
export async function mintWardRefresh(
  url: string,
  users: WardUser[],
  n: number,
  client = SPA,
  api?: { resource: string; scope: string },
): Promise<RefreshState[]> {
  const scope = `${SCOPE} offline_access${api ? ` ${api.scope}` : ''}`;
  return pmap(
    Array.from({ length: n }, (_, i) => users[i % users.length]!),
    4,
    async (u) => {
      const c = await runOnce(url, wardSso([u], scope, client, api?.resource), { u, keep: true });
      return { rt: c.tokens.refresh_token as string };
    },
  );
}

/** One live step-up challenge per user (its code delivered to the sink), and a code that is wrong for it. */
export async function wardChallenges(
  url: string,
  users: WardUser[],
  sink: Sink,
): Promise<Array<{ id: string; wrong: string }>> {
  return pmap(users, 4, async (u) => {
    const c: Ctx = { u, p: nextPkce(), n0: sink.latest(u.email)?.n ?? 0 };
    for (const step of [stepUpStep, startStep(sink)]) {
      const r = await send(url, step.build(c));
      if (r.status !== 200 || !step.after(r, c)) throw new Error(`challenge setup ${step.name} ${r.status} ${r.body}`);
    }
    return {
      id: c.cid as string,
      wrong: String((Number(c.vc) + 1) % 10 ** String(c.vc).length).padStart(String(c.vc).length, '0'),
    };
  });
}

/** The management API's headers for bench-admin with `scope` (client_credentials); `what` names the setup. */
export async function adminHeaders(
  url: string,
  adminSecret: string,
  scope: string,
  what: string,
): Promise<Record<string, string>> {
  const token = await send(url, {
    method: 'POST',
    path: '/oauth/token',
    headers: {
      'content-type': FORM,
      authorization: `Basic ${Buffer.from(`bench-admin:${adminSecret}`).toString('base64')}`,
    },
    body: form({ grant_type: 'client_credentials', scope }),
  });
  if (token.status !== 200) throw new Error(`${what} setup: management token ${token.status} ${token.body}`);
  return { ...JSONH, authorization: `Bearer ${json<{ access_token: string }>(token.body).access_token}` };
}

/** POSTs `body` to a management API `path` as bench-admin; 201, or 409 (made by an earlier run), is fine. */
async function ensureMade(url: string, adminSecret: string, what: string, path: string, body: object): Promise<void> {
  const headers = await adminHeaders(url, adminSecret, 'manage:clients', what);
  const created = await send(url, { method: 'POST', path, headers, body: JSON.stringify(body) });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`${what} setup: POST ${path} ${created.status} ${created.body}`);
}

/**
 * B4e's ES256 client, created through the management API (not in the config file, so `--ref` can
 * still start a Ward that predates ES256: only B4e then fails, loudly). Idempotent: 409 is fine.
 */
export const ensureEs256Client = (url: string, adminSecret: string): Promise<void> =>
  ensureMade(url, adminSecret, 'B4e', '/api/v1/clients', {
    client_id: SPA_ES,
    name: 'Bench SPA (ES256)',
    type: 'public',
    jwt_algorithm: 'ES256',
    allowed_callback_urls: [REDIRECT],
    allowed_origins: ['https://app.example'],
    sso: true,
  });

/** B4j's API resource (RFC 8707) with JWT access tokens (RFC 9068), made through the management API. Idempotent. */
export const BENCH_API = { resource: 'https://api.bench.example', scope: 'orders:read' };
export const ensureJwtResource = (url: string, adminSecret: string): Promise<void> =>
  ensureMade(url, adminSecret, 'B4j', '/api/v1/resources', {
    identifier: BENCH_API.resource,
    name: 'Bench API',
    scopes: [BENCH_API.scope],
    token_format: 'jwt',
  });

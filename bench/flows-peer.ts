// The peer's scripted flows (oidc-provider 8.8.1, see peer.ts) and their setup, shaped like Ward's:
// B6 = GET /auth (303 to the interaction) → POST /interaction/:uid/login (argon2id) → GET the resume
// URL (303 with the code) → token; B5 = GET /auth with the session cookie (303 with the code) → token.
import { Pool, runOnce, type Ctx, type Flow } from './flow.js';
import {
  codeFromLocation,
  cookieHeader,
  form,
  FORM,
  header,
  json,
  keepCookies,
  nextPkce,
  pathOf,
  type Jar,
  type Req,
} from './http.js';
import { PASSWORD, pmap, REDIRECT, SCOPE, SPA, refreshFlow, type RefreshState } from './flows-ward.js';

export interface PeerUser {
  email: string;
  jar: Jar;
}

const authPath = (scope: string, challenge: string, prompt?: string) =>
  '/auth?' +
  form({
    client_id: SPA,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    state: 'bench',
    nonce: 'n-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(prompt ? { prompt } : {}),
  });

const get = (path: string, c: Ctx): Req => ({ method: 'GET', path, headers: { cookie: cookieHeader(c.jar) } });
const redirectTo = (key: string) => (r: { headers: Record<string, string | string[]> }, c: Ctx) => {
  keepCookies(c.jar, r.headers);
  const loc = header(r.headers, 'location');
  if (!loc) return false;
  c[key] = pathOf(loc);
  return true;
};
const codeStep = {
  name: 'resume',
  expect: [303],
  build: (c: Ctx) => get(c.resume, c),
  after: (r: { headers: Record<string, string | string[]> }, c: Ctx) => {
    keepCookies(c.jar, r.headers);
    return !!(c.code = codeFromLocation(header(r.headers, 'location')));
  },
};
const tokenStep = {
  name: 'token',
  expect: [200],
  build: (c: Ctx): Req => ({
    method: 'POST',
    path: '/token',
    headers: { 'content-type': FORM },
    body: form({
      grant_type: 'authorization_code',
      code: c.code,
      client_id: SPA,
      redirect_uri: REDIRECT,
      code_verifier: c.p.verifier,
    }),
  }),
  after: (r: { body: string }, c: Ctx) => {
    if (c.keep) c.tokens = json(r.body);
    return r.body.includes('"id_token"');
  },
};

/** B6 on the peer. */
export function peerLogin(users: PeerUser[], scope = SCOPE): Flow {
  let i = 0;
  return {
    name: 'peer-login',
    begin: (c) => {
      c.u ??= users[i++ % users.length];
      c.p = nextPkce();
      c.jar = {};
      return true;
    },
    steps: [
      {
        name: 'authorize',
        expect: [303],
        build: (c) => get(authPath(scope, c.p.challenge), c),
        after: redirectTo('interaction'),
      },
      {
        name: 'login',
        expect: [303],
        build: (c) => ({
          method: 'POST',
          path: `${c.interaction}/login`,
          headers: { 'content-type': FORM, cookie: cookieHeader(c.jar) },
          body: form({ email: c.u.email, password: PASSWORD }),
        }),
        after: redirectTo('resume'),
      },
      codeStep,
      tokenStep,
    ],
  };
}

/** B5 on the peer: the session and its grant already exist, so /auth answers the code at once. */
export function peerSso(users: PeerUser[]): Flow {
  let i = 0;
  return {
    name: 'peer-sso',
    begin: (c) => {
      c.u = users[i++ % users.length];
      c.p = nextPkce();
      c.jar = { ...c.u.jar };
      return true;
    },
    steps: [
      {
        name: 'authorize',
        expect: [303],
        build: (c) => get(authPath(SCOPE, c.p.challenge), c),
        after: (r, c) => !!(c.code = codeFromLocation(header(r.headers, 'location'))),
      },
      tokenStep,
    ],
  };
}

export const peerRefresh = (pool: Pool<RefreshState>) => refreshFlow('/token', pool);

/** Sessions for the peer's users: one password login each (the cookies kept in the user's jar). */
export async function makePeerUsers(url: string, emails: string[]): Promise<PeerUser[]> {
  return pmap(emails, 4, async (email) => {
    const u: PeerUser = { email, jar: {} };
    const c = await runOnce(url, peerLogin([u]), { u });
    u.jar = c.jar;
    return u;
  });
}

/** offline_access needs prompt=consent on the peer: consent (no password) from the session, then the code. */
export async function mintPeerRefresh(url: string, users: PeerUser[], n: number): Promise<RefreshState[]> {
  const flow: Flow = {
    name: 'peer-consent',
    steps: [
      {
        name: 'authorize',
        expect: [303],
        build: (c) => get(authPath(`${SCOPE} offline_access`, c.p.challenge, 'consent'), c),
        after: redirectTo('interaction'),
      },
      {
        name: 'consent',
        expect: [303],
        build: (c) => ({
          method: 'POST',
          path: `${c.interaction}/consent`,
          headers: { 'content-type': FORM, cookie: cookieHeader(c.jar) },
          body: '',
        }),
        after: redirectTo('resume'),
      },
      codeStep,
      tokenStep,
    ],
  };
  // A consent rotates the session cookie: each user's mints run one after the other, keeping the new one.
  const perUser = users.map((u, k) => ({ u, count: Math.floor(n / users.length) + (k < n % users.length ? 1 : 0) }));
  const out = await pmap(perUser, 4, async ({ u, count }) => {
    const rts: RefreshState[] = [];
    for (let i = 0; i < count; i++) {
      const c = await runOnce(url, flow, { u, p: nextPkce(), jar: { ...u.jar }, keep: true });
      if (!c.tokens.refresh_token) throw new Error(`the peer issued no refresh token: ${JSON.stringify(c.tokens)}`);
      for (const k of Object.keys(c.jar)) if (k.startsWith('_session')) u.jar[k] = c.jar[k];
      rts.push({ rt: c.tokens.refresh_token as string });
    }
    return rts;
  });
  return out.flat();
}

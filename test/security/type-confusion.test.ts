// LG-04 (type confusion): every public JSON / form endpoint answers a wrongly typed field with a
// clear 4xx JSON error (error_message_key, no internals), never a 500, a crash or a hang. Field by
// field, a valid-looking body gets each of null, true, numbers (1e309 and 1e999 parse to Infinity),
// arrays (one nested 5,000 deep), objects (a {"$ne":""} operator too), "", a 10,000-character
// string, a string with a NUL and an unpaired surrogate, and the valid value with a NUL appended;
// the whole body is also sent as [], a string, a number, null, with every field twice and with
// unknown fields. /oauth/token and /oauth/revoke get the same as forms (repeated, empty, bare,
// %00 and malformed-percent values); a few path parameters and query strings get NULs too. Real
// credentials (Bearer, step_up token, SSO and CSRF cookies) are set up first, so the sweep reaches
// each handler's own parsing. The hosted pages (login, MFA, consent, link) and /oauth/authorize
// answer HTML by contract: for them the rule is "never 5xx, nothing internal". A 2xx answer is no
// failure (an unknown field is ignored; a wrong-typed optional one may be): those are listed as
// diagnostics. Runs on SQLite, and on PostgreSQL too when WARD_TEST_DATABASE_URL is set, whose text
// type cannot hold a NUL: that is where a NUL reaching a query used to answer 500.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { CONFIDENTIAL_CLIENT, PUBLIC_CLIENT, authorizeUrl, codeFor, location, pkcePair, redeem } from '../helpers/oauth.js';
import { INTERNALS, NO_RATE_LIMITS, openLoginPage } from './support.js';

/** For HTML pages (which may name a script file): only what a leaked error would look like. */
const HTML_INTERNALS = /\bat [\w.<>]+ \(|node_modules|sqlite|kysely|SyntaxError|Unexpected token|JSON at position|FST_|TypeError|ReferenceError|RangeError/i;
const CLEAR_4XX = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429]);

const OPS_SECRET = 'an-ops-secret-of-at-least-32-bytes-long!!';
const OPS_CLIENT = { client_id: 'ops', type: 'confidential', client_secret: OPS_SECRET, grant_types: ['client_credentials'], management_scopes: ['read:clients'] };

/** The wrong-typed values, as JSON text (1e309 and 1e999 are Infinity once parsed). */
const JSON_VALUES: Array<[string, string]> = [
  ['null', 'null'],
  ['true', 'true'],
  ['12345', '12345'],
  ['-1', '-1'],
  ['1e309', '1e309'],
  ['1e999', '1e999'],
  ['[]', '[]'],
  ['["a","b"]', '["a","b"]'],
  ['{}', '{}'],
  ['{"$ne":""}', '{"$ne":""}'],
  ['""', '""'],
  ['10,000-character string', JSON.stringify('x'.repeat(10_000))],
  ['NUL and unpaired surrogate', '"a\\u0000b\\ud800c"'],
  ['array nested 5,000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`],
];

/** The same ideas for a form field (raw, already encoded): `k` is the encoded field name. */
const FORM_VALUES: Array<[string, (k: string) => string]> = [
  ['empty', (k) => `${k}=`],
  ['bare name', (k) => k],
  ['repeated', (k) => `${k}=a&${k}=b`],
  ['bracket operator', (k) => `${k}[$ne]=`],
  ['null', (k) => `${k}=null`],
  ['12345', (k) => `${k}=12345`],
  ['1e999', (k) => `${k}=1e999`],
  ['[] {}', (k) => `${k}=%5B%5D%7B%7D`],
  ['10,000 characters', (k) => `${k}=${'x'.repeat(10_000)}`],
  ['NUL', (k) => `${k}=a%00b`],
  ['unpaired surrogate as UTF-8', (k) => `${k}=a%ED%A0%80b`],
  ['malformed percent', (k) => `${k}=%E0%A4%A&x=%`],
  ['lone percent', (k) => `${k}=%`],
];

/**
 * On PostgreSQL the sweep keeps only the values that arrive as strings: the others are refused (or
 * ignored) in JavaScript the same way on either engine, while a string may reach the database, whose
 * text type cannot hold a NUL (SQLite's can).
 */
const STRING_VALUES = new Set(['""', '10,000-character string', 'NUL and unpaired surrogate', 'empty', '10,000 characters', 'NUL', 'unpaired surrogate as UTF-8', 'malformed percent', 'lone percent']);

type Body = Record<string, unknown>;

interface Target {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** A fresh valid-looking body (may mint a code). */
  body: (field?: string) => Body | Promise<Body>;
  /** The fields to confuse, dotted for nested ones (data.email). */
  fields: string[];
  headers?: () => Record<string, string>;
  /** Sent with this browser's cookies (and its jar keeps what comes back). */
  browser?: Browser;
  encodings?: Array<'json' | 'form'>;
  /** A hosted page: HTML answers are the contract. */
  html?: boolean;
  /** Sees every answer (e.g. to follow a rotated refresh token). */
  onAnswer?: (status: number, text: string) => void;
}

const SENTINEL = '\u0001type-confusion\u0001';

function withValue(body: Body, field: string, raw: string): string {
  const copy = structuredClone(body);
  const path = field.split('.');
  let at: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[path[path.length - 1]!] = SENTINEL;
  return JSON.stringify(copy).replace(JSON.stringify(SENTINEL), () => raw);
}

function formWithout(body: Body, field: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) if (k !== field) q.append(k, String(v));
  return q.toString();
}

const joinForm = (...parts: string[]) => parts.filter(Boolean).join('&');

/** Whole-body shapes, as JSON text, from a valid body. */
function jsonShapes(body: Body): Array<[string, string]> {
  const pairs = Object.entries(body).map(([k, v]) => [JSON.stringify(k), JSON.stringify(v)] as const);
  return [
    ['body []', '[]'],
    ['body "string"', '"string"'],
    ['body 123', '123'],
    ['body null', 'null'],
    ['body {}', '{}'],
    ['body with unknown fields', JSON.stringify({ ...body, zz_unknown: { a: [1, { b: null }] }, '': 1, 'a.b': true, $where: '1' })],
    ['every field twice', `{${pairs.map(([k, v]) => `${k}:${v},${k}:${v}`).join(',')}}`],
    ['every field twice, then {"$ne":""}', `{${pairs.map(([k, v]) => `${k}:${v},${k}:{"$ne":""}`).join(',')}}`],
  ];
}

function formShapes(body: Body): Array<[string, string]> {
  const valid = formWithout(body, '');
  return [
    ['empty form', ''],
    ['form of garbage', '%%%&&&==='],
    ['every field twice', joinForm(valid, valid)],
    ['form with unknown fields', joinForm(valid, 'zz_unknown=1&%5B%5D=2&=3')],
  ];
}

for (const engine of engines()) describe(`LG-04: type confusion on the public endpoints (${engine})`, () => {
  let m: MfaWard;
  let sent = 0;
  let started = 0;
  let minted = 0;
  /** Requests answered 2xx/3xx (an ignored unknown or optional field): diagnostics, not failures. */
  const accepted: string[] = [];

  // Credentials, set up once.
  let ssoBrowser: Browser; // a browser with an SSO session (mints codes without a password)
  let stepper: { access: string; email: string; password: string }; // has a verified email factor
  let stepUpToken: string;
  let challengeId: string;
  let emailReg: { access: string }; // a pending email registration
  let phoneReg: { access: string }; // a pending SMS registration
  let plain: { access: string; email: string; password: string }; // no factors
  let refreshToken: string;
  let revocable: string;
  let hosted: { browser: Browser; csrf: string; request: string };

  async function tokensFor(scope = 'openid profile email') {
    const { code, verifier, user, browser } = await codeFor(m.ward, { scope });
    const { res, body } = await redeem(m.ward, code, verifier);
    assert.equal(res.status, 200, JSON.stringify(body));
    return { access: body.access_token!, refresh: body.refresh_token, email: user.email, password: user.password, id: user.id, browser };
  }

  /** A fresh authorization code of 'spa' from the SSO session, with its verifier. */
  async function mintCode(): Promise<{ code: string; verifier: string }> {
    const pkce = pkcePair();
    minted++;
    const res = await ssoBrowser.get(authorizeUrl({
      client_id: 'spa', response_type: 'code', redirect_uri: 'https://app.example/cb', scope: 'openid', code_challenge: pkce.challenge, code_challenge_method: 'S256',
    }));
    const code = location(res).searchParams.get('code');
    assert.ok(code, `no code: ${res.headers.get('location')}`);
    return { code, verifier: pkce.verifier };
  }

  const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

  before(async () => {
    started = Date.now();
    m = await startMfaWard({
      engine,
      clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, OPS_CLIENT],
      account: {
        ...NO_RATE_LIMITS,
        // Wrong codes are the point here: keep the per-user lockouts out of the way (their 429 is fine, but hides the parsing).
        verification_failures_per_user: { limit: 100, window_seconds: 3600 },
        verification_requests_per_step_up: 100,
        verification_requests_per_user: { limit: 10_000, window_seconds: 3600 },
      },
    });
    const s = await tokensFor();
    await giveFactors(m.ward, s.id, { email: s.email });
    stepper = s;
    ssoBrowser = s.browser;
    const su = await post('/identity/v1/mfa/stepup', JSON.stringify(stepUpBody()), bearer(stepper.access));
    assert.equal(su.status, 200, await su.clone().text());
    stepUpToken = ((await su.json()) as { token: string }).token;
    const st = await post('/identity/v1/passwordless/start', JSON.stringify({ step_up: stepUpToken, auth_type: 'email' }));
    assert.equal(st.status, 200, await st.clone().text());
    challengeId = ((await st.json()) as { challenge_id: string }).challenge_id;

    emailReg = await tokensFor();
    assert.equal((await post('/identity/v1/mfa/credentials/emails', '{}', bearer(emailReg.access))).status, 200);
    phoneReg = await tokensFor();
    assert.equal((await post('/identity/v1/mfa/credentials/phone-numbers', JSON.stringify({ phone_number: '+33612345678' }), bearer(phoneReg.access))).status, 200);
    plain = await tokensFor();
    const r = await tokensFor('openid offline_access');
    assert.ok(r.refresh, 'a refresh token');
    refreshToken = r.refresh!;
    revocable = (await tokensFor()).access;

    const browser = new Browser(m.ward);
    const page = await openLoginPage(m.ward, browser);
    hosted = { browser, csrf: page.csrf, request: page.request };
  });
  after(async () => {
    await m.close();
  });

  function post(path: string, body: string, headers: Record<string, string> = {}, type = 'application/json') {
    return m.ward.fetch(path, { method: 'POST', body, headers: { 'content-type': type, ...headers } });
  }

  const stepUpBody = (): Body => ({
    client_id: 'spa', response_type: 'code', redirect_uri: 'https://app.example/cb', scope: 'openid email', state: 'st-1', nonce: 'n-1',
    code_challenge: pkcePair().challenge, code_challenge_method: 'S256',
  });

  /** Sends one request and checks its answer; a problem is returned as a line, not thrown (all are reported). */
  async function probe(t: Target, body: string, type: string, what: string): Promise<string | null> {
    const method = t.method ?? 'POST';
    const label = `${method} ${t.path.split('?')[0]} ${what}`;
    const headers = { ...(method === 'GET' ? {} : { 'content-type': type }), ...(t.headers?.() ?? {}), ...(t.html ? { origin: m.ward.url } : {}) };
    const init = { method, body: method === 'GET' ? undefined : body, headers, signal: AbortSignal.timeout(15_000) };
    sent++;
    let res: Response;
    try {
      res = t.browser ? await t.browser.request(t.path, init) : await m.ward.fetch(t.path, init);
    } catch (e) {
      return `${label}: no answer (${(e as Error).name}: ${(e as Error).message})`;
    }
    const text = await res.text();
    t.onAnswer?.(res.status, text);
    const ctype = res.headers.get('content-type') ?? '';
    if (res.status >= 500) return `${label}: ${res.status} ${text.slice(0, 300)}`;
    if (t.html && !ctype.startsWith('application/json')) {
      if (HTML_INTERNALS.test(text)) return `${label}: ${res.status} page shows internals`;
      if (res.status < 400) accepted.push(`${label} -> ${res.status}`);
      return null;
    }
    if (res.status < 400) {
      accepted.push(`${label} -> ${res.status}`);
      return null;
    }
    if (!CLEAR_4XX.has(res.status)) return `${label}: unexpected status ${res.status} ${text.slice(0, 200)}`;
    if (!ctype.startsWith('application/json')) return `${label}: ${res.status} with content-type ${ctype}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `${label}: ${res.status} body is not JSON: ${text.slice(0, 200)}`;
    }
    if (typeof (parsed as { error_message_key?: unknown })?.error_message_key !== 'string') return `${label}: ${res.status} no error_message_key: ${text.slice(0, 200)}`;
    if (INTERNALS.test(text)) return `${label}: ${res.status} body shows internals: ${text.slice(0, 300)}`;
    return null;
  }

  /** Sweeps one endpoint; its problems are added to `problems` (each test asserts once, at its end, so one run shows them all). */
  async function sweep(ctx: TestContext, problems: string[], t: Target): Promise<void> {
    const note = (p: string | null) => p && problems.push(p);
    const jsonValues = engine === 'postgres' ? JSON_VALUES.filter(([name]) => STRING_VALUES.has(name)) : JSON_VALUES;
    const formValues = engine === 'postgres' ? FORM_VALUES.filter(([name]) => STRING_VALUES.has(name)) : FORM_VALUES;
    for (const encoding of t.encodings ?? ['json']) {
      if (encoding === 'json') {
        for (const field of t.fields) {
          for (const [name, raw] of jsonValues) note(await probe(t, withValue(await t.body(field), field, raw), 'application/json', `JSON ${field}=${name}`));
          // A well-formed value with a NUL appended (passes a shape check, e.g. an email address).
          const body = await t.body(field);
          const current = field.split('.').reduce<unknown>((o, k) => (o as Body | undefined)?.[k], body);
          if (typeof current === 'string') note(await probe(t, withValue(body, field, JSON.stringify(`${current}\u0000`)), 'application/json', `JSON ${field}=valid value + NUL`));
        }
        for (const [name, raw] of jsonShapes(await t.body())) note(await probe(t, raw, 'application/json', `JSON ${name}`));
      } else {
        const type = 'application/x-www-form-urlencoded';
        for (const field of t.fields) {
          for (const [name, pair] of formValues) {
            note(await probe(t, joinForm(formWithout(await t.body(field), field), pair(encodeURIComponent(field))), type, `form ${field}=${name}`));
          }
          const body = await t.body(field);
          if (typeof body[field] === 'string') note(await probe(t, joinForm(formWithout(body, field), `${encodeURIComponent(field)}=${encodeURIComponent(body[field] as string)}%00`), type, `form ${field}=valid value + NUL`));
        }
        for (const [name, raw] of formShapes(await t.body())) note(await probe(t, raw, type, name));
      }
    }
    ctx.diagnostic(`${t.method ?? 'POST'} ${t.path}: ${sent} requests so far`);
  }

  const assertNone = (problems: string[]) => assert.deepEqual(problems, [], `${problems.length} answers break the rule:\n${problems.join('\n')}`);

  it('signup and password login', async (ctx) => {
    const problems: string[] = [];
    let n = 0;
    await sweep(ctx, problems, {
      path: '/identity/v1/signup',
      body: () => ({ client_id: 'spa', scope: 'openid profile email', data: { email: `tc${++n}-${Date.now()}@example.com`, password: 'correct horse battery', given_name: 'Ada', family_name: 'Lovelace' } }),
      fields: ['client_id', 'scope', 'data', 'data.email', 'data.password', 'data.given_name', 'data.family_name', 'data.phone_number'],
    });
    await sweep(ctx, problems, {
      path: '/identity/v1/password/login',
      body: () => ({ client_id: 'spa', scope: 'openid profile email', email: plain.email, password: plain.password }),
      fields: ['client_id', 'scope', 'email', 'password', 'username', 'phone_number'],
    });
    assertNone(problems);
  });

  it('step-up and passwordless', async (ctx) => {
    const problems: string[] = [];
    await sweep(ctx, problems, {
      path: '/identity/v1/mfa/stepup',
      body: stepUpBody,
      headers: () => bearer(stepper.access),
      fields: ['client_id', 'response_type', 'redirect_uri', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'response_mode', 'prompt', 'max_age', 'id_token_hint', 'tkn', 'action'],
    });
    await sweep(ctx, problems, {
      path: '/identity/v1/passwordless/start',
      body: () => ({ step_up: stepUpToken, auth_type: 'email' }),
      fields: ['step_up', 'auth_type'],
    });
    await sweep(ctx, problems, {
      path: '/identity/v1/passwordless/verify',
      body: () => ({ challenge_id: challengeId, verification_code: '000000', trust_device: true }),
      fields: ['challenge_id', 'verification_code', 'trust_device'],
    });
    assertNone(problems);
  });

  it('MFA credentials, sessions, userinfo, unlink', async (ctx) => {
    const problems: string[] = [];
    await sweep(ctx, problems, { path: '/identity/v1/mfa/credentials/emails/verify', body: () => ({ verification_code: '000000' }), headers: () => bearer(emailReg.access), fields: ['verification_code'] });
    await sweep(ctx, problems, { path: '/identity/v1/mfa/credentials/phone-numbers/verify', body: () => ({ verification_code: '000000' }), headers: () => bearer(phoneReg.access), fields: ['verification_code'] });
    await sweep(ctx, problems, { path: '/identity/v1/mfa/credentials/phone-numbers', body: () => ({ phone_number: '+33612345679' }), headers: () => bearer(phoneReg.access), fields: ['phone_number'] });
    await sweep(ctx, problems, { method: 'DELETE', path: '/identity/v1/mfa/credentials/phone-numbers', body: () => ({ phone_number: '+33612345670' }), headers: () => bearer(plain.access), fields: ['phone_number'] });
    await sweep(ctx, problems, { path: '/identity/v1/mfa/credentials/emails', body: () => ({}), headers: () => bearer(plain.access), fields: [] });
    await sweep(ctx, problems, { method: 'DELETE', path: '/identity/v1/mfa/credentials/emails', body: () => ({}), headers: () => bearer(plain.access), fields: [] });
    await sweep(ctx, problems, { method: 'DELETE', path: '/identity/v1/sessions/others', body: () => ({}), headers: () => bearer(plain.access), fields: [] });
    await sweep(ctx, problems, { path: '/identity/v1/userinfo', body: () => ({}), headers: () => bearer(plain.access), fields: [] });
    await sweep(ctx, problems, { path: '/identity/v1/unlink', body: () => ({ provider: 'corp' }), headers: () => bearer(plain.access), fields: ['identity_id', 'provider'] });
    assertNone(problems);
  });

  it('token endpoint (JSON and form): authorization_code, refresh_token, client_credentials', async (ctx) => {
    const problems: string[] = [];
    const used = { code: 'no-such-code', verifier: pkcePair().verifier };
    await sweep(ctx, problems, {
      path: '/oauth/token',
      encodings: ['json', 'form'],
      // A live code where the checks after its consumption are confused; elsewhere a used one does (the refusal comes first).
      body: async (field) => {
        const { code, verifier } = field === 'redirect_uri' || field === 'code_verifier' ? await mintCode() : used;
        return { grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: 'https://app.example/cb', code_verifier: verifier };
      },
      fields: ['grant_type', 'client_id', 'code', 'redirect_uri', 'code_verifier', 'client_secret', 'scope'],
    });
    await sweep(ctx, problems, {
      path: '/oauth/token',
      encodings: ['json', 'form'],
      body: () => ({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: refreshToken, scope: 'openid' }),
      // An accepted request rotates the token: keep the newest.
      onAnswer: (status, text) => {
        if (status === 200) refreshToken = (JSON.parse(text) as { refresh_token: string }).refresh_token;
      },
      fields: ['refresh_token', 'scope', 'client_id'],
    });
    await sweep(ctx, problems, {
      path: '/oauth/token',
      encodings: ['json', 'form'],
      body: () => ({ grant_type: 'client_credentials', client_id: 'ops', client_secret: OPS_SECRET, scope: 'read:clients' }),
      fields: ['client_id', 'client_secret', 'scope'],
    });
    assertNone(problems);
  });

  it('revocation endpoint (JSON and form)', async (ctx) => {
    const problems: string[] = [];
    await sweep(ctx, problems, {
      path: '/oauth/revoke',
      encodings: ['json', 'form'],
      body: () => ({ token: revocable, client_id: 'spa', token_type_hint: 'access_token' }),
      fields: ['token', 'client_id', 'client_secret', 'token_type_hint'],
    });
    assertNone(problems);
  });

  it('hosted pages (HTML by contract): login, MFA, consent, link', async (ctx) => {
    const problems: string[] = [];
    const base = () => ({ csrf: hosted.csrf, request: hosted.request });
    // Posted by the browser as forms (JSON is parsed there too, but the sweep above covers the JSON parser).
    const common = { browser: hosted.browser, html: true, encodings: ['form'] as Array<'json' | 'form'> };
    await sweep(ctx, problems, { ...common, path: '/oauth/authorize/login', body: () => ({ ...base(), email: plain.email, password: 'a wrong password' }), fields: ['csrf', 'request', 'email', 'password'] });
    await sweep(ctx, problems, {
      ...common, path: '/oauth/authorize/mfa',
      body: () => ({ ...base(), step_up: stepUpToken, auth_type: 'email', challenge_id: challengeId, verification_code: '000000' }),
      fields: ['step_up', 'auth_type', 'action', 'challenge_id', 'verification_code'],
    });
    await sweep(ctx, problems, { ...common, path: '/oauth/authorize/consent', body: () => ({ ...base(), decision: 'deny' }), fields: ['decision'] });
    await sweep(ctx, problems, { ...common, path: '/identity/v1/oauth/link', body: () => ({ csrf: hosted.csrf, link_token: 'not-a-link-token', password: 'x' }), fields: ['csrf', 'link_token', 'password'] });
    assertNone(problems);
  });

  it('path parameters and query strings (NUL, unpaired surrogate, long)', async (ctx) => {
    const problems: string[] = [];
    const confused = ['%00', 'a%00b', '%ED%A0%80', 'x'.repeat(5000), '%', '%5B%5D'];
    const one = async (t: Target, what: string) => {
      const p = await probe(t, '', '', what);
      if (p) problems.push(p);
    };
    for (const v of confused) {
      const label = v.length > 20 ? `${v.length} characters` : v;
      await one({ method: 'DELETE', path: `/identity/v1/mfa/trusteddevices/${v}`, body: () => ({}), fields: [], headers: () => bearer(plain.access) }, `id=${label}`);
      await one({ method: 'GET', path: `/identity/v1/sso/data?client_id=${v}`, body: () => ({}), fields: [], browser: ssoBrowser }, `client_id=${label}`);
      await one({ method: 'GET', path: `/identity/v1/config?client_id=spa&lang=${v}`, body: () => ({}), fields: [] }, `lang=${label}`);
      await one({ method: 'GET', path: `/identity/v1/config?client_id=${v}`, body: () => ({}), fields: [] }, `client_id=${label}`);
      const pkce = pkcePair();
      const q = `response_type=code&redirect_uri=${encodeURIComponent('https://app.example/cb')}&scope=openid&code_challenge=${pkce.challenge}&code_challenge_method=S256`;
      // Through the SSO session: a code is issued, bound to what the request carried.
      for (const name of ['client_id', 'nonce', 'state', 'tkn', 'id_token_hint', 'login_hint', 'max_age', 'prompt', 'provider']) {
        const query = name === 'client_id' ? `${q}&client_id=${v}` : `${q}&client_id=spa&${name}=${v}`;
        await one({ method: 'GET', path: `/oauth/authorize?${query}`, body: () => ({}), fields: [], browser: ssoBrowser, html: true }, `${name}=${label}`);
      }
    }
    ctx.diagnostic(`path and query: ${sent} requests so far`);
    assertNone(problems);
  });

  it('is still serving, and stays bounded', async (ctx) => {
    const res = await m.ward.fetch('/identity/v1/userinfo', { headers: bearer(stepper.access) });
    assert.equal(res.status, 200);
    const seconds = (Date.now() - started) / 1000;
    ctx.diagnostic(`${sent} sweep requests (and ${minted} to mint codes) in ${seconds.toFixed(1)} s with the setup; ${accepted.length} answered 2xx/3xx`);
    // Which inputs were accepted (set WARD_TEST_VERBOSE=1 for each one): a wrong-typed optional field ignored, an unknown field, a 303 of a hosted page.
    const byEndpoint = new Map<string, number>();
    for (const a of accepted) {
      const endpoint = a.split(' ').slice(0, 2).join(' ');
      byEndpoint.set(endpoint, (byEndpoint.get(endpoint) ?? 0) + 1);
    }
    for (const [endpoint, count] of byEndpoint) ctx.diagnostic(`accepted: ${endpoint}: ${count}`);
    if (process.env.WARD_TEST_VERBOSE) for (const a of accepted) ctx.diagnostic(`accepted: ${a}`);
    assert.ok(sent + minted < 3000, `${sent + minted} requests`);
  });
});

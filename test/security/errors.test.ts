// LG-04: error responses are generic JSON with error_message_key, never a stack trace, SQL or the
// input echoed: malformed JSON, wrong content types, oversized bodies and headers, unparsable
// requests, unknown routes, and a forced internal error (the database closed under a running Ward),
// which answers 500 with an error_id, fails closed (no token, no userinfo) and is logged with that id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { request, type Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { authorizeUrl, codeFor, passwordLogin, pkcePair, signup } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { INTERNALS, issueSpaTokens, startSecurityWard, userinfo } from './support.js';

const apiError = (error: string, description: string, key: string) => ({
  error,
  error_description: description,
  error_user_msg: description,
  error_message_key: key,
});
const MALFORMED = apiError('invalid_request', 'The request is malformed', 'error.invalidRequest');
const MEDIA = apiError(
  'unsupported_media_type',
  'Unsupported Content-Type: send application/json or application/x-www-form-urlencoded',
  'error.unsupportedMediaType',
);

async function assertGeneric(
  res: Response | { status: number; text: string; type?: string | null },
  status: number,
  body: object,
  what: string,
): Promise<void> {
  const text = 'text' in res && typeof res.text === 'string' ? res.text : await (res as Response).text();
  const type =
    'headers' in res ? (res as Response).headers.get('content-type') : (res as { type?: string | null }).type;
  assert.equal(res.status, status, `${what}: ${res.status} ${text}`);
  assert.match(type ?? '', /^application\/json/, what);
  assert.deepEqual(JSON.parse(text), body, what);
  assert.doesNotMatch(text, INTERNALS, what);
}

describe('LG-04: generic errors on bad input', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  const post = (path: string, body: string, type?: string) =>
    ward.fetch(path, { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

  it('answers malformed JSON with 400 invalid_request, echoing nothing', async () => {
    for (const [what, body] of [
      ['truncated', '{"client_id":"spa","password":"Secret-Input-123"'],
      ['not JSON', 'client_id=spa&password=Secret-Input-123'],
      ['empty', ''],
      ['prototype pollution', '{"__proto__":{"admin":true},"client_id":"spa"}'],
      ['constructor pollution', '{"constructor":{"prototype":{"admin":true}}}'],
      ['lone surrogate garbage', '{"a":"\ud800'],
    ] as const) {
      for (const path of ['/identity/v1/password/login', '/identity/v1/signup', '/oauth/token', '/oauth/revoke']) {
        const res = await post(path, body, 'application/json');
        const text = await res.text();
        assert.doesNotMatch(text, /Secret-Input-123/, `${what} ${path} echoes the input`);
        await assertGeneric(
          { status: res.status, text, type: res.headers.get('content-type') },
          400,
          MALFORMED,
          `${what} JSON to ${path}`,
        );
      }
    }
  });

  it('answers other content types with 415 and oversized bodies with 413', async () => {
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/jsonx',
    ]) {
      for (const path of ['/identity/v1/password/login', '/oauth/token']) {
        await assertGeneric(await post(path, '{"client_id":"spa"}', type), 415, MEDIA, `${type} to ${path}`);
      }
    }
    await assertGeneric(
      await post(
        '/identity/v1/password/login',
        JSON.stringify({ client_id: 'spa', pad: 'x'.repeat(70_000) }),
        'application/json',
      ),
      413,
      apiError('payload_too_large', 'The request body is too large', 'error.invalidRequest'),
      'body over 64 kB',
    );
  });

  it('answers oversized headers with 431 JSON and keeps big-but-legal headers ordinary', async () => {
    const big = await request(`${ward.url}/identity/v1/userinfo`, {
      dispatcher: ward.agent,
      headers: { 'x-pad': 'p'.repeat(20_000) },
    });
    await assertGeneric(
      { status: big.statusCode, text: await big.body.text(), type: big.headers['content-type'] as string },
      431,
      apiError('invalid_request', 'The request headers are too large', 'error.requestHeadersTooLarge'),
      'headers over 16 kB',
    );
    const cookie = await ward.fetch('/identity/v1/sso/data?client_id=spa', {
      headers: { cookie: `__Host-ward_sso=${'c'.repeat(12_000)}` },
    });
    assert.equal(cookie.status, 200);
    assert.deepEqual(await cookie.json(), { is_authenticated: false });
    const auth = await userinfo(ward, `Bearer ${'t'.repeat(12_000)}`);
    assert.equal(auth.status, 401);
    assert.equal(((await auth.json()) as { error_message_key: string }).error_message_key, 'error.invalidToken');
  });

  it('answers an unparsable request line with 400 JSON', async () => {
    const port = Number(new URL(ward.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const s = tlsConnect({ host: 'localhost', port, ca: ward.ca, servername: 'localhost' }, () =>
        s.write('GARBAGE / HTTP/9.9\r\nHost: x\r\n\r\n'),
      );
      let out = '';
      s.on('data', (d) => (out += String(d)));
      s.on('end', () => resolve(out));
      s.on('close', () => resolve(out));
      s.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /content-type: application\/json/i);
    assert.deepEqual(JSON.parse(body), MALFORMED);
  });

  it('answers unknown routes and wrong methods with JSON', async () => {
    const res = await ward.fetch('/identity/v1/nope?tkn=abc');
    await assertGeneric(
      res,
      404,
      apiError('not_found', 'No route for GET /identity/v1/nope', 'error.notFound'),
      'unknown route',
    );
    await assertGeneric(
      await ward.fetch('/oauth/token'),
      405,
      apiError('invalid_request', 'Use POST', 'error.methodNotAllowed'),
      'GET /oauth/token',
    );
  });
});

describe('LG-04: a forced internal error (database closed)', () => {
  let ward: TestWard;
  let tokens: Awaited<ReturnType<typeof issueSpaTokens>>;
  let pending: Awaited<ReturnType<typeof codeFor>>;
  let user: { email: string; password: string };
  let tkn: string;
  before(async () => {
    ward = await startSecurityWard();
    tokens = await issueSpaTokens(ward);
    pending = await codeFor(ward);
    user = await signup(ward);
    tkn = await passwordLogin(ward, user.email, user.password);
    await ward.registry.storage.close();
  });
  after(() => ward.close());

  async function assertServerError(res: Response, what: string): Promise<string> {
    const text = await res.text();
    assert.equal(res.status, 500, `${what}: ${res.status} ${text}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = JSON.parse(text) as Record<string, string>;
    assert.match(body.error_id ?? '', /^[0-9a-f]{32}$/, what);
    assert.deepEqual(body, {
      ...apiError('server_error', 'An unexpected error occurred', 'error.unexpected'),
      error_id: body.error_id,
    });
    assert.doesNotMatch(text, INTERNALS, what);
    // The operator can find the full error by its id; the client cannot see it.
    const line = ward.logs.find((l) => l.includes(body.error_id!));
    assert.ok(line, `${what}: error_id logged`);
    assert.match(line, /"level":50/);
    assert.match(line, /"msg":"unhandled error"/);
    return body.error_id!;
  }

  it('answers 500 with a fresh error_id and no internals, and fails closed', async () => {
    const login = await ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: user.email, password: user.password }),
    });
    const id1 = await assertServerError(login, 'password login');
    const token = await ward.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'spa',
        code: pending.code,
        code_verifier: pending.verifier,
        redirect_uri: 'https://app.example/cb',
      }).toString(),
    });
    const id2 = await assertServerError(token, 'token endpoint');
    assert.notEqual(id1, id2);
    await assertServerError(await userinfo(ward, `Bearer ${tokens.access_token}`), 'userinfo with a valid token');
    const pkce = pkcePair();
    const authz = await new Browser(ward).get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn,
      }),
    );
    await assertServerError(authz, 'authorize with a tkn');
    assert.equal(authz.headers.get('location'), null);
    assert.equal(authz.headers.getSetCookie().length, 0);
    // The full errors went to the log (LG-01): still without the request's secrets.
    for (const secret of [user.password, tkn, pending.code, pending.verifier, tokens.access_token]) {
      assert.ok(!ward.logs.some((l) => l.includes(secret)), 'a secret of a failed request was logged');
    }
  });
});

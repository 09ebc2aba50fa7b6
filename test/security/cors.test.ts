// SS-04: CORS. Credentialed CORS on /identity/v1/*, /oauth/token and /oauth/revoke only for a
// client's allowed origin, echoed exactly, never `*` with credentials; nothing for any other origin
// (look-alikes, other schemes or ports, null); discovery and JWKS public without credentials; no CORS
// on /oauth/authorize.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import type { TestWard } from '../helpers/ward.js';
import { issueSpaTokens, startSecurityWard } from './support.js';

const ALLOWED = 'https://app.example';
const CREDENTIALED = [
  '/identity/v1/userinfo',
  '/identity/v1/sso/data?client_id=spa',
  '/identity/v1/password/login',
  '/identity/v1/logout',
  '/oauth/token',
  '/oauth/revoke',
];
const FOREIGN = [
  'https://evil.tld',
  'null',
  'https://app.example.evil.tld',
  'https://evilapp.example',
  'http://app.example',
  'https://app.example:8443',
  'https://APP.EXAMPLE',
  'https://app.example/',
  'https://sub.app.example',
  'https://app.example%00.evil.tld',
  '*',
];

function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-')));
}

describe('SS-04: CORS', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  const preflight = (path: string, origin: string, method = 'POST') =>
    ward.fetch(path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('answers a preflight from an allowed origin with the exact origin, credentials and the SDK headers', async () => {
    for (const path of CREDENTIALED) {
      const res = await preflight(path, ALLOWED);
      assert.equal(res.status, 204, path);
      assert.deepEqual(
        corsHeaders(res),
        {
          'access-control-allow-origin': ALLOWED,
          'access-control-allow-credentials': 'true',
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers':
            'Authorization, Content-Type, Accept-Language, Custom-Locale, X-R5-Correlation-Id, DPoP',
          'access-control-max-age': '600',
        },
        path,
      );
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  it('gives no CORS header at all to any other origin, on preflights and on actual requests', async () => {
    const { access_token } = await issueSpaTokens(ward);
    for (const origin of FOREIGN) {
      for (const path of CREDENTIALED) {
        const res = await preflight(path, origin, 'GET');
        assert.deepEqual(corsHeaders(res), {}, `preflight ${path} from ${origin}`);
      }
      const res = await ward.fetch('/identity/v1/userinfo', {
        headers: { origin, authorization: `Bearer ${access_token}` },
      });
      assert.deepEqual(corsHeaders(res), {}, `GET userinfo from ${origin}`);
      await res.body?.cancel();
      // The same origin must not become allowed because a client allows a prefix of it.
      const sso = await ward.fetch('/identity/v1/sso/data?client_id=spa', { headers: { origin } });
      assert.deepEqual(corsHeaders(sso), {}, `sso/data from ${origin}`);
      await sso.body?.cancel();
    }
  });

  it('echoes the allowed origin on actual requests, errors included, with Vary: Origin', async () => {
    const { access_token } = await issueSpaTokens(ward);
    const ok = await ward.fetch('/identity/v1/userinfo', {
      headers: { origin: ALLOWED, authorization: `Bearer ${access_token}` },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(corsHeaders(ok), {
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      // A DPoP client in the browser reads the nonce and the challenge (RFC 9449 7.1, 8).
      'access-control-expose-headers': 'DPoP-Nonce, WWW-Authenticate',
    });
    assert.match(ok.headers.get('vary') ?? '', /Origin/);
    await ok.body?.cancel();
    // The SDK reads error bodies too: a 401 from an allowed origin is readable.
    const denied = await ward.fetch('/identity/v1/userinfo', { headers: { origin: ALLOWED } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), ALLOWED);
    await denied.body?.cancel();
  });

  it('never pairs a wildcard with credentials; discovery and JWKS are public without credentials', async () => {
    for (const path of ['/jwks.json', '/.well-known/openid-configuration']) {
      for (const origin of [ALLOWED, 'https://evil.tld']) {
        const res = await ward.fetch(path, { headers: { origin } });
        assert.equal(res.status, 200);
        assert.deepEqual(corsHeaders(res), { 'access-control-allow-origin': '*' }, `${path} from ${origin}`);
        await res.body?.cancel();
      }
    }
    for (const path of [...CREDENTIALED, '/jwks.json']) {
      for (const origin of [ALLOWED, ...FOREIGN]) {
        const h = corsHeaders(await preflight(path, origin));
        assert.ok(
          !(h['access-control-allow-origin'] === '*' && h['access-control-allow-credentials'] === 'true'),
          `${path} ${origin}`,
        );
      }
    }
  });

  it('has no CORS on /oauth/authorize or the hosted login form, even for an allowed origin', async () => {
    for (const path of ['/oauth/authorize?client_id=spa', '/oauth/authorize/login']) {
      const pre = await preflight(path, ALLOWED, 'GET');
      assert.deepEqual(corsHeaders(pre), {}, path);
      assert.notEqual(pre.status, 204, `${path}: no preflight success`);
      await pre.body?.cancel();
    }
    const get = await ward.fetch('/oauth/authorize?client_id=spa', { headers: { origin: ALLOWED } });
    assert.deepEqual(corsHeaders(get), {});
    await get.body?.cancel();
  });
});

// Parameters of /oauth/authorize once client and redirect_uri are trusted: AZ-07 (errors redirect to
// the registered URI with the same state and iss, no CR/LF), AZ-08 (missing response_type: the code
// redirects invalid_request), AZ-10 (a parameter sent twice: invalid_request, never first/last wins),
// AZ-11 (prompt=none without a session), AZ-17 (no CORS), AZ-19 (success: code, state byte for byte,
// iss, no tokens).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONFIDENTIAL_CLIENT, PUBLIC_CLIENT, signup } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { CB, assertErrorPage, assertErrorRedirect, codeRequest } from './support.js';

const NO_LIMITS = { rate_limits: { signup: { limit: null }, login: { limit: null } } };

describe('authorization request parameters', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT], account: NO_LIMITS });
  });
  after(() => ward.close());

  it('AZ-07: each bad parameter redirects to the registered URI with its error, the same state and iss', async () => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ response_type: 'bogus' }, 'unsupported_response_type'],
      [{ response_type: 'code token' }, 'unsupported_response_type'],
      [{ scope: 'openid bogus' }, 'invalid_scope'],
      [{ prompt: 'bogus' }, 'invalid_request'],
      [{ prompt: 'none login' }, 'invalid_request'],
      [{ max_age: '-1' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: 'too-short' }, 'invalid_request'],
      [{ response_mode: 'form_post.jwt' }, 'invalid_request'],
      [{ response_mode: 'bogus' }, 'invalid_request'],
    ];
    for (const [over, error] of cases) {
      const res = await ward.fetch(codeRequest(over));
      assertErrorRedirect(res, CB, error, ward.url);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
  });

  it('AZ-07: the state is echoed byte for byte in an error redirect too', async () => {
    const state = 'a b+c&d=e%25f/é😀<>"\'';
    assertErrorRedirect(
      await ward.fetch(codeRequest({ response_type: 'bogus', state })),
      CB,
      'unsupported_response_type',
      ward.url,
      state,
    );
  });

  it('AZ-07: user input with CR/LF/TAB never reaches the Location or error_description raw', async () => {
    const res = await ward.fetch(
      codeRequest({ scope: 'openid bad\r\nSet-Cookie: x=1\tY', state: 's\r\nX-Injected: 1' }),
    );
    const loc = assertErrorRedirect(res, CB, 'invalid_scope', ward.url, 's\r\nX-Injected: 1');
    assert.equal(res.headers.get('set-cookie'), null);
    assert.equal(res.headers.get('x-injected'), null);
    assert.match(loc.searchParams.get('error_description')!, /^[\x20-\x7e]+$/);
  });

  it('AZ-07: an error of a fragment-mode request goes in the fragment, not the query', async () => {
    const res = await ward.fetch(codeRequest({ response_mode: 'fragment', scope: 'bogus' }));
    assert.equal(res.status, 302);
    const loc = new URL(res.headers.get('location')!);
    assert.equal(loc.origin + loc.pathname + loc.search, CB);
    const frag = new URLSearchParams(loc.hash.slice(1));
    assert.equal(frag.get('error'), 'invalid_scope');
    assert.equal(frag.get('state'), 'st-123');
    assert.equal(frag.get('iss'), ward.url);
  });

  it('AZ-08: a missing or empty response_type redirects invalid_request with the state', async () => {
    assertErrorRedirect(await ward.fetch(codeRequest({ response_type: undefined })), CB, 'invalid_request', ward.url);
    assertErrorRedirect(await ward.fetch(codeRequest({ response_type: '' })), CB, 'invalid_request', ward.url);
  });

  it('AZ-10: redirect_uri or client_id twice is the error page (no redirect to either value)', async () => {
    const base = codeRequest({ redirect_uri: undefined, client_id: undefined });
    for (const dup of [
      `redirect_uri=${encodeURIComponent(CB)}&redirect_uri=${encodeURIComponent('https://app.example/other')}`,
      `redirect_uri=${encodeURIComponent(CB)}&redirect_uri=${encodeURIComponent('https://evil.tld/cb')}`,
      `redirect_uri=${encodeURIComponent('https://evil.tld/cb')}&redirect_uri=${encodeURIComponent(CB)}`,
      `redirect_uri=${encodeURIComponent(CB)}&redirect_uri=${encodeURIComponent(CB)}`,
      `redirect_uri=${encodeURIComponent(CB)}&redirect_uri=`,
    ]) {
      await assertErrorPage(await ward.fetch(`${base}&client_id=spa&${dup}`), 'invalid_request');
    }
    for (const dup of [
      'client_id=spa&client_id=backend',
      'client_id=backend&client_id=spa',
      'client_id=spa&client_id=spa',
      'client_id=spa&client_id=',
    ]) {
      await assertErrorPage(
        await ward.fetch(`${base}&redirect_uri=${encodeURIComponent(CB)}&${dup}`),
        'invalid_request',
      );
    }
  });

  it('AZ-10: any other parameter twice redirects invalid_request, never a code or a login page', async () => {
    const user = await signup(ward);
    // Each value valid on its own, the same value twice: only the repetition is wrong.
    const extra: Record<string, string> = { prompt: 'login', nonce: 'n-1', response_mode: 'query', max_age: '60' };
    for (const name of [
      'response_type',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
      'tkn',
      ...Object.keys(extra),
    ]) {
      const base = codeRequest({ tkn: user.tkn, ...(extra[name] ? { [name]: extra[name] } : {}) });
      const value = new RegExp(`[?&]${name}=([^&]*)`).exec(base)![1];
      const res = await ward.fetch(`${base}&${name}=${value}`);
      assertErrorRedirect(res, CB, 'invalid_request', ward.url, name === 'state' ? null : 'st-123');
      assert.match(new URL(res.headers.get('location')!).searchParams.get('error_description')!, new RegExp(name));
    }
    // The tkn was never spent by the refused requests: it still yields a code.
    const ok = await ward.fetch(codeRequest({ tkn: user.tkn }));
    assert.equal(ok.status, 302);
    assert.ok(new URL(ok.headers.get('location')!).searchParams.get('code'));
  });

  it('AZ-11: prompt=none without a session redirects login_required with no UI and no cookie', async () => {
    const res = await ward.fetch(codeRequest({ prompt: 'none' }));
    assertErrorRedirect(res, CB, 'login_required', ward.url);
    assert.equal(res.headers.get('set-cookie'), null);
    assert.equal(await res.text(), '');
  });

  it('AZ-11: prompt=none with an unknown or expired SSO cookie is still login_required', async () => {
    const res = await ward.fetch(codeRequest({ prompt: 'none' }), {
      headers: { cookie: `__Host-ward_sso=${'A'.repeat(43)}` },
    });
    assertErrorRedirect(res, CB, 'login_required', ward.url);
  });

  it('AZ-11: prompt=none with response_mode=web_message posts login_required to the allowed origins only', async () => {
    const res = await ward.fetch(codeRequest({ prompt: 'none', response_mode: 'web_message' }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('location'), null);
    const body = await res.text();
    assert.match(body, /"error":"login_required"/);
    assert.match(body, /"state":"st-123"/);
    assert.ok(body.includes('["https://app.example"]'));
    assert.ok(!body.includes('"*"'), 'never postMessage to *');
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors https:\/\/app\.example;/);
  });

  it('AZ-17: OPTIONS /oauth/authorize with an allowed Origin gets no CORS headers', async () => {
    for (const path of ['/oauth/authorize', codeRequest(), '/oauth/authorize/login']) {
      const res = await ward.fetch(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      const cors = [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));
      assert.deepEqual(cors, [], `${path}: ${cors.join(', ')}`);
      await res.arrayBuffer();
    }
  });

  it('AZ-17: GET /oauth/authorize with an allowed Origin gets no CORS headers either', async () => {
    const res = await ward.fetch(codeRequest({ prompt: 'none' }), { headers: { origin: 'https://app.example' } });
    assert.equal(res.status, 302);
    assert.deepEqual(
      [...res.headers.keys()].filter((h) => h.startsWith('access-control-')),
      [],
    );
  });

  it('AZ-19: success carries the code, the state byte for byte and iss; no token of any kind', async () => {
    const meta = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    assert.equal(meta.authorization_response_iss_parameter_supported, true);
    const state = 'a b+c&d=e%25f/é😀<>"\'#?';
    const user = await signup(ward);
    const res = await ward.fetch(codeRequest({ tkn: user.tkn, state, redirect_uri: 'https://app.example/other' }));
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const loc = new URL(res.headers.get('location')!);
    assert.equal(loc.origin + loc.pathname, 'https://app.example/other');
    assert.equal(loc.hash, '');
    assert.deepEqual([...loc.searchParams.keys()].sort(), ['code', 'iss', 'state']);
    assert.match(loc.searchParams.get('code')!, /^[A-Za-z0-9_-]{43,}$/);
    assert.equal(loc.searchParams.get('state'), state);
    assert.equal(loc.searchParams.get('iss'), ward.url);
  });

  it('AZ-19: without a state, no state comes back', async () => {
    const user = await signup(ward);
    const res = await ward.fetch(codeRequest({ tkn: user.tkn, state: undefined }));
    assert.deepEqual([...new URL(res.headers.get('location')!).searchParams.keys()].sort(), ['code', 'iss']);
  });

  it('AZ-19: implicit is disabled: response_type=token gets unauthorized_client and no access_token', async () => {
    const user = await signup(ward, 'backend');
    const res = await ward.fetch(
      codeRequest({
        client_id: 'backend',
        redirect_uri: 'https://api.example/cb',
        response_type: 'token',
        tkn: user.tkn,
        code_challenge: undefined,
        code_challenge_method: undefined,
      }),
    );
    assert.equal(res.status, 302);
    const raw = res.headers.get('location')!;
    assert.ok(!raw.includes('access_token') && !raw.includes('id_token'), raw);
    const loc = new URL(raw);
    assert.equal(new URLSearchParams(loc.hash.slice(1)).get('error'), 'unauthorized_client');
    const spa = await ward.fetch(codeRequest({ response_type: 'token', tkn: (await signup(ward)).tkn }));
    assert.ok(!spa.headers.get('location')!.includes('access_token'));
    assert.equal(
      new URLSearchParams(new URL(spa.headers.get('location')!).hash.slice(1)).get('error'),
      'unauthorized_client',
    );
  });
});

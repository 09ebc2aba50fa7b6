// TK-10 (confidential client authentication: wrong secret, both methods at once, a secret without
// client_id, a public client with a secret; 401 + WWW-Authenticate for Basic; a refused client
// never burns the code) and TK-11 (no client_credentials for ordinary clients, implicit never available
// to public clients, the password grant only for a client that opted in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  signup,
  tokenRequest,
} from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { basic, expectError, expectTokens, NO_LIMITS } from './support.js';

const API_CB = 'https://api.example/cb';

describe('client authentication at the token endpoint', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      account: NO_LIMITS,
      clients: [
        PUBLIC_CLIENT,
        CONFIDENTIAL_CLIENT,
        { ...CONFIDENTIAL_CLIENT, client_id: 'implicit-app', implicit_flow: true, allowed_callback_urls: [API_CB] },
      ],
    });
  });
  after(() => ward.close());

  const backendCode = () => codeFor(ward, { clientId: 'backend', redirectUri: API_CB, pkce: false });
  const grant = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: API_CB });

  describe('TK-10', () => {
    it('refuses a wrong secret sent with Basic: 401 invalid_client with WWW-Authenticate: Basic', async () => {
      const { code } = await backendCode();
      for (const secret of [
        'wrong',
        `${CONFIDENTIAL_SECRET}x`,
        CONFIDENTIAL_SECRET.slice(0, -1),
        CONFIDENTIAL_SECRET.toUpperCase(),
        '',
      ]) {
        const res = await tokenRequest(ward, grant(code), { authorization: basic('backend', secret) });
        assert.match(res.headers.get('www-authenticate') ?? '', /^Basic /);
        await expectError(res, 401, 'invalid_client');
      }
      // Unknown client, a public client, and malformed credentials in Basic: the same answer.
      for (const auth of [
        basic('nobody', CONFIDENTIAL_SECRET),
        basic('spa', ''),
        'Basic !!!',
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
      ]) {
        const res = await tokenRequest(ward, grant(code), { authorization: auth });
        assert.match(res.headers.get('www-authenticate') ?? '', /^Basic /);
        await expectError(res, 401, 'invalid_client');
      }
      await expectTokens(
        await tokenRequest(ward, grant(code), { authorization: basic('backend', CONFIDENTIAL_SECRET) }),
      );
    });

    it('refuses a wrong or missing secret in the body: 401 invalid_client', async () => {
      const { code } = await backendCode();
      await expectError(
        await tokenRequest(ward, { ...grant(code), client_id: 'backend', client_secret: 'wrong' }),
        401,
        'invalid_client',
      );
      await expectError(await tokenRequest(ward, { ...grant(code), client_id: 'backend' }), 401, 'invalid_client');
      await expectError(
        await tokenRequest(ward, { ...grant(code), client_id: 'backend', client_secret: '' }),
        401,
        'invalid_client',
      );
      await expectTokens(
        await tokenRequest(ward, { ...grant(code), client_id: 'backend', client_secret: CONFIDENTIAL_SECRET }),
      );
    });

    it('refuses the secret in both Basic and the body with invalid_request, even when both are right', async () => {
      const { code } = await backendCode();
      for (const bodySecret of [CONFIDENTIAL_SECRET, 'other']) {
        const res = await tokenRequest(
          ward,
          { ...grant(code), client_id: 'backend', client_secret: bodySecret },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        );
        await expectError(res, 400, 'invalid_request');
      }
      await expectError(
        await tokenRequest(
          ward,
          { ...grant(code), client_secret: CONFIDENTIAL_SECRET },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
        400,
        'invalid_request',
      );
      // A client_id in the body naming another client than Basic.
      await expectError(
        await tokenRequest(
          ward,
          { ...grant(code), client_id: 'spa' },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
        400,
        'invalid_request',
      );
      await expectTokens(
        await tokenRequest(ward, grant(code), { authorization: basic('backend', CONFIDENTIAL_SECRET) }),
      );
    });

    it('refuses client_secret without client_id: invalid_client', async () => {
      const { code } = await backendCode();
      const res = await tokenRequest(ward, { ...grant(code), client_secret: CONFIDENTIAL_SECRET });
      assert.equal(res.headers.get('www-authenticate'), null);
      await expectError(res, 401, 'invalid_client');
      await expectError(await tokenRequest(ward, grant(code)), 401, 'invalid_client');
      await expectTokens(
        await tokenRequest(ward, { ...grant(code), client_id: 'backend', client_secret: CONFIDENTIAL_SECRET }),
      );
    });

    it('refuses a public client that sends a secret, and an unknown client_id', async () => {
      const { code, verifier } = await codeFor(ward);
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example/cb',
        code_verifier: verifier,
      };
      await expectError(
        await tokenRequest(ward, { ...form, client_id: 'spa', client_secret: 'anything' }),
        401,
        'invalid_client',
      );
      await expectError(await tokenRequest(ward, { ...form, client_id: 'nobody' }), 401, 'invalid_client');
      await expectTokens(await tokenRequest(ward, { ...form, client_id: 'spa' }));
    });

    it('accepts Basic credentials that are form-encoded (RFC 6749 2.3.1)', async () => {
      const special = 'sp3cial:secret with spaces & symbols +/=%-long-enough';
      await ward.addClient({ ...CONFIDENTIAL_CLIENT, client_id: 'odd-id', client_secret: special });
      const { code } = await codeFor(ward, { clientId: 'odd-id', redirectUri: API_CB, pkce: false });
      await expectError(
        await tokenRequest(ward, grant(code), {
          authorization: `Basic ${Buffer.from(`odd-id:${special}`).toString('base64')}`,
        }),
        401,
        'invalid_client',
      );
      await expectTokens(await tokenRequest(ward, grant(code), { authorization: basic('odd-id', special) }));
    });
  });

  describe('TK-11 grants that are never available', () => {
    it('refuses client_credentials for a public client and for an ordinary confidential client: unauthorized_client', async () => {
      await expectError(
        await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'spa', scope: 'openid' }),
        400,
        'unauthorized_client',
      );
      await expectError(
        await tokenRequest(
          ward,
          { grant_type: 'client_credentials', scope: 'openid' },
          { authorization: basic('backend', CONFIDENTIAL_SECRET) },
        ),
        400,
        'unauthorized_client',
      );
    });

    // Issue #25 item 7 made the password grant an opt-in per client (test/protocol/token/password-grant.test.ts):
    // a client that did not opt in, public or confidential, is still refused and gets no token.
    it('refuses the password grant to clients that did not opt in (unauthorized_client), and implicit (unsupported_grant_type)', async () => {
      const user = await signup(ward);
      const pw = { grant_type: 'password', username: user.email, password: user.password, scope: 'openid' };
      await expectError(await tokenRequest(ward, { ...pw, client_id: 'spa' }), 400, 'unauthorized_client');
      await expectError(
        await tokenRequest(ward, pw, { authorization: basic('backend', CONFIDENTIAL_SECRET) }),
        400,
        'unauthorized_client',
      );
      await expectError(
        await tokenRequest(ward, { grant_type: 'implicit', client_id: 'spa' }),
        400,
        'unsupported_grant_type',
      );
      const discovery = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as {
        grant_types_supported: string[];
      };
      // Listed because a client may opt in; off for every client by default (the clients above list it not).
      assert.ok(discovery.grant_types_supported.includes('password'));
      for (const id of ['spa', 'backend', 'implicit-app'])
        assert.ok(!(await ward.registry.clients.find(id))!.grant_types.includes('password'), id);
      // client_credentials exists for management clients that list it; `spa` still gets unauthorized_client.
      assert.ok(discovery.grant_types_supported.includes('client_credentials'));
    });

    it('refuses response_type=token for a public client and a confidential client without implicit_flow', async () => {
      for (const [clientId, cb] of [
        ['spa', 'https://app.example/cb'],
        ['backend', API_CB],
      ] as const) {
        const res = await ward.fetch(
          authorizeUrl({
            client_id: clientId,
            response_type: 'token',
            redirect_uri: cb,
            scope: 'openid',
            state: 'st',
            nonce: 'n',
          }),
        );
        assert.equal(res.status, 302);
        const loc = location(res);
        assert.equal(loc.origin + loc.pathname, cb);
        const p = new URLSearchParams(loc.hash.slice(1) || loc.search.slice(1));
        assert.equal(p.get('error'), 'unauthorized_client');
        assert.equal(p.get('state'), 'st');
        assert.equal(p.get('access_token'), null);
      }
      // The opt-in confidential client does get past the response_type check (to the login page).
      const ok = await ward.fetch(
        authorizeUrl({
          client_id: 'implicit-app',
          response_type: 'token',
          redirect_uri: API_CB,
          scope: 'openid',
          state: 'st',
          nonce: 'n',
        }),
      );
      assert.equal(ok.status, 200);
    });
  });
});

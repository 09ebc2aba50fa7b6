// Pushed Authorization Requests (RFC 9126), on both engines, over real HTTP, with openid-client's
// buildAuthorizationUrlWithPAR as the client (authenticated with private_key_jwt, then with a secret):
// the pushed request runs the code flow through the hosted login page; its request_uri is used once,
// only by its client, only before it expires; a bad pushed request is refused at /oauth/par with the
// authorization request's error; a client (or the account) that requires PAR has its unpushed requests
// refused; any other request_uri is still request_uri_not_supported.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_LIMITS, basic } from './token/support.js';

const CB = 'https://api.example/cb';

for (const engine of engines()) {
  describe(`pushed authorization requests (RFC 9126) on ${engine}`, () => {
    let ward: TestWard;
    let pair: Awaited<ReturnType<typeof generateKeyPair>>;
    before(async () => {
      pair = await generateKeyPair('ES256');
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [
          PUBLIC_CLIENT,
          CONFIDENTIAL_CLIENT,
          {
            client_id: 'pushing',
            type: 'confidential',
            client_secret: 'an-unused-secret-of-a-key-client-32-bytes',
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'p1' }] },
            allowed_callback_urls: [CB],
            require_pushed_authorization_requests: true,
          },
        ],
      });
    });
    after(() => ward.close());

    const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
    const syncClock = () => {
      const behind = Date.now() - ward.clock.now();
      if (behind > 0) ward.clock.advance(behind);
    };
    async function configFor(clientId: string, auth: client.ClientAuth) {
      const config = await client.discovery(new URL(ward.url), clientId, undefined, auth, {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      return config;
    }
    const push = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      ward.fetch('/oauth/par', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
    const errorPage = async (url: string, error: RegExp) => {
      const res = await new Browser(ward).get(url);
      assert.equal(res.status, 400, 'an error page, not a redirect');
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), error);
    };

    /** openid-client pushes the request, the user signs in on the hosted page, the code is redeemed. */
    async function pushedFlow(clientId: string, auth: client.ClientAuth) {
      syncClock();
      const config = await configFor(clientId, auth);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: CB,
        scope: 'openid profile',
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      const user = await signup(ward);
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      assert.equal(page.status, 200, 'the login page');
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const tokens = await client.authorizationCodeGrant(config, location(posted), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      assert.equal(tokens.claims()!.sub, user.id);
      return url;
    }

    it('discovery names the endpoint', async () => {
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const meta = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
        assert.equal(meta.pushed_authorization_request_endpoint, `${ward.issuer}/oauth/par`);
      }
    });

    it('runs the code flow from a pushed request (private_key_jwt, then a secret); the request_uri is used once', async () => {
      const url = await pushedFlow('pushing', client.PrivateKeyJwt({ key: pair.privateKey, kid: 'p1' }));
      await errorPage(url.toString(), /already used/);
      await pushedFlow('backend', client.ClientSecretBasic(CONFIDENTIAL_SECRET));
    });

    it('refuses a request_uri never pushed, another client’s, and an expired one', async () => {
      const form = {
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      };
      const res = await push(form, { authorization: basic('backend', CONFIDENTIAL_SECRET) });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { request_uri: uri, expires_in } = (await res.json()) as { request_uri: string; expires_in: number };
      assert.match(uri, /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{40,}$/);
      assert.ok(expires_in > 0 && expires_in <= 600);
      const at = (clientId: string, requestUri: string) =>
        `/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`;
      // One never pushed is like any request_uri Ward did not make.
      const unknown = await new Browser(ward).get(
        `/oauth/authorize?${new URLSearchParams({ client_id: 'backend', redirect_uri: CB, response_type: 'code', request_uri: 'urn:ietf:params:oauth:request_uri:nothing-pushed-here' })}`,
      );
      assert.equal(unknown.status, 302);
      assert.equal(location(unknown).searchParams.get('error'), 'request_uri_not_supported');
      await errorPage(at('spa', uri), /another client/);
      // The other client's attempt used it up too.
      await errorPage(at('backend', uri), /already used/);
      const late = (await (await push(form, { authorization: basic('backend', CONFIDENTIAL_SECRET) })).json()) as {
        request_uri: string;
      };
      ward.clock.advance(expires_in * 1000 + 1);
      await errorPage(at('backend', late.request_uri), /expired/);
    });

    it('refuses at /oauth/par what /oauth/authorize would refuse, an unauthenticated client, a pushed request_uri', async () => {
      const auth = { authorization: basic('backend', CONFIDENTIAL_SECRET) };
      const cases: Array<[Record<string, string>, Record<string, string>, number, string]> = [
        [
          { response_type: 'code', redirect_uri: 'https://evil.example/cb', scope: 'openid' },
          auth,
          400,
          'invalid_request',
        ],
        [
          { response_type: 'token id_token', redirect_uri: CB, scope: 'openid' },
          auth,
          400,
          'unsupported_response_type',
        ],
        [
          { response_type: 'code', redirect_uri: CB, scope: 'openid', request_uri: 'urn:x' },
          auth,
          400,
          'invalid_request',
        ],
        [{ response_type: 'code', redirect_uri: CB, client_id: 'backend' }, {}, 401, 'invalid_client'],
        [
          { response_type: 'code', redirect_uri: CB, client_id: 'backend', client_secret: 'wrong' },
          {},
          401,
          'invalid_client',
        ],
      ];
      for (const [form, headers, status, error] of cases) {
        const res = await push(form, headers);
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(res.status, status, JSON.stringify({ form, body }));
        assert.equal(body.error, error, JSON.stringify(body));
        assert.equal(typeof body.error_message_key, 'string');
      }
    });

    it('refuses an unpushed request of a client that requires PAR, and of every client when the account does', async () => {
      const query = (clientId: string, redirectUri: string) =>
        `/oauth/authorize?${new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          redirect_uri: redirectUri,
          scope: 'openid',
          state: 'st-p',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
        })}`;
      const refusedRedirect = async (path: string) => {
        const res = await new Browser(ward).get(path);
        assert.equal(res.status, 302);
        const loc = location(res);
        assert.equal(loc.searchParams.get('error'), 'invalid_request');
        assert.match(loc.searchParams.get('error_description') ?? '', /par/i);
      };
      await refusedRedirect(query('pushing', CB));
      const open = await new Browser(ward).get(query('spa', 'https://app.example/cb'));
      assert.equal(open.status, 200, 'a client that does not require PAR is served');
      ward.setAccount({ require_pushed_authorization_requests: true });
      try {
        await refusedRedirect(query('spa', 'https://app.example/cb'));
      } finally {
        ward.setAccount({ require_pushed_authorization_requests: false });
      }
    });

    it('answers any other request_uri with request_uri_not_supported', async () => {
      const res = await new Browser(ward).get(
        `/oauth/authorize?${new URLSearchParams({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          request_uri: 'https://app.example/request.jwt',
        })}`,
      );
      assert.equal(res.status, 302);
      assert.equal(location(res).searchParams.get('error'), 'request_uri_not_supported');
    });
  });
}

// Signed request objects (RFC 9101, OIDC Core 6.1), on both engines over real HTTP: openid-client's
// buildAuthorizationUrlWithJAR signs one with the client's key and the code flow runs from it, with
// only the object's parameters used; jose-built objects are refused as invalid_request_object (wrong
// signature, iss, aud, expired, too long-lived, another client_id, a replayed jti, alg none), answered
// to the client once the query's redirect_uri is trusted; a client that requires request objects has a
// plain request refused; a request object pushed to /oauth/par is used from its request_uri; a
// request_uri by reference stays request_uri_not_supported.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../../helpers/browser.js';
import { engines } from '../../helpers/databases.js';
import { authorizeUrl, location, passwordLogin, pkcePair, signup } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { NO_LIMITS } from '../token/support.js';
import { assertErrorPage, assertErrorRedirect } from './support.js';

const CB = 'https://api.example/cb';
const SECRET = 'an-unused-secret-of-a-key-client-32-bytes';

for (const engine of engines()) {
  describe(`signed request objects (RFC 9101) on ${engine}`, () => {
    let ward: TestWard;
    let pair: Awaited<ReturnType<typeof generateKeyPair>>;
    let other: Awaited<ReturnType<typeof generateKeyPair>>;
    before(async () => {
      pair = await generateKeyPair('ES256');
      other = await generateKeyPair('ES256');
      const keyed = {
        type: 'confidential',
        client_secret: SECRET,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1' }] },
        allowed_callback_urls: [CB],
      };
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [
          { client_id: 'jar', ...keyed },
          { client_id: 'strict', ...keyed, require_signed_request_object: true, request_object_signing_alg: 'PS256' },
        ],
      });
    });
    after(() => ward.close());

    const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
    const syncClock = () => {
      const behind = Date.now() - ward.clock.now();
      if (behind > 0) ward.clock.advance(behind);
    };
    const now = () => Math.floor(ward.clock.now() / 1000);
    /** A request object of `clientId`, signed by `key` (the registered one unless told). */
    async function object(
      claims: Record<string, unknown>,
      opts: { clientId?: string; key?: CryptoKey; alg?: string } = {},
    ): Promise<string> {
      const clientId = opts.clientId ?? 'jar';
      const payload: Record<string, unknown> = {
        client_id: clientId,
        jti: randomUUID(),
        iss: clientId,
        aud: ward.issuer,
        iat: now(),
        exp: now() + 60,
        ...claims,
      };
      for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
      return new SignJWT(payload)
        .setProtectedHeader({ alg: opts.alg ?? 'ES256', typ: 'oauth-authz-req+jwt', kid: 'k1' })
        .sign(opts.key ?? pair.privateKey);
    }
    const codeParams = (state = 'from-object') => ({
      response_type: 'code',
      redirect_uri: CB,
      scope: 'openid',
      state,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    /** /oauth/authorize with the object and a trusted redirect_uri and state in the query. */
    const withObject = (request: string, clientId = 'jar', query: Record<string, string> = {}) =>
      new Browser(ward).get(
        authorizeUrl({ client_id: clientId, redirect_uri: CB, state: 'st-123', request, ...query }),
      );
    const tknFor = async (clientId = 'jar') => {
      const user = await signup(ward, clientId);
      return passwordLogin(ward, user.email, user.password, clientId, 'openid');
    };

    it('discovery names request objects and their algorithms', async () => {
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const meta = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
        assert.equal(meta.request_parameter_supported, true);
        assert.equal(meta.request_uri_parameter_supported, false);
        assert.deepEqual(meta.request_object_signing_alg_values_supported, ['RS256', 'PS256', 'ES256', 'EdDSA']);
        assert.equal(meta.require_signed_request_object, undefined);
      }
    });

    it("openid-client's request object runs the code flow; only the object's parameters count", async () => {
      syncClock();
      const config = await client.discovery(
        new URL(ward.url),
        'jar',
        undefined,
        client.PrivateKeyJwt({ key: pair.privateKey, kid: 'k1' }),
        { [client.customFetch]: tlsFetch },
      );
      config[client.customFetch] = tlsFetch;
      const verifier = client.randomPKCECodeVerifier();
      const url = await client.buildAuthorizationUrlWithJAR(
        config,
        {
          redirect_uri: CB,
          scope: 'openid',
          state: 'st-jar',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          tkn: await tknFor(),
        },
        { key: pair.privateKey, kid: 'k1' },
      );
      assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request']);
      const res = await new Browser(ward).get(url.toString());
      assert.equal(res.status, 302);
      const tokens = await client.authorizationCodeGrant(config, location(res), {
        pkceCodeVerifier: verifier,
        expectedState: 'st-jar',
      });
      assert.ok(tokens.access_token);
      // The query's own parameters are not used beside the object's (RFC 9101 6.3).
      const answer = await withObject(await object({ ...codeParams(), tkn: await tknFor() }), 'jar', {
        scope: 'openid profile email',
        response_mode: 'fragment',
      });
      const loc = location(answer);
      assert.equal(loc.searchParams.get('state'), 'from-object');
      assert.ok(loc.searchParams.get('code'), 'in the query, as the object asked (not the fragment)');
    });

    it('refuses a bad object with invalid_request_object, redirected to the trusted redirect_uri', async () => {
      const bad: [string, () => Promise<string>][] = [
        ['wrong signature', () => object(codeParams(), { key: other.privateKey })],
        ['wrong iss', async () => object({ ...codeParams(), iss: 'someone-else' })],
        ['wrong aud', () => object({ ...codeParams(), aud: 'https://other.example' })],
        ['expired', () => object({ ...codeParams(), exp: now() - 120 })],
        ['too long-lived', () => object({ ...codeParams(), exp: now() + 3600 })],
        ['no exp', () => object({ ...codeParams(), exp: undefined })],
        ['another client_id', () => object({ ...codeParams(), client_id: 'strict' })],
        [
          'alg none',
          async () =>
            `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...codeParams(), iss: 'jar', aud: ward.issuer, exp: now() + 60 })).toString('base64url')}.`,
        ],
        ['not a JWT', async () => 'not-a-jwt'],
      ];
      for (const [what, make] of bad) {
        syncClock();
        const res = await withObject(await make());
        assert.equal(res.status, 302, what);
        assertErrorRedirect(res, CB, 'invalid_request_object', ward.url);
      }
    });

    it('refuses a replayed jti, and never redirects to an untrusted redirect_uri', async () => {
      syncClock();
      const once = await object(codeParams());
      assert.equal((await withObject(once)).status, 200, 'the login page the first time');
      assertErrorRedirect(await withObject(once), CB, 'invalid_request_object', ward.url);
      // A security event for the audit, as for a replayed DPoP proof.
      await ward.registry.events.flush();
      const replays = await ward.registry.storage.audit.list({ action: 'request_object.replayed', limit: 5 });
      assert.equal(replays.length, 1);
      assert.equal(replays[0]!.outcome, 'failed');
      await assertErrorPage(
        await withObject(await object(codeParams(), { key: other.privateKey }), 'jar', {
          redirect_uri: 'https://evil.example/cb',
        }),
      );
    });

    it('a client that requires request objects: a plain request is refused, its one algorithm only', async () => {
      syncClock();
      const plain = await new Browser(ward).get(authorizeUrl({ client_id: 'strict', ...codeParams('st-123') }));
      assertErrorRedirect(plain, CB, 'invalid_request', ward.url);
      // Signed with ES256 while the client registered PS256 only.
      const es = await object(codeParams(), { clientId: 'strict' });
      assertErrorRedirect(await withObject(es, 'strict'), CB, 'invalid_request_object', ward.url);
    });

    it('a request object pushed to /oauth/par is used from its request_uri; its jti once', async () => {
      syncClock();
      const config = await client.discovery(
        new URL(ward.url),
        'jar',
        undefined,
        client.PrivateKeyJwt({ key: pair.privateKey, kid: 'k1' }),
        { [client.customFetch]: tlsFetch },
      );
      config[client.customFetch] = tlsFetch;
      const request = await object({ ...codeParams('st-par'), tkn: await tknFor() });
      const url = await client.buildAuthorizationUrlWithPAR(config, { request });
      const res = await new Browser(ward).get(url.toString());
      assert.equal(location(res).searchParams.get('state'), 'st-par');
      assert.ok(location(res).searchParams.get('code'));
      // The same object again: its jti was used at the push.
      await assert.rejects(
        client.buildAuthorizationUrlWithPAR(config, { request }),
        (e: { cause?: { error?: string } }) => e.cause?.error === 'invalid_request_object',
      );
    });

    it('the account setting requires request objects of every client, and discovery says so', async () => {
      ward.setAccount({ require_signed_request_object: true });
      try {
        for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
          const meta = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
          assert.equal(meta.require_signed_request_object, true, path);
        }
        const plain = await new Browser(ward).get(authorizeUrl({ client_id: 'jar', ...codeParams('st-123') }));
        assertErrorRedirect(plain, CB, 'invalid_request', ward.url);
        syncClock();
        assert.equal((await withObject(await object(codeParams()))).status, 200, 'the login page');
      } finally {
        ward.setAccount({ require_signed_request_object: false });
      }
    });

    it('a request_uri by reference stays request_uri_not_supported', async () => {
      const res = await new Browser(ward).get(
        authorizeUrl({ client_id: 'jar', redirect_uri: CB, state: 'st-123', request_uri: 'https://app.example/r.jwt' }),
      );
      assertErrorRedirect(res, CB, 'request_uri_not_supported', ward.url);
    });
  });
}

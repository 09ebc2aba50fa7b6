// Client authentication by a signed JWT (RFC 7523, OpenID Connect Core 9), on both engines, over real
// HTTP, with openid-client (its PrivateKeyJwt and ClientSecretJwt) as the client: a code flow, refresh,
// introspection and revocation with private_key_jwt whose keys are at a jwks_uri served on loopback
// (fetched once, fetched again when the client rotates its key: an unknown kid), with inline jwks,
// and with client_secret_jwt. Refusals with RFC 7523's invalid_client (and invalid_request for a
// malformed request): a replayed jti, a foreign or multi-valued aud, an expired or too long-lived
// assertion, a missing jti or exp, a key Ward does not know, alg none or HS256 for a key client, a
// client registered for its secret sending an assertion (and the other way round), two methods at once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../../helpers/databases.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, codeFor, tokenRequest } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { NO_LIMITS, basic, expectError, expectTokens } from './support.js';

const CB = 'https://api.example/cb';
const TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const CSJ_SECRET = 'a-client-secret-jwt-secret-of-at-least-32-bytes';
const GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];

type Pair = Awaited<ReturnType<typeof generateKeyPair>>;
/** A public JWK; without alg (the key then verifies every algorithm of its type: EdDSA and Ed25519). */
const publicJwk = async (pair: Pair, kid: string, alg?: string): Promise<JWK> => ({
  ...(await exportJWK(pair.publicKey)),
  kid,
  ...(alg ? { alg } : {}),
  use: 'sig',
});
const invalidClient = (e: { error?: string }) => e.error === 'invalid_client';

/** A JWK Set on loopback, replaced at will; counts the fetches. */
function jwksServer() {
  let set: { keys: JWK[] } = { keys: [] };
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify(set));
  });
  return {
    server,
    serve: (keys: JWK[]) => {
      set = { keys };
    },
    hits: () => hits,
    async start() {
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    },
  };
}

for (const engine of engines()) {
  describe(`client assertions (private_key_jwt, client_secret_jwt) on ${engine}`, () => {
    let ward: TestWard;
    const site = jwksServer();
    let k1: Pair;
    let k2: Pair;
    let ed: Pair;
    let stranger: Pair;
    before(async () => {
      [k1, k2, ed, stranger] = await Promise.all([
        generateKeyPair('ES256'),
        generateKeyPair('PS256'),
        generateKeyPair('EdDSA'),
        generateKeyPair('ES256'),
      ]);
      const uri = await site.start();
      site.serve([await publicJwk(k1, 'k1', 'ES256')]);
      const secretKeeper = 'an-unused-secret-of-a-key-client-32-bytes';
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [
          PUBLIC_CLIENT,
          { ...CONFIDENTIAL_CLIENT, grant_types: GRANTS },
          {
            client_id: 'pkj-uri',
            type: 'confidential',
            client_secret: secretKeeper,
            token_endpoint_auth_method: 'private_key_jwt',
            jwks_uri: uri,
            allowed_callback_urls: [CB],
            grant_types: GRANTS,
          },
          {
            client_id: 'pkj-jwks',
            type: 'confidential',
            client_secret: secretKeeper,
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: { keys: [await publicJwk(ed, 'ed1')] },
            allowed_callback_urls: [CB],
            grant_types: GRANTS,
          },
          {
            client_id: 'pkj-gone',
            type: 'confidential',
            client_secret: secretKeeper,
            token_endpoint_auth_method: 'private_key_jwt',
            jwks_uri: uri.replace('/jwks.json', '/gone.json').replace(/:\d+\//, ':1/'),
            allowed_callback_urls: [CB],
            grant_types: GRANTS,
          },
          {
            client_id: 'csj',
            type: 'confidential',
            client_secret: CSJ_SECRET,
            token_endpoint_auth_method: 'client_secret_jwt',
            allowed_callback_urls: [CB],
            grant_types: GRANTS,
          },
        ],
      });
    });
    after(async () => {
      await ward.close();
      site.server.close();
    });

    /** Ward's clock is a fake one, made at its start: brought to the real time the client signs with. */
    const syncClock = () => {
      const behind = Date.now() - ward.clock.now();
      if (behind > 0) ward.clock.advance(behind);
    };
    const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
    async function configFor(clientId: string, auth: client.ClientAuth, metadata?: Partial<client.ClientMetadata>) {
      const config = await client.discovery(new URL(ward.url), clientId, metadata, auth, {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      return config;
    }
    /** A code through the password login (test/helpers/oauth.ts), redeemed by openid-client. */
    async function codeFlow(config: client.Configuration, clientId: string) {
      const flow = await codeFor(ward, { clientId, redirectUri: CB, scope: 'openid profile offline_access' });
      return client.authorizationCodeGrant(config, flow.location, {
        pkceCodeVerifier: flow.verifier,
        expectedState: 'st-1',
      });
    }

    /** An assertion signed by hand, to say exactly what it claims. */
    async function assertion(
      opts: {
        clientId?: string;
        key?: Pair['privateKey'] | Uint8Array;
        alg?: string;
        kid?: string;
        claims?: Record<string, unknown>;
        omit?: string[];
      } = {},
    ): Promise<string> {
      const id = opts.clientId ?? 'pkj-jwks';
      const now = Math.floor(ward.clock.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: id,
        sub: id,
        aud: ward.issuer,
        jti: randomUUID(),
        iat: now,
        exp: now + 60,
        ...opts.claims,
      };
      for (const k of opts.omit ?? []) delete claims[k];
      return new SignJWT(claims)
        .setProtectedHeader({ alg: opts.alg ?? 'EdDSA', kid: opts.kid ?? 'ed1' })
        .sign(opts.key ?? ed.privateKey);
    }
    const withAssertion = (a: string, extra: Record<string, string> = {}) =>
      tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_assertion_type: TYPE,
        client_assertion: a,
        ...extra,
      });
    const refused = async (a: string, why: RegExp, extra: Record<string, string> = {}) => {
      const body = await expectError(await withAssertion(a, extra), 401, 'invalid_client');
      assert.match(String(body.error_description), why);
    };

    it('discovery lists the methods and their algorithms at both addresses', async () => {
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const meta = (await (await ward.fetch(path)).json()) as Record<string, string[]>;
        for (const field of ['token_endpoint', 'introspection_endpoint', 'revocation_endpoint']) {
          const methods = meta[`${field}_auth_methods_supported`]!;
          assert.ok(methods.includes('private_key_jwt') && methods.includes('client_secret_jwt'), `${path} ${field}`);
          const algs = meta[`${field}_auth_signing_alg_values_supported`]!;
          for (const alg of ['ES256', 'PS256', 'EdDSA', 'RS256', 'HS256']) assert.ok(algs.includes(alg), alg);
          assert.ok(!algs.includes('none'));
        }
      }
    });

    it('private_key_jwt with a jwks_uri: openid-client runs the code flow, refresh, introspection, revocation', async () => {
      syncClock();
      const config = await configFor('pkj-uri', client.PrivateKeyJwt({ key: k1.privateKey, kid: 'k1' }));
      const tokens = await codeFlow(config, 'pkj-uri');
      assert.equal(typeof tokens.access_token, 'string');
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      const seen = await client.tokenIntrospection(config, refreshed.access_token);
      assert.equal(seen.active, true);
      assert.equal(seen.client_id, 'pkj-uri');
      await client.tokenRevocation(config, refreshed.access_token, { token_type_hint: 'access_token' });
      assert.equal((await client.tokenIntrospection(config, refreshed.access_token)).active, false);
      assert.equal(site.hits(), 1, 'the key set was fetched once and kept');
    });

    it('fetches the jwks_uri again for an unknown kid (a rotated key), at most once in a while', async () => {
      syncClock();
      site.serve([await publicJwk(k2, 'k2', 'PS256')]);
      // Within the cooldown after the last fetch, an unknown kid is not worth a fetch.
      const early = await configFor('pkj-uri', client.PrivateKeyJwt({ key: k2.privateKey, kid: 'k2' }));
      await assert.rejects(client.clientCredentialsGrant(early), invalidClient);
      assert.equal(site.hits(), 1);
      ward.clock.advance(31_000);
      const config = await configFor('pkj-uri', client.PrivateKeyJwt({ key: k2.privateKey, kid: 'k2' }));
      const tokens = await client.clientCredentialsGrant(config);
      assert.equal(typeof tokens.access_token, 'string');
      assert.equal(site.hits(), 2, 'fetched again once for the new kid');
      // The retired key is refused now.
      const old = await configFor('pkj-uri', client.PrivateKeyJwt({ key: k1.privateKey, kid: 'k1' }));
      await assert.rejects(client.clientCredentialsGrant(old), invalidClient);
      assert.equal(site.hits(), 2, 'the cooldown holds another fetch back');
    });

    it('private_key_jwt with inline jwks (EdDSA): the code flow with openid-client', async () => {
      syncClock();
      const config = await configFor('pkj-jwks', client.PrivateKeyJwt({ key: ed.privateKey, kid: 'ed1' }));
      const tokens = await codeFlow(config, 'pkj-jwks');
      assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, true);
    });

    it('client_secret_jwt: openid-client signs with the secret (HS256), the code flow and introspection', async () => {
      syncClock();
      const config = await configFor('csj', client.ClientSecretJwt(CSJ_SECRET));
      const tokens = await codeFlow(config, 'csj');
      assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, true);
      await client.tokenRevocation(config, tokens.refresh_token!);
      // Its secret alone is not its method.
      await expectError(
        await tokenRequest(ward, { grant_type: 'client_credentials' }, { authorization: basic('csj', CSJ_SECRET) }),
        401,
        'invalid_client',
      );
      // HS512 with the secret works too; a wrong secret does not.
      const secret = new TextEncoder().encode(CSJ_SECRET);
      await expectTokens(await withAssertion(await assertion({ clientId: 'csj', key: secret, alg: 'HS512' })));
      await refused(
        await assertion({ clientId: 'csj', key: new TextEncoder().encode(`${CSJ_SECRET}x`), alg: 'HS256' }),
        /signature/,
      );
    });

    it('accepts the issuer or the token endpoint as aud, one value only', async () => {
      syncClock();
      await expectTokens(await withAssertion(await assertion()));
      await expectTokens(await withAssertion(await assertion({ claims: { aud: `${ward.issuer}/oauth/token` } })));
      await expectTokens(await withAssertion(await assertion({ claims: { aud: [ward.issuer] } })));
      await refused(await assertion({ claims: { aud: 'https://other.example' } }), /aud/);
      await refused(await assertion({ claims: { aud: [ward.issuer, 'https://other.example'] } }), /aud/);
      await refused(await assertion({ claims: { aud: `${ward.issuer}/oauth/introspect` } }), /aud/);
      await refused(await assertion({ omit: ['aud'] }), /aud/);
    });

    it('refuses a replayed assertion (the same jti), on this process and by the store', async () => {
      syncClock();
      const a = await assertion();
      await expectTokens(await withAssertion(a));
      await refused(a, /already used/);
      // Another assertion with the same jti is a replay too.
      const jti = randomUUID();
      await expectTokens(await withAssertion(await assertion({ claims: { jti } })));
      await refused(await assertion({ claims: { jti } }), /already used/);
      await refused(await assertion({ omit: ['jti'] }), /jti/);
    });

    it('refuses an expired assertion, one without exp, and one valid for too long', async () => {
      syncClock();
      const now = Math.floor(ward.clock.now() / 1000);
      await refused(await assertion({ claims: { iat: now - 600, exp: now - 120 } }), /expired/);
      await refused(await assertion({ omit: ['exp'] }), /exp/);
      await refused(await assertion({ claims: { exp: now + 3600 } }), /exp/);
      await refused(await assertion({ claims: { nbf: now + 600, exp: now + 660 } }), /nbf/);
    });

    it('refuses a key Ward does not know, alg none, HS256 for a key client, and iss other than sub', async () => {
      syncClock();
      await refused(await assertion({ key: stranger.privateKey, alg: 'ES256', kid: 'ed1' }), /key|signature/);
      await refused(await assertion({ key: stranger.privateKey, alg: 'ES256', kid: 'nope' }), /key/);
      const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
      const now = Math.floor(ward.clock.now() / 1000);
      const payload = Buffer.from(
        JSON.stringify({ iss: 'pkj-jwks', sub: 'pkj-jwks', aud: ward.issuer, jti: randomUUID(), exp: now + 60 }),
      ).toString('base64url');
      await refused(`${header}.${payload}.`, /alg|malformed/);
      await refused(
        await assertion({ key: new TextEncoder().encode('an-unused-secret-of-a-key-client-32-bytes'), alg: 'HS256' }),
        /alg/,
      );
      await refused(await assertion({ claims: { iss: 'pkj-uri' } }), /iss and sub/);
      await refused('not-a-jwt', /not a JWT/);
      await refused(await assertion(), /client_id differs/, { client_id: 'pkj-uri' });
    });

    it('refuses, with the reason, a client whose jwks_uri cannot be fetched', async () => {
      syncClock();
      const a = await assertion({ clientId: 'pkj-gone', key: k1.privateKey, alg: 'ES256', kid: 'k1' });
      await refused(a, /jwks_uri could not be fetched/);
    });

    it('a client uses only its registered method', async () => {
      syncClock();
      // A client registered for its secret, with an assertion (signed with its secret, as client_secret_jwt would).
      const secret = new TextEncoder().encode(CONFIDENTIAL_SECRET);
      await refused(
        await assertion({ clientId: 'backend', key: secret, alg: 'HS256' }),
        /not registered for client assertions/,
      );
      // A public client has no credentials at all.
      await refused(await assertion({ clientId: 'spa' }), /not registered for client assertions/);
      // A private_key_jwt client with its (stored) secret, Basic or in the body.
      const keeper = 'an-unused-secret-of-a-key-client-32-bytes';
      for (const res of [
        await tokenRequest(ward, { grant_type: 'client_credentials' }, { authorization: basic('pkj-jwks', keeper) }),
        await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'pkj-jwks', client_secret: keeper }),
      ]) {
        const body = await expectError(res, 401, 'invalid_client');
        assert.match(String(body.error_description), /private_key_jwt/);
      }
    });

    it('refuses two methods at once and a malformed assertion request with invalid_request', async () => {
      syncClock();
      const a = await assertion();
      await expectError(await withAssertion(a, { client_secret: 'x'.repeat(40) }), 400, 'invalid_request');
      await expectError(
        await tokenRequest(
          ward,
          { grant_type: 'client_credentials', client_assertion_type: TYPE, client_assertion: a },
          { authorization: basic('pkj-jwks', 'x'.repeat(40)) },
        ),
        400,
        'invalid_request',
      );
      await expectError(
        await tokenRequest(ward, {
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
          client_assertion: a,
        }),
        400,
        'invalid_request',
      );
      await expectError(
        await tokenRequest(ward, { grant_type: 'client_credentials', client_assertion: a }),
        400,
        'invalid_request',
      );
      // None of these used the assertion up.
      await expectTokens(await withAssertion(a));
    });

    it('authenticates at introspection and revocation with an assertion, and refuses a replay there', async () => {
      syncClock();
      const { access_token: token } = await expectTokens(await withAssertion(await assertion()));
      const post = (path: string, form: Record<string, string>) =>
        ward.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
      const a = await assertion();
      const seen = await post('/oauth/introspect', { token: token!, client_assertion_type: TYPE, client_assertion: a });
      assert.equal(seen.status, 200);
      assert.equal(((await seen.json()) as { active: boolean }).active, true);
      await expectError(
        await post('/oauth/introspect', { token: token!, client_assertion_type: TYPE, client_assertion: a }),
        401,
        'invalid_client',
      );
      const revoked = await post('/oauth/revoke', {
        token: token!,
        client_assertion_type: TYPE,
        client_assertion: await assertion(),
      });
      assert.equal(revoked.status, 200);
      const after = await post('/oauth/introspect', {
        token: token!,
        client_assertion_type: TYPE,
        client_assertion: await assertion(),
      });
      assert.equal(((await after.json()) as { active: boolean }).active, false);
    });
  });
}

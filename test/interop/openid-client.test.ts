// openid-client (a certified relying party library): discovery, the code flow with PKCE through
// Ward's hosted login page, userinfo with the subject check, revocation (RFC 7009), introspection
// (RFC 7662) by the client itself and by a resource server; an ES256 and an EdDSA client whose id tokens
// openid-client verifies against Ward's JWKS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const RESOURCE_SERVER = { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET };
const ES_CLIENT = { ...PUBLIC_CLIENT, client_id: 'spa-es', jwt_algorithm: 'ES256' };
const ED_CLIENT = { ...PUBLIC_CLIENT, client_id: 'spa-ed', jwt_algorithm: 'EdDSA' };
type Kind = 'public' | 'confidential' | 'ES256' | 'EdDSA';

describe('openid-client against Ward', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, RESOURCE_SERVER, ES_CLIENT, ED_CLIENT] });
  });
  after(() => ward.close());

  const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;

  /** Discovery, then code + PKCE through the login page, as a relying party does it. */
  async function signIn(kind: Kind, scope = 'openid profile email') {
    const user = await signup(ward);
    const confidential = kind === 'confidential';
    const clientId = { public: 'spa', confidential: 'backend', ES256: 'spa-es', EdDSA: 'spa-ed' }[kind];
    const redirectUri = confidential ? 'https://api.example/cb' : 'https://app.example/cb';
    // openid-client verifies the signature of an id token it was told the algorithm of (not HS256).
    const metadata = confidential
      ? { client_secret: CONFIDENTIAL_SECRET, id_token_signed_response_alg: 'HS256' }
      : kind === 'public'
        ? undefined
        : { id_token_signed_response_alg: kind };
    const config = await client.discovery(
      new URL(ward.url),
      clientId,
      metadata,
      confidential ? client.ClientSecretBasic(CONFIDENTIAL_SECRET) : client.None(),
      { [client.customFetch]: tlsFetch },
    );
    config[client.customFetch] = tlsFetch;
    if (kind === 'ES256' || kind === 'EdDSA') client.enableNonRepudiationChecks(config);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = new Browser(ward);
    const page = await browser.get(url.toString());
    assert.equal(page.status, 200);
    const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
    assert.equal(posted.status, 303);
    const tokens = await client.authorizationCodeGrant(config, location(posted), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    return { user, config, tokens };
  }

  for (const alg of ['ES256', 'EdDSA'] as const) {
    it(`verifies an ${alg} id token against the JWKS (id_token_signed_response_alg ${alg})`, async () => {
      const { user, config, tokens } = await signIn(alg);
      assert.equal(config.serverMetadata().id_token_signing_alg_values_supported?.includes(alg), true);
      const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()) as {
        alg: string;
      };
      assert.equal(header.alg, alg);
      assert.equal(tokens.claims()!.sub, user.id);
      // enableNonRepudiationChecks: openid-client verified the signature with the key it fetched from /jwks.json.
      const kid = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).kid as string;
      const cached = client.getJwksCache(config)?.jwks.keys ?? [];
      assert.ok(
        cached.some((k) => k.kid === kid && k.alg === alg),
        'the signing key came from the JWKS',
      );
    });
  }

  for (const kind of ['public', 'confidential'] as const) {
    it(`runs discovery, code + PKCE through the login page, and userinfo (${kind} client)`, async () => {
      const { user, config, tokens } = await signIn(kind);
      const claims = tokens.claims()!;
      assert.equal(claims.sub, user.id);
      assert.equal(claims.iss, ward.url);
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.equal(info.email, user.email);
    });

    // oauth4webapi accepts only RFC 7009's 200 from the revocation endpoint.
    it(`revokes an access token, then a refresh token and its family with tokenRevocation (${kind})`, async () => {
      const { config, tokens } = await signIn(kind, 'openid profile email offline_access');
      const sub = tokens.claims()!.sub;
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      await client.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
      await assert.rejects(client.fetchUserInfo(config, tokens.access_token, sub), 'the revoked token is refused');
      assert.equal((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub, sub, 'the grant lives on');
      await client.tokenRevocation(config, refreshed.refresh_token!);
      await assert.rejects(client.fetchUserInfo(config, refreshed.access_token, sub), "the family's token is refused");
      await assert.rejects(client.refreshTokenGrant(config, refreshed.refresh_token!), 'the refresh token is refused');
      await client.tokenRevocation(config, 'an-unknown-token');
    });
  }

  it('introspects with tokenIntrospection: the client its own tokens, a resource server the access token', async () => {
    const { user, config, tokens } = await signIn('confidential', 'openid profile email offline_access');
    const own = await client.tokenIntrospection(config, tokens.access_token);
    assert.equal(own.active, true);
    assert.equal(own.sub, user.id);
    assert.equal(own.client_id, 'backend');
    assert.equal(own.iss, ward.url);
    assert.equal(own.token_type, 'Bearer');
    assert.equal((await client.tokenIntrospection(config, tokens.refresh_token!)).active, true);

    // A resource server: its own discovery and secret, nothing else.
    const api = await client.discovery(
      new URL(ward.url),
      'orders-api',
      undefined,
      client.ClientSecretBasic(API_SECRET),
      {
        [client.customFetch]: tlsFetch,
      },
    );
    api[client.customFetch] = tlsFetch;
    const seen = await client.tokenIntrospection(api, tokens.access_token, { token_type_hint: 'access_token' });
    assert.equal(seen.active, true);
    assert.equal(seen.sub, user.id);
    assert.equal(seen.scope, 'openid profile email offline_access');
    assert.equal(seen.username, user.email);
    assert.ok(typeof seen.exp === 'number' && seen.exp > Date.now() / 1000);
    assert.deepEqual(await client.tokenIntrospection(api, tokens.refresh_token!), { active: false });

    await client.tokenRevocation(config, tokens.access_token);
    assert.deepEqual(await client.tokenIntrospection(api, tokens.access_token), { active: false });
    assert.deepEqual(await client.tokenIntrospection(api, 'garbage'), { active: false });
  });
});

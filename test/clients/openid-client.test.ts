// openid-client (a certified relying party library): discovery, the code flow with PKCE through
// Ward's hosted login page, userinfo with the subject check, revocation (RFC 7009), and introspection
// (RFC 7662) by the client itself and by a resource server.
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

describe('openid-client against Ward', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, RESOURCE_SERVER] });
  });
  after(() => ward.close());

  const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;

  /** Discovery, then code + PKCE through the login page, as a relying party does it. */
  async function signIn(kind: 'public' | 'confidential', scope = 'openid profile email') {
    const user = await signup(ward);
    const clientId = kind === 'public' ? 'spa' : 'backend';
    const redirectUri = kind === 'public' ? 'https://app.example/cb' : 'https://api.example/cb';
    const metadata =
      kind === 'public' ? undefined : { client_secret: CONFIDENTIAL_SECRET, id_token_signed_response_alg: 'HS256' };
    const config = await client.discovery(
      new URL(ward.url),
      clientId,
      metadata,
      kind === 'public' ? client.None() : client.ClientSecretBasic(CONFIDENTIAL_SECRET),
      { [client.customFetch]: tlsFetch },
    );
    config[client.customFetch] = tlsFetch;
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

// openid-client (a certified relying party library): discovery, the code flow with PKCE through
// Ward's hosted login page, and userinfo with the subject check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

/** Fills and posts the hosted login form found in an authorize response. */
export async function submitLoginPage(browser: Browser, html: string, email: string, password: string) {
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return browser.postForm('/oauth/authorize/login', {
    request: field('request')!,
    csrf: field('csrf')!,
    email,
    password,
  });
}

describe('openid-client against Ward', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
  });
  after(() => ward.close());

  const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;

  for (const kind of ['public', 'confidential'] as const) {
    it(`runs discovery, code + PKCE through the login page, and userinfo (${kind} client)`, async () => {
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
        scope: 'openid profile email',
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
      const claims = tokens.claims()!;
      assert.equal(claims.sub, user.id);
      assert.equal(claims.iss, ward.url);
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.equal(info.email, user.email);
    });
  }
});

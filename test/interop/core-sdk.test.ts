// The unmodified ReachFive Core SDK (@reachfive/identity-core) against a listening Ward over TLS:
// signup, loginWithPassword (public client: the redirect to /oauth/authorize followed to the code,
// then exchangeAuthorizationCodeWithPkce), a confidential client, getUser, refreshTokens, logout, and
// the password grant of a client that opted in: loginWithCredentials (the Credential Management API)
// and loginWithPassword in Cordova mode; getPasswordStrength and the password policy at signup.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, location, tokenRequest } from '../helpers/oauth.js';
import { giveFactors } from '../helpers/mfa.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
type Sdk = typeof import('@reachfive/identity-core');

describe('ReachFive Core SDK against Ward', () => {
  let ward: TestWard;
  let page: SdkPage;
  let sdk: Sdk;
  before(async () => {
    ward = await startWard({
      clients: [
        {
          client_id: 'shop-web',
          name: 'Shop',
          type: 'public',
          jwt_algorithm: 'RS256',
          allowed_callback_urls: [CALLBACK],
          allowed_origins: [ORIGIN],
          sso: true,
        },
        {
          client_id: 'shop-app',
          name: 'Shop app',
          type: 'public',
          allowed_callback_urls: [CALLBACK],
          allowed_origins: [ORIGIN],
          grant_types: ['authorization_code', 'refresh_token', 'password'],
        },
        {
          ...CONFIDENTIAL_CLIENT,
          allowed_callback_urls: [...CONFIDENTIAL_CLIENT.allowed_callback_urls, CALLBACK],
          allowed_origins: [ORIGIN],
        },
      ],
    });
    page = installBrowserShims(ward, ORIGIN);
    sdk = await import('@reachfive/identity-core');
  });
  after(() => ward.close());

  const domain = () => new URL(ward.url).host;

  /** Follows the SDK's navigation to /oauth/authorize in the same cookie jar, up to the callback. */
  async function followToCallback(authorizeUrl: string): Promise<URL> {
    assert.ok(authorizeUrl.startsWith(`${ward.url}/oauth/authorize?`), authorizeUrl);
    const res = await page.browser.get(authorizeUrl);
    assert.equal(res.status, 302, await res.text());
    const loc = location(res);
    assert.equal(`${loc.origin}${loc.pathname}`, CALLBACK);
    return loc;
  }

  it('signs up, logs in with a password, exchanges the code with PKCE, reads the user, refreshes, logs out', async () => {
    const client = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
    const email = `sdk-${Date.now()}@example.com`;
    const password = 'a long enough password';

    // signup: POST /identity/v1/signup then the redirect through /oauth/authorize with the tkn.
    let nav = page.nextNavigation();
    await client.signup({
      data: { email, password, givenName: 'Grace', familyName: 'Hopper' },
      auth: { redirectUri: CALLBACK },
    });
    const signupCallback = await followToCallback(await nav);
    assert.ok(signupCallback.searchParams.get('code'));

    // loginWithPassword with a refresh token asked for.
    nav = page.nextNavigation();
    await client.loginWithPassword({ email, password, auth: { redirectUri: CALLBACK, requireRefreshToken: true } });
    const authorizeUrl = new URL(await nav);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorizeUrl.searchParams.get('tkn'));
    const callback = await followToCallback(authorizeUrl.toString());
    const code = callback.searchParams.get('code')!;

    const auth = await client.exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK });
    assert.ok(auth.accessToken);
    assert.ok(auth.refreshToken);
    assert.equal(auth.tokenType, 'Bearer');
    assert.equal(auth.expiresIn, 3600);
    assert.equal(auth.idTokenPayload?.email, email);
    assert.equal(auth.idTokenPayload?.givenName, 'Grace');

    const user = await client.getUser({ accessToken: auth.accessToken!, fields: 'email,given_name' });
    assert.equal((user as Record<string, unknown>).email, email);

    const refreshed = await client.refreshTokens({ refreshToken: auth.refreshToken! });
    assert.ok(refreshed.accessToken && refreshed.accessToken !== auth.accessToken);
    assert.ok(refreshed.refreshToken && refreshed.refreshToken !== auth.refreshToken);
    // The old refresh token is spent: using it again is refused (and revokes the family).
    await assert.rejects(
      client.refreshTokens({ refreshToken: auth.refreshToken! }),
      (e: { error?: string; errorMessageKey?: string }) => e.error === 'invalid_grant' && !!e.errorMessageKey,
    );

    // The SSO session is visible to the SDK, then logout ends it.
    const session = await client.getSessionInfo();
    assert.equal(session.isAuthenticated, true);
    nav = page.nextNavigation();
    await client.logout({ redirectTo: CALLBACK });
    const logoutRes = await page.browser.get(await nav);
    assert.equal(logoutRes.status, 302);
    assert.equal(location(logoutRes).toString(), CALLBACK);
    assert.equal((await client.getSessionInfo()).isAuthenticated, false);
  });

  it('reports a wrong password with the error body the SDK expects', async () => {
    const client = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
    await assert.rejects(
      client.loginWithPassword({
        email: 'nobody@example.com',
        password: 'wrong password',
        auth: { redirectUri: CALLBACK },
      }),
      (e: { error?: string; errorMessageKey?: string }) =>
        e.error === 'invalid_grant' && e.errorMessageKey === 'error.invalidEmailOrPassword',
    );
  });

  /** A signed-up user (through the SDK) for the password-grant tests. */
  async function newUser(): Promise<{ email: string; password: string }> {
    const web = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
    const email = `ropc-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const password = 'a password for the password grant';
    const nav = page.nextNavigation();
    await web.signup({ data: { email, password }, auth: { redirectUri: CALLBACK } });
    await nav;
    return { email, password };
  }

  /** The Credential Management API of a browser that has the user's password stored. */
  function storedCredential(id: string, password: string): () => void {
    const nav = globalThis.navigator as { credentials?: unknown };
    nav.credentials = { get: async () => ({ type: 'password', id, password }) };
    return () => delete nav.credentials;
  }

  it('loginWithCredentials: the stored password goes to the password grant, and tokens come back', async () => {
    const { email, password } = await newUser();
    const restore = storedCredential(email, password);
    try {
      const client = sdk.createClient({ domain: domain(), clientId: 'shop-app' });
      const auth = await client.loginWithCredentials({ auth: { requireRefreshToken: true } });
      assert.ok(auth.accessToken);
      assert.ok(auth.refreshToken, 'offline_access asked by requireRefreshToken');
      assert.equal(auth.idTokenPayload?.email, email);
      const user = await client.getUser({ accessToken: auth.accessToken!, fields: 'email' });
      assert.equal((user as Record<string, unknown>).email, email);
      const refreshed = await client.refreshTokens({ refreshToken: auth.refreshToken! });
      assert.ok(refreshed.accessToken);

      // A client that did not opt in: the SDK gets unauthorized_client.
      const web = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
      await assert.rejects(
        web.loginWithCredentials({}),
        (e: { error?: string; errorMessageKey?: string }) =>
          e.error === 'unauthorized_client' && e.errorMessageKey === 'error.unauthorizedClient',
      );
    } finally {
      restore();
    }
  });

  it('loginWithCredentials: a wrong stored password gets the sign-in error body', async () => {
    const { email } = await newUser();
    const restore = storedCredential(email, 'not the right password');
    try {
      const client = sdk.createClient({ domain: domain(), clientId: 'shop-app' });
      await assert.rejects(
        client.loginWithCredentials({}),
        (e: { error?: string; errorMessageKey?: string }) =>
          e.error === 'invalid_grant' && e.errorMessageKey === 'error.invalidEmailOrPassword',
      );
    } finally {
      restore();
    }
  });

  it('loginWithPassword in Cordova mode uses the password grant; a user who needs a second factor gets mfa_required', async () => {
    const { email, password } = await newUser();
    const win = globalThis.window as unknown as { cordova?: unknown };
    win.cordova = {};
    try {
      const client = sdk.createClient({ domain: domain(), clientId: 'shop-app' });
      const auth = (await client.loginWithPassword({ email, password, auth: {} })) as unknown as {
        accessToken?: string;
        idTokenPayload?: { email?: string };
      };
      assert.ok(auth.accessToken, 'tokens, not a navigation');
      assert.equal(auth.idTokenPayload?.email, email);

      const user = await ward.registry.storage.users.findByEmail(email);
      await giveFactors(ward, user!.id, { email });
      ward.setAccount({ mfa_required: 'always' });
      try {
        const again = sdk.createClient({ domain: domain(), clientId: 'shop-app' });
        await assert.rejects(
          again.loginWithPassword({ email, password, auth: {} }),
          (e: { error?: string; errorMessageKey?: string }) =>
            e.error === 'mfa_required' && e.errorMessageKey === 'error.mfa.required',
        );
      } finally {
        ward.setAccount({ mfa_required: 'never' });
      }
    } finally {
      delete win.cordova;
    }
  });

  it('logs in for a confidential client: the code goes to the backend, which redeems it with its secret', async () => {
    const web = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
    const email = `conf-${Date.now()}@example.com`;
    const password = 'another good password';
    let nav = page.nextNavigation();
    await web.signup({ data: { email, password }, auth: { redirectUri: CALLBACK } });
    await nav;

    const client = sdk.createClient({ domain: domain(), clientId: 'backend' });
    nav = page.nextNavigation();
    await client.loginWithPassword({ email, password, auth: { redirectUri: CALLBACK } });
    const authorizeUrl = new URL(await nav);
    assert.equal(
      authorizeUrl.searchParams.get('code_challenge'),
      null,
      'no PKCE from the SDK for a confidential client',
    );
    const callback = await followToCallback(authorizeUrl.toString());
    const res = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: CALLBACK,
      client_id: 'backend',
      client_secret: CONFIDENTIAL_SECRET,
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id_token: string };
    assert.equal(decodeJwt(body.id_token).email, email);
  });

  it('getPasswordStrength answers the score as the user types; signup refuses a weak password with the policy error', async () => {
    const client = sdk.createClient({ domain: domain(), clientId: 'shop-web' });
    const typed = ['p', 'passw', 'password', 'parapluie', 'correct horse battery'];
    const scores = [];
    for (const password of typed) scores.push((await client.getPasswordStrength(password)).score);
    // "passw" is random enough for a 1; "password", a common password, falls back to 0.
    assert.deepEqual(scores, [0, 1, 0, 1, 4]);

    const email = `weak-${Date.now()}@example.com`;
    await assert.rejects(
      client.signup({ data: { email, password: 'password' }, auth: { redirectUri: CALLBACK } }),
      (e: { error?: string; errorMessageKey?: string; errorUserMsg?: string; errorDetails?: unknown }) => {
        assert.equal(e.error, 'invalid_request');
        assert.equal(e.errorMessageKey, 'error.password.tooWeak');
        assert.equal(e.errorUserMsg, 'The password is one of the most common passwords');
        assert.deepEqual(e.errorDetails, [
          { field: 'data.password', message: 'is one of the most common passwords', code: 'too_common' },
        ]);
        return true;
      },
    );
    assert.equal(await ward.registry.storage.users.findByEmail(email), undefined);
  });
});

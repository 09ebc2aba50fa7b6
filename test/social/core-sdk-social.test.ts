// The unmodified ReachFive Core SDK's loginWithSocialProvider in redirect mode against Ward and a
// real upstream provider (oidc-provider as "corp-idp", test/helpers/corp-idp.ts): the SDK reads the
// providers from the remote config and navigates to /oauth/authorize?...&provider=corp-idp with PKCE;
// the same cookie jar goes through the provider's login and consent and back to Ward's callback, then
// to the application's redirectUri with a code the SDK exchanges (exchangeAuthorizationCodeWithPkce).
// The SSO session that results is the SDK's; a refusal at the provider reaches the app as access_denied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openCorpIdp, throughCorpIdp, type CorpIdp } from '../helpers/corp-idp.js';
import { location } from '../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
type Sdk = typeof import('@reachfive/identity-core');

describe('Core SDK loginWithSocialProvider (redirect mode) through corp-idp', { timeout: 60_000 }, () => {
  let idp: CorpIdp;
  let ward: TestWard;
  let page: SdkPage;
  let sdk: Sdk;
  before(async () => {
    idp = await openCorpIdp();
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
          scope: 'openid email profile',
        },
      ],
      socialProviders: [
        {
          name: 'corp-idp',
          type: 'oidc',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          label: 'Corp IdP',
        },
      ],
    });
    await idp.register([`${ward.url}/identity/v1/oauth/callback/corp-idp`]);
    page = installBrowserShims(ward, ORIGIN);
    sdk = await import('@reachfive/identity-core');
  });
  after(async () => {
    await ward?.close();
    await idp?.close();
  });

  const client = () => sdk.createClient({ domain: new URL(ward.url).host, clientId: 'shop-web' });

  it('logs in with the provider and exchanges the code with PKCE; the SSO session knows the provider', async () => {
    idp.accounts.set('dana', {
      email: 'dana@corp.example',
      email_verified: true,
      given_name: 'Dana',
      family_name: 'Corp',
    });
    const c = client();
    const nav = page.nextNavigation();
    await c.loginWithSocialProvider('corp-idp', { redirectUri: CALLBACK });
    const authorize = new URL(await nav);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${ward.url}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('provider'), 'corp-idp');
    assert.equal(authorize.searchParams.get('client_id'), 'shop-web');
    assert.equal(authorize.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');

    const { upstream, pages, res } = await throughCorpIdp(page.browser, authorize.toString(), { login: 'dana' });
    assert.equal(upstream.origin, idp.issuer);
    assert.deepEqual(pages, ['login', 'consent']);
    assert.equal(res.status, 302, await res.clone().text());
    const back = location(res);
    assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
    const code = back.searchParams.get('code');
    assert.ok(code, back.toString());

    const auth = await c.exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK });
    assert.ok(auth.accessToken);
    assert.equal(auth.tokenType, 'Bearer');
    const claims = auth.idTokenPayload as Record<string, unknown>;
    assert.equal(claims.email, 'dana@corp.example');
    assert.equal(claims.givenName, 'Dana');
    assert.equal(claims.familyName, 'Corp');
    assert.equal(claims.authType, 'corp-idp');
    const user = (await c.getUser({ accessToken: auth.accessToken!, fields: 'email,given_name' })) as Record<
      string,
      unknown
    >;
    assert.equal(user.email, 'dana@corp.example');

    const session = (await c.getSessionInfo()) as { isAuthenticated: boolean; socialProviders?: string[] };
    assert.equal(session.isAuthenticated, true);
    assert.deepEqual(session.socialProviders, ['corp-idp']);
    // A code is single use, the verifier was the SDK's: a second exchange is refused.
    await assert.rejects(
      c.exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK }),
      (e: { error?: string }) => e.error === 'invalid_grant',
    );
  });

  it('brings a refusal at the provider back to the application as error=access_denied, no code', async () => {
    idp.accounts.set('erin', {
      email: 'erin@corp.example',
      email_verified: true,
      given_name: 'Erin',
      family_name: 'Corp',
    });
    await page.browser.jar.removeAllCookies(); // no session at the provider from the test before
    const nav = page.nextNavigation();
    await client().loginWithSocialProvider('corp-idp', { redirectUri: CALLBACK, state: 'sdk-state' });
    const { res, pages } = await throughCorpIdp(page.browser, await nav, { login: 'erin', cancel: true });
    assert.deepEqual(pages, ['login'], 'cancelled on the login page');
    const back = location(res);
    assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('code'), null);
    assert.equal(back.searchParams.get('state'), 'sdk-state');
  });
});

// Social login through Ward's hosted login page in headless Chromium (Debian's /usr/bin/chromium
// driven by playwright-core; no browser download): the page shows one button per provider; "Continue
// with Corp IdP" goes to oidc-provider (test/helpers/corp-idp.ts), whose login and consent forms are
// filled, and back through Ward to the client's redirect_uri with a code; "Continue with Tiny IdP"
// (test/helpers/tiny-idp.ts) comes back at once; Cancel at the provider lands with access_denied; an
// email the provider did not verify, when the account requires one, goes through "Complete your profile".
// The client app is fictional: https://app.example/** is answered by page.route. Loopback only
// (every other host name resolves to nothing). The login page is saved under test-artifacts/social/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { chromium, type Browser as Chromium, type BrowserContext, type Page } from 'playwright-core';
import { openCorpIdp, type CorpIdp } from '../helpers/corp-idp.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem } from '../helpers/oauth.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/social/', import.meta.url));

describe('social login on the hosted page in headless Chromium', { timeout: 120_000 }, () => {
  let idp: CorpIdp;
  let tiny: TinyIdp;
  let ward: TestWard;
  let browser: Chromium;
  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    idp = await openCorpIdp();
    tiny = await startTinyIdp();
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      socialProviders: [
        {
          name: 'corp-idp',
          type: 'oidc',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          label: 'Corp IdP',
        },
        {
          name: 'tiny',
          type: 'oidc',
          issuer: tiny.issuer,
          client_id: tiny.clientId,
          client_secret: tiny.clientSecret,
          label: 'Tiny IdP',
        },
      ],
    });
    await idp.register([`${ward.url}/identity/v1/oauth/callback/corp-idp`]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 30_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--ignore-certificate-errors',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await ward?.close();
    await idp?.close();
    await tiny?.close();
  });

  /** A fresh context (no cookies) whose fictional client app answers every https://app.example/ page. */
  async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(15_000);
    await context.route('https://app.example/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>App</title><h1>Signed in</h1>',
      }),
    );
    return { context, page: await context.newPage() };
  }

  /** Opens Ward's hosted login page for the client (code flow with PKCE). */
  async function openLoginPage(page: Page, state: string) {
    const pkce = pkcePair();
    await page.goto(
      ward.url +
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email profile',
          state,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
    );
    return pkce;
  }

  const landed = async (page: Page) => {
    await page.waitForURL((u) => u.origin === 'https://app.example');
    const u = new URL(page.url());
    assert.equal(u.pathname, '/cb');
    assert.equal(await page.locator('h1').textContent(), 'Signed in', 'the intercepted client page');
    return u;
  };

  it('shows a button per provider; Corp IdP: its login and consent forms, then the client gets a code', async () => {
    idp.accounts.set('frank', {
      email: 'frank@corp.example',
      email_verified: true,
      given_name: 'Frank',
      family_name: 'Corp',
    });
    const { context, page } = await freshPage();
    try {
      const pkce = await openLoginPage(page, 'st-chromium');
      const corp = page.getByRole('link', { name: 'Continue with Corp IdP' });
      await corp.waitFor();
      assert.equal(await page.getByRole('link', { name: 'Continue with Tiny IdP' }).count(), 1);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}login-page.png`, fullPage: true });

      await corp.click();
      await page.waitForURL(`${idp.issuer}/interaction/**`);
      await page.fill('input[name="login"]', 'frank');
      await page.fill('input[name="password"]', 'any password');
      await page.click('button[type="submit"]');
      await page.waitForURL(`${idp.issuer}/interaction/**`);
      await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: 'attached' });
      await page.click('button[type="submit"]');

      const cb = await landed(page);
      assert.equal(cb.searchParams.get('state'), 'st-chromium');
      assert.equal(cb.searchParams.get('error'), null, cb.toString());
      const { res, body } = await redeem(ward, cb.searchParams.get('code')!, pkce.verifier);
      assert.equal(res.status, 200);
      const claims = decodeJwt(body.id_token!);
      assert.equal(claims.email, 'frank@corp.example');
      assert.equal(claims.auth_type, 'corp-idp');
      assert.ok(
        (await context.cookies(ward.url)).some((c) => c.name === '__Host-ward_sso'),
        'an SSO session in the browser',
      );
    } finally {
      await context.close();
    }
  });

  it('Tiny IdP redirects back at once: the client gets a code', async () => {
    tiny.account = {
      sub: 'tiny-chromium',
      email: 'tiny.chromium@example.com',
      email_verified: true,
      given_name: 'Tina',
      family_name: 'Tiny',
    };
    const { context, page } = await freshPage();
    try {
      const pkce = await openLoginPage(page, 'st-tiny');
      await page.getByRole('link', { name: 'Continue with Tiny IdP' }).click();
      const cb = await landed(page);
      assert.equal(cb.searchParams.get('state'), 'st-tiny');
      const { body } = await redeem(ward, cb.searchParams.get('code')!, pkce.verifier);
      const claims = decodeJwt(body.id_token!);
      assert.equal(claims.email, 'tiny.chromium@example.com');
      assert.equal(claims.auth_type, 'tiny');
    } finally {
      await context.close();
    }
  });

  it('an unverified email when the account requires one: the completion page, then a code', async () => {
    tiny.account = {
      sub: 'tiny-unverified',
      email: 'unverified.chromium@example.com',
      email_verified: false,
      given_name: 'Una',
      family_name: 'Verified',
    };
    ward.setAccount({ social_signup: { email_required: true } });
    const { context, page } = await freshPage();
    try {
      const pkce = await openLoginPage(page, 'st-complete');
      await page.getByRole('link', { name: 'Continue with Tiny IdP' }).click();
      await page.waitForURL((u) => u.pathname === '/identity/v1/signup/complete');
      assert.equal(await page.locator('h1').textContent(), 'Complete your profile for Shop SPA');
      const email = page.getByLabel('Email');
      assert.equal(await email.inputValue(), 'unverified.chromium@example.com', "the provider's address, to confirm");
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}complete-profile.png`, fullPage: true });
      await email.fill('una@example.com');
      await page.getByRole('button', { name: 'Create my account' }).click();
      const cb = await landed(page);
      assert.equal(cb.searchParams.get('state'), 'st-complete');
      const { body } = await redeem(ward, cb.searchParams.get('code')!, pkce.verifier);
      const claims = decodeJwt(body.id_token!);
      assert.equal(claims.email, 'una@example.com');
      assert.equal(claims.email_verified, false);
      assert.equal(claims.given_name, 'Una');
    } finally {
      ward.setAccount({ social_signup: { email_required: false } });
      await context.close();
    }
  });

  it('Cancel at the provider lands on the client with error=access_denied and no code', async () => {
    const { context, page } = await freshPage();
    try {
      await openLoginPage(page, 'st-cancel');
      await page.getByRole('link', { name: 'Continue with Corp IdP' }).click();
      await page.waitForURL(`${idp.issuer}/interaction/**`);
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      const cb = await landed(page);
      assert.equal(cb.searchParams.get('error'), 'access_denied');
      assert.equal(cb.searchParams.get('code'), null);
      assert.equal(cb.searchParams.get('state'), 'st-cancel');
    } finally {
      await context.close();
    }
  });
});

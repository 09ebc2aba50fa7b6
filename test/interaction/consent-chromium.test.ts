// A third-party client's consent page in headless Chromium (issue 39 item 1), in English and French,
// on both engines: the user signs in on the hosted login page, sees the app's name and each scope in
// plain words, allows, and the app's callback gets a code that redeems; the next request of the same
// scopes goes straight back to the app; the user withdraws the access from the account page, and the
// page is shown again. The pages run under Ward's CSP with no script or console error.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

/** The partner app's site on loopback: its callback page answers, so each navigation ends there. */
async function partnerSite(): Promise<{ callback: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('app'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    callback: `http://127.0.0.1:${port}/cb`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const partnerClient = (callback: string) => ({
  client_id: 'partner',
  name: 'Partner Planner',
  type: 'public',
  allowed_callback_urls: [callback],
  sso: true,
  first_party: false,
  policy_uri: 'https://partner.example/privacy',
});

const LANGUAGES = {
  en: {
    accept: 'en-GB,en;q=0.9',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    heading: 'Partner Planner asks for access to your account',
    emailScope: /email address/i,
    allow: 'Allow',
    account: 'Your account',
    withdraw: 'Withdraw access',
  },
  fr: {
    accept: 'fr-FR,fr;q=0.9',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Me connecter',
    heading: 'Partner Planner demande l’accès à votre compte',
    emailScope: /adresse e-mail/i,
    allow: 'Autoriser',
    account: 'Votre compte',
    withdraw: 'Retirer l’accès',
  },
};

for (const engine of engines()) {
  describe(`the consent page in Chromium (${engine})`, { timeout: 180_000 }, () => {
    let ward: TestWard;
    let chromium: Chromium;
    let partner: Awaited<ReturnType<typeof partnerSite>>;
    let CB = '';
    before(async () => {
      partner = await partnerSite();
      CB = partner.callback;
      ward = await startWard({
        engine,
        issuerHost: 'id.ward.test',
        clients: [PUBLIC_CLIENT, partnerClient(CB)],
        account: { rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
      chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await ward?.close();
      await partner?.close();
    });

    for (const [language, t] of Object.entries(LANGUAGES)) {
      it(`signs in, allows, is not asked again, withdraws and is asked again (${language})`, async () => {
        const user = await signup(ward, 'spa');
        // Each language's user signs in afresh: no session of the one before.
        await chromium.context.clearCookies();
        const problems: string[] = [];
        /** A tab of the browser (its cookies shared), speaking the language, its errors collected. */
        const openTab = async () => {
          const tab = await chromium.context.newPage();
          tab.on('console', (m) => {
            if (m.type() === 'error') problems.push(m.text());
          });
          tab.on('pageerror', (e) => problems.push(e.message));
          await tab.setExtraHTTPHeaders({ 'accept-language': t.accept });
          return tab;
        };
        const page = await openTab();
        const authorize = async () => {
          const pkce = pkcePair();
          await page.goto(
            `${ward.issuer}/oauth/authorize?${new URLSearchParams({
              client_id: 'partner',
              response_type: 'code',
              redirect_uri: CB,
              scope: 'openid email',
              state: `st-${language}`,
              code_challenge: pkce.challenge,
              code_challenge_method: 'S256',
            })}`,
          );
          return pkce.verifier;
        };
        /** The code the app's callback page was given (the browser is there, or on its way). */
        const codeAtCallback = async () => {
          await page.waitForURL((u) => u.href.startsWith(CB));
          const url = new URL(page.url());
          assert.equal(url.searchParams.get('state'), `st-${language}`);
          return url.searchParams.get('code')!;
        };

        let verifier = await authorize();
        await page.getByLabel(t.email, { exact: true }).first().fill(user.email);
        await page.getByLabel(t.password, { exact: true }).fill(user.password);
        await page.getByRole('button', { name: t.signIn, exact: true }).click();
        await page.getByRole('heading', { name: t.heading }).waitFor();
        assert.equal(await page.locator('html').getAttribute('lang'), language);
        const scopes = await page.locator('ul.scopes li').allTextContents();
        assert.equal(scopes.length, 2, scopes.join(' | '));
        assert.ok(
          scopes.some((s) => t.emailScope.test(s)),
          scopes.join(' | '),
        );
        await page.getByRole('button', { name: t.allow, exact: true }).click();
        const { res, body } = await redeem(ward, await codeAtCallback(), verifier, 'partner', CB);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.scope, 'openid email');

        // The same scopes again: granted already, straight back to the app.
        verifier = await authorize();
        assert.equal((await redeem(ward, await codeAtCallback(), verifier, 'partner', CB)).res.status, 200);

        // Withdrawn from the account page: the consent page comes back.
        await page.goto(`${ward.issuer}/identity/v1/account?client_id=spa`);
        await page.getByRole('heading', { name: t.account, exact: true }).waitFor();
        const withdraw = page.locator('form[action$="/consents/revoke"] button');
        assert.equal((await withdraw.textContent())?.trim(), t.withdraw);
        await withdraw.click();
        await page.getByRole('heading', { name: t.account, exact: true }).waitFor();
        assert.equal(await ward.registry.storage.consents.find(user.id, 'partner'), undefined, 'withdrawn');
        await authorize();
        await page.getByRole('heading', { name: t.heading }).waitFor();
        assert.deepEqual(problems, []);
        await page.close();
      });
    }
  });
}

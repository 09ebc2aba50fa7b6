// Issue 38, item 4: a required enrolment answered with a security key in headless Chromium, with a
// DevTools virtual authenticator (a USB key without user verification). After the password the
// enrolment page offers the key; its ceremony runs on the page (the options bound to this sign-in), the
// recovery codes are shown once, and the sign-in ends at the client's callback with amr pwd, mfa, hwk.
// English and French, both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { addVirtualAuthenticator } from '../helpers/passkeys.js';
import { OPEN } from '../stepup/support.js';

for (const engine of engines()) {
  describe(`required enrolment with a security key in Chromium (${engine})`, { timeout: 120_000 }, () => {
    let m: MfaWard;
    let chromium: Chromium;
    before(async () => {
      m = await startMfaWard({
        engine,
        issuerHost: 'id.ward.test',
        clients: [PUBLIC_CLIENT],
        account: { ...OPEN, mfa_required: 'always', passkeys: { enabled: true, rp_id: 'id.ward.test' } },
      });
      m.ward.setAccount({ passkeys: { origins: [m.ward.issuer] } });
      chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await m?.close();
    });

    for (const [lang, offer] of [
      ['en', 'Use a security key or passkey instead'],
      ['fr', 'Utiliser plutôt une clé de sécurité ou une clé d’accès'],
    ] as const)
      it(`registers the key on the enrolment page and signs in with it as the second factor (${lang})`, async () => {
        // A new browser session: the previous user's SSO cookie would answer the authorization at once.
        await chromium.context.clearCookies();
        m.ward.setAccount({ mfa_enrollment: 'optional' });
        const user = await signup(m.ward);
        m.ward.setAccount({ mfa_enrollment: 'required', mfa_enrollment_grace_skips: 0 });
        const page = await chromium.context.newPage();
        await page.goto(`${m.ward.issuer}/.well-known/openid-configuration`);
        await addVirtualAuthenticator(page, { hasResidentKey: false, hasUserVerification: false });
        await page.route('https://app.example/**', (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: '<p>app</p>' }),
        );
        const pkce = pkcePair();
        await page.goto(
          m.ward.issuer +
            authorizeUrl({
              client_id: 'spa',
              response_type: 'code',
              redirect_uri: 'https://app.example/cb',
              scope: 'openid',
              state: 'enrol-key',
              code_challenge: pkce.challenge,
              code_challenge_method: 'S256',
              ui_locales: lang,
            }),
        );
        await page.fill('#email', user.email);
        await page.fill('#password', user.password);
        await page.click('form[action="/oauth/authorize/login"] button[type="submit"]');
        await page.waitForSelector('#use-key');
        assert.equal((await page.textContent('#use-key'))?.trim(), offer);
        await page.click('#use-key');
        await page.waitForSelector('#create-key');
        await page.click('#create-key');
        await page.waitForSelector('#recovery-codes');
        assert.equal(await page.locator('#recovery-codes li').count(), 10);
        const reached = page.waitForRequest(/^https:\/\/app\.example\/cb\?/);
        await page.click('form[action="/oauth/authorize/enrol"] button[type="submit"]');
        const cb = new URL((await reached).url());
        assert.equal(cb.searchParams.get('state'), 'enrol-key');
        const { res, body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);
        const keys = await m.ward.registry.storage.passkeys.listOfUser(user.id);
        assert.equal(keys.length, 1);
        await page.close();
      });
  });
}

// Issue 38, item 3: a security key answers the hosted second-factor page after the password, in
// headless Chromium with a DevTools virtual authenticator (a USB key without user verification). The
// key was registered through the JSON API by a ceremony on a Ward page; the user also has an email
// factor. The page offers the key first (most secure), the assertion goes back with its form, and the
// sign-in ends at the client's callback with amr pwd, mfa, hwk. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem } from '../helpers/oauth.js';
import { addVirtualAuthenticator, browserAttestation } from '../helpers/passkeys.js';
import { OPEN, bearer, plainToken } from './support.js';

for (const engine of engines()) {
  describe(`hosted second factor with a security key in Chromium (${engine})`, { timeout: 120_000 }, () => {
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

    it('signs in with the password, then the security key on the second-factor page', async () => {
      const { user, access } = await plainToken(m);
      const page = await chromium.context.newPage();
      await page.goto(`${m.ward.issuer}/.well-known/openid-configuration`);
      await addVirtualAuthenticator(page, { hasResidentKey: false, hasUserVerification: false });
      const o = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration-options',
        { origin: m.ward.issuer, friendly_name: 'USB key' },
        bearer(access),
      );
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const attestation = await browserAttestation(page, o.body.options.public_key);
      const reg = await postJson(m.ward, '/identity/v1/webauthn/registration', attestation, bearer(access));
      assert.equal(reg.status, 204, JSON.stringify(reg.body));
      await giveFactors(m.ward, user.id, { email: user.email });

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
            state: 'key',
            code_challenge: pkce.challenge,
            code_challenge_method: 'S256',
          }),
      );
      await page.fill('#email', user.email);
      await page.fill('#password', user.password);
      await page.click('form[action="/oauth/authorize/login"] button[type="submit"]');
      // The key is offered first (no code is sent); the email code stays one click away.
      await page.waitForSelector('#use-key');
      assert.match(await page.content(), /Send the code by email instead/);
      // The redirect to the client's callback is the request awaited (whatever the fake app answers).
      const reached = page.waitForRequest(/^https:\/\/app\.example\/cb\?/);
      await page.click('#use-key');
      const cb = new URL((await reached).url());
      assert.equal(cb.searchParams.get('state'), 'key');
      const { res, body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);
      assert.equal(await m.ward.registry.storage.lastFactors.find(user.id), 'webauthn');
      await page.close();
    });
  });
}

// The `apple` and `microsoft` presets through Ward's hosted login page in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core), against the local simulators on http://127.0.0.1 (another
// site than Ward's https://localhost). Apple: its page posts the answer cross-site, so the browser
// leaves out the SameSite=Lax cookie binding the state (seen here on the POST), and Ward's same-site GET
// after it carries the cookie; the name of the first sign-in is kept. Microsoft: the `common` issuer
// with its {tenantid} template. The fictional client app (https://app.example) is never reached: the
// request to it is read.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Page } from 'playwright-core';
import { type AppleSim, startAppleSim } from '../helpers/apple-sim.js';
import { type Chromium, launchChromium } from '../helpers/chromium.js';
import { type MicrosoftSim, startMicrosoftSim } from '../helpers/microsoft-sim.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('the apple and microsoft presets on the hosted page in headless Chromium', { timeout: 120_000 }, () => {
  let apple: AppleSim;
  let ms: MicrosoftSim;
  let ward: TestWard;
  let chromium: Chromium;
  before(async () => {
    apple = await startAppleSim();
    ms = await startMicrosoftSim();
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      socialProviders: [
        {
          preset: 'apple',
          issuer: apple.issuer,
          client_id: apple.clientId,
          client_secret: apple.teamKeyPem,
          team_id: apple.teamId,
          key_id: apple.keyId,
        },
        { preset: 'microsoft', issuer: ms.issuerFor('common'), client_id: ms.clientId, client_secret: ms.clientSecret },
      ],
    });
    chromium = await launchChromium({ loopbackHosts: ['app.example'] }); // nothing leaves the machine
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await apple?.close();
    await ms?.close();
  });

  /** The hosted login page, a click on the provider's button, and the client's page at the end. */
  async function signIn(button: string, watch?: (page: Page) => void) {
    await chromium.context.clearCookies();
    const page = await chromium.context.newPage();
    try {
      watch?.(page);
      const pkce = pkcePair();
      await page.goto(
        ward.url +
          authorizeUrl({
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: 'https://app.example/cb',
            scope: 'openid email profile',
            state: 'st-preset',
            code_challenge: pkce.challenge,
            code_challenge_method: 'S256',
          }),
      );
      // The request that reaches the client (Playwright's route does not always answer the end of a
      // redirect chain that began with a POST, so the test reads the request itself).
      const landing = page.waitForRequest((r) => r.url().startsWith('https://app.example/cb'));
      await page.getByRole('link', { name: button }).click();
      const cb = new URL((await landing).url());
      assert.equal(cb.searchParams.get('error'), null, cb.toString());
      assert.equal(cb.searchParams.get('state'), 'st-preset');
      const { body } = await redeem(ward, cb.searchParams.get('code')!, pkce.verifier);
      return decodeJwt(body.id_token!);
    } finally {
      await page.close();
    }
  }

  it('Apple: the posted answer comes back through a same-site GET; the first name is kept', async () => {
    apple.account = { ...apple.account, sub: `000111.${randomUUID()}.0001`, firstName: 'Jonathan', lastName: 'Ive' };
    const seen: Array<{ method: string; path: string; socialCookie: boolean }> = [];
    const watch = (page: Page) =>
      page.on('request', async (req) => {
        const u = new URL(req.url());
        if (!u.pathname.startsWith('/identity/v1/oauth/callback/apple')) return;
        const cookie = (await req.allHeaders()).cookie ?? '';
        seen.push({ method: req.method(), path: u.pathname, socialCookie: cookie.includes('__Host-ward_social=') });
      });
    const first = await signIn('Continue with Apple', watch);
    assert.deepEqual(
      seen.map((s) => [s.method, s.socialCookie]),
      [
        ['POST', false],
        ['GET', true],
      ],
      'the cross-site POST goes without the Lax cookie; the GET after it has it',
    );
    assert.equal(first.given_name, 'Jonathan');
    assert.equal(first.email, apple.account.email);
    const second = await signIn('Continue with Apple');
    assert.equal(second.sub, first.sub);
    assert.equal(second.given_name, 'Jonathan', 'kept from the first sign-in');
  });

  it('Microsoft: a work account through the common issuer', async () => {
    ms.account = { ...ms.account, sub: `pairwise-${randomUUID()}`, tid: randomUUID() };
    const claims = await signIn('Continue with Microsoft');
    assert.deepEqual(claims.amr, ['social', 'microsoft']);
    assert.equal(claims.given_name, 'Megan');
  });
});

// Google One Tap through the unmodified Core SDK's browser build in Chromium (issue 37, item 4): the app
// calls instantiateOneTap; the SDK reads google_client_id from Ward's remote settings and loads Google's
// client script, here a stand-in served for https://accounts.google.com/gsi/client that does what
// Google's does for an auto-selected account: initialize() keeps the configuration, prompt() hands the
// callback the credential, an id_token the local Google sign-in (test/helpers/google-sim.ts) signs for
// that client id with the page's nonce. The SDK then sends it to Ward's /oauth/authorize, the app lands
// on its redirectUri with a code, and the SDK exchanges it. The SDK's loginWithIdToken computes no PKCE
// of its own, and Ward requires it of a public client: the app passes codeChallenge in the options and
// keeps the verifier where the SDK's exchange reads it (docs/social-login.md#google-one-tap). Loopback only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startGoogleSim, type GoogleSim } from '../helpers/google-sim.js';
import { callbackOutcome, openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { pkcePair } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const GSI = 'https://accounts.google.com/gsi';

/** The stand-in for Google's client script: the calls the SDK makes, answered as for one signed-in account. */
const STAND_IN = `window.google = { accounts: { id: (function () {
  var config = null;
  return {
    initialize: function (c) { config = c; },
    prompt: function () {
      fetch('${GSI}/credential', { method: 'POST', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ client_id: config.client_id, nonce: config.nonce }) })
        .then(function (r) { return r.json(); })
        .then(function (j) { config.callback({ credential: j.credential, select_by: 'auto', clientId: config.client_id }); });
    },
  };
})() } };`;

describe('Google One Tap through the Core SDK, in Chromium', { timeout: 120_000 }, () => {
  let google: GoogleSim;
  let ward: TestWard;
  let app: SdkApp;
  let chromium: Chromium;
  const asked: Array<{ client_id: string; nonce: string }> = [];
  before(async () => {
    google = await startGoogleSim();
    app = await startSdkApp();
    ward = await startWard({
      clients: [app.client()],
      socialProviders: [
        { preset: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret },
      ],
    });
    app.wardUrl = ward.url;
    chromium = await launchChromium();
    await chromium.context.route(`${GSI}/client`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN }),
    );
    await chromium.context.route(`${GSI}/credential`, async (route) => {
      const request = JSON.parse(route.request().postData() ?? '{}') as { client_id: string; nonce: string };
      asked.push(request);
      const credential =
        request.client_id === google.clientId ? await google.oneTapCredential({ nonce: request.nonce }) : null;
      await route.fulfill({
        status: credential ? 200 : 400,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': app.origin },
        body: JSON.stringify(credential ? { credential } : { error: 'invalid_client' }),
      });
    });
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await app?.close();
    await google?.close();
  });

  it('signs in with the Google account: the app gets tokens for a new user linked to it', async () => {
    const page = await openSdkApp(chromium.context, app);
    const pkce = pkcePair();
    await page.evaluate(
      ([origin, verifier, challenge]) => {
        localStorage.setItem('verifier_key', verifier as string);
        const w = window as unknown as { client: { instantiateOneTap(o: object): Promise<void> } };
        return w.client.instantiateOneTap({
          redirectUri: `${origin}/cb`,
          scope: 'openid email profile',
          codeChallenge: challenge,
          codeChallengeMethod: 'S256',
        });
      },
      [app.origin, pkce.verifier, pkce.challenge] as const,
    );
    const auth = await callbackOutcome(page, app);
    assert.equal(auth.failed, undefined, `${page.url()}: ${JSON.stringify(auth.failed)}`);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.client_id, google.clientId, 'initialize got the client id of the remote settings');
    const claims = decodeJwt(auth.idToken as string);
    assert.equal(claims.email, google.account.email);
    assert.deepEqual(claims.amr, ['social', 'google']);
    const identity = await ward.registry.storage.identities.find('google', google.account.sub);
    assert.equal(identity?.user_id, claims.sub);
  });
});

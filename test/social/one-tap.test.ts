// Google One Tap (issue 37, item 4; docs/social-login.md#google-one-tap), on both engines, with the
// `google` preset against the local Google sign-in (test/helpers/google-sim.ts): the remote settings
// carry google_client_id; the Core SDK's loginWithIdToken brings Google's id_token to /oauth/authorize
// with provider=google, id_token and the nonce whose SHA-256 it carries; Ward checks it against Google's
// JWKS (issuer, audience, expiry, nonce), creates or finds the user by the social login rules, and
// answers the code. A token used twice, another nonce, another audience, an expired one, a forged
// signature and a provider without id_tokens are refused with access_denied. The browser path with the
// SDK's instantiateOneTap is one-tap-chromium.test.ts.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { startGoogleSim, type GoogleSim } from '../helpers/google-sim.js';
import { PUBLIC_CLIENT, location, pkcePair, redeem, spaAuthorizeUrl } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

for (const engine of engines()) {
  describe(`Google One Tap (${engine})`, () => {
    let google: GoogleSim;
    let ward: TestWard;
    before(async () => {
      google = await startGoogleSim();
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        socialProviders: [
          { preset: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret },
        ],
      });
    });
    after(async () => {
      await ward?.close();
      await google?.close();
    });

    /** /oauth/authorize as the SDK's loginWithIdToken sends it: where it lands. */
    async function oneTap(idToken: string, nonce: string | undefined, pkce = pkcePair()) {
      const browser = new Browser(ward);
      const res = await browser.get(
        spaAuthorizeUrl(pkce.challenge, {
          scope: 'openid email profile',
          state: 'one-tap',
          provider: 'google',
          id_token: idToken,
          nonce,
        }),
      );
      assert.equal(res.status, 302, await res.text());
      return location(res);
    }
    const refusal = (at: URL) => [at.searchParams.get('error'), at.searchParams.get('code')];

    it('answers google_client_id in the remote settings', async () => {
      const res = await ward.fetch('/identity/v1/config?client_id=spa');
      assert.equal(((await res.json()) as Record<string, unknown>).google_client_id, google.clientId);
    });

    it("signs the user in with Google's id_token, once", async () => {
      const nonce = randomBytes(16).toString('base64');
      const credential = await google.oneTapCredential({ nonce: sha256(nonce) });
      const pkce = pkcePair();
      const at = await oneTap(credential, nonce, pkce);
      assert.equal(at.searchParams.get('error'), null, at.searchParams.get('error_description') ?? '');
      assert.equal(at.searchParams.get('state'), 'one-tap');
      const { body } = await redeem(ward, at.searchParams.get('code')!, pkce.verifier);
      const claims = decodeJwt(body.id_token!);
      assert.equal(claims.email, google.account.email);
      assert.deepEqual(claims.amr, ['social', 'google']);
      const identity = await ward.registry.storage.identities.find('google', google.account.sub);
      assert.equal(identity?.user_id, claims.sub, 'the Google identity is linked to the new user');

      const again = await oneTap(credential, nonce);
      assert.deepEqual(refusal(again), ['access_denied', null], 'a token used once is refused');
      // A second, fresh token of the same Google account signs the same user in.
      const next = randomBytes(16).toString('base64');
      const fresh = await oneTap(await google.oneTapCredential({ nonce: sha256(next) }), next);
      assert.ok(fresh.searchParams.get('code'), fresh.searchParams.get('error_description') ?? '');
    });

    it('refuses another nonce, another audience, an expired token and a forged signature', async () => {
      const nonce = randomBytes(16).toString('base64');
      const cases: Array<[string, string, string | undefined]> = [
        ['another nonce', await google.oneTapCredential({ nonce: sha256('another') }), nonce],
        ['a nonce not sent', await google.oneTapCredential({ nonce: sha256(nonce) }), undefined],
        ['another audience', await google.oneTapCredential({ nonce: sha256(nonce), audience: 'other' }), nonce],
        ['expired', await google.oneTapCredential({ nonce: sha256(nonce), expiresIn: -120 }), nonce],
        ['forged', await google.oneTapCredential({ nonce: sha256(nonce), forged: true }), nonce],
        ['not a JWT', 'eyJhbGciOiJub25lIn0.e30.', nonce],
      ];
      for (const [what, token, sent] of cases) {
        const at = await oneTap(token, sent);
        assert.deepEqual(refusal(at), ['access_denied', null], what);
        assert.ok(at.searchParams.get('error_description'), what);
      }
    });
  });
}

// DPoP (RFC 9449, issue #39 item 6) with openid-client, the real client: the code flow with a DPoP key
// through the hosted login page, userinfo with the DPoP scheme, a refresh bound to the key (a public
// client's: another key or none is refused); with nonces required, openid-client answers the
// use_dpop_nonce challenge by itself. Introspection answers token_type DPoP and cnf.jkt. SQLite, and
// PostgreSQL when configured. Hand-made refusals: dpop-refusals.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { Browser } from '../helpers/browser.js';
import { athOf, makeProof, proofKey } from '../helpers/dpop.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { codeFor, location, signup, tokenRequest } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { OFFLINE, expectError } from './token/support.js';
import { CB, atRealTime, dpopCalls, startDpopWard } from './dpop-support.js';

for (const engine of engines()) {
  describe(`DPoP with openid-client (${engine})`, () => {
    let ward: TestWard;
    let tokenUrl: string;
    let userinfoUrl: string;
    before(async () => {
      ward = await startDpopWard(engine);
      tokenUrl = `${ward.issuer}/oauth/token`;
      userinfoUrl = `${ward.issuer}/identity/v1/userinfo`;
    });
    after(() => ward.close());
    beforeEach(() => atRealTime(ward));
    const { dpopHeaders, userinfo, introspect } = dpopCalls(() => ward);

    it('lists the proof algorithms in both metadata documents', async () => {
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const doc = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
        const algs = doc.dpop_signing_alg_values_supported as string[];
        assert.ok(algs.includes('ES256') && algs.includes('EdDSA') && algs.includes('RS256'), path);
        assert.ok(!algs.some((a) => a.startsWith('HS') || a === 'none'), 'asymmetric algorithms only');
      }
    });

    it('runs the code flow, userinfo and a bound refresh through openid-client and the hosted login page', async () => {
      const user = await signup(ward);
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'spa', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const keyPair = await client.randomDPoPKeyPair('ES256');
      const DPoP = client.getDPoPHandle(config, keyPair);
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CB,
        scope: OFFLINE,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      assert.equal(page.status, 200);
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const tokens = await client.authorizationCodeGrant(
        config,
        location(posted),
        { pkceCodeVerifier: verifier, expectedState: state },
        undefined,
        { DPoP },
      );
      assert.equal(tokens.token_type.toLowerCase(), 'dpop');
      const info = await client.fetchUserInfo(config, tokens.access_token, user.id, { DPoP });
      assert.equal(info.sub, user.id);
      const seen = await introspect(tokens.access_token);
      assert.equal(seen.active, true);
      assert.equal(seen.token_type, 'DPoP');
      assert.deepEqual(seen.cnf, { jkt });
      // The refresh token is bound to the key: another key's proof, or none, is refused and leaves it usable.
      const other = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: other }), (e) => {
        assert.equal((e as { error?: string }).error, 'invalid_grant');
        return true;
      });
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (e) => {
        assert.equal((e as { error?: string }).error, 'invalid_dpop_proof');
        return true;
      });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
      assert.equal(refreshed.token_type.toLowerCase(), 'dpop');
      assert.equal((await client.fetchUserInfo(config, refreshed.access_token, user.id, { DPoP })).sub, user.id);
    });

    it('answers the nonce challenge when nonces are required, which openid-client follows by itself', async () => {
      ward.setAccount({ dpop_nonce_required: true });
      const key = await proofKey();
      const flow = await codeFor(ward, { scope: OFFLINE });
      const form = {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
      };
      const first = await tokenRequest(ward, form, dpopHeaders(await makeProof(key, { htm: 'POST', htu: tokenUrl })));
      const nonce = first.headers.get('dpop-nonce');
      await expectError(first, 400, 'use_dpop_nonce');
      assert.match(nonce ?? '', /^[A-Za-z0-9_-]{16,}$/);
      // A made-up nonce is refused the same way.
      const made = await makeProof(key, { htm: 'POST', htu: tokenUrl, nonce: 'x'.repeat(32) });
      await expectError(await tokenRequest(ward, form, dpopHeaders(made)), 400, 'use_dpop_nonce');
      // The proof is checked before the grant: the code is still good.
      const good = await makeProof(key, { htm: 'POST', htu: tokenUrl, nonce: nonce! });
      const res = await tokenRequest(ward, form, dpopHeaders(good));
      const tokens = (await res.json()) as Record<string, string>;
      assert.equal(res.status, 200, JSON.stringify(tokens));
      assert.equal(tokens.token_type, 'DPoP');
      assert.match(res.headers.get('dpop-nonce') ?? '', /^[A-Za-z0-9_-]{16,}$/, 'the nonce to use next (RFC 9449 8.2)');
      // At userinfo: 401 with a DPoP challenge naming use_dpop_nonce, and the nonce.
      const ath = athOf(tokens.access_token!);
      const bare = await userinfo(
        'DPoP',
        tokens.access_token!,
        await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath }),
      );
      await expectError(bare, 401, 'use_dpop_nonce');
      assert.match(bare.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce", algs="[A-Za-z0-9 ]+"$/);
      const fresh = bare.headers.get('dpop-nonce')!;
      const ok = await userinfo(
        'DPoP',
        tokens.access_token!,
        await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath, nonce: fresh }),
      );
      assert.equal(ok.status, 200);

      // openid-client: the first proof has no nonce; it retries with the DPoP-Nonce it was given.
      const user = await signup(ward);
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'spa', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('EdDSA'));
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CB,
        scope: 'openid',
        state: 's1',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      const got = await client.authorizationCodeGrant(
        config,
        location(posted),
        { pkceCodeVerifier: verifier, expectedState: 's1' },
        undefined,
        { DPoP },
      );
      assert.equal(got.token_type.toLowerCase(), 'dpop');
      assert.equal((await client.fetchUserInfo(config, got.access_token, user.id, { DPoP })).sub, user.id);
    });
  });
}

// Per-client DPoP and dpop_jkt (RFC 9449 5.2 and 10), on both engines over real HTTP: a client
// registered with dpop_bound_access_tokens has a token request without a proof refused
// (invalid_dpop_proof) and gets DPoP tokens with one; an authorization request's dpop_jkt binds its
// code to that key: redeemed without a proof or with another key's it is invalid_grant; a malformed
// dpop_jkt is invalid_request; a pushed request (RFC 9126) binds its code by dpop_jkt or by the DPoP
// proof sent to /oauth/par, and a dpop_jkt that differs from that proof's key is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { engines } from '../helpers/databases.js';
import { makeProof, proofKey, type ProofKey } from '../helpers/dpop.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  passwordLogin,
  pkcePair,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { Browser } from '../helpers/browser.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { atRealTime } from './dpop-support.js';
import { NO_LIMITS, basic, expectError, expectTokens } from './token/support.js';

/** A 200 token response of DPoP-bound tokens. */
async function dpopTokens(res: Response): Promise<Record<string, string>> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text) as Record<string, string>;
  assert.equal(body.token_type, 'DPoP');
  return body;
}

const CB = 'https://app.example/cb';
const API_CB = 'https://api.example/cb';

for (const engine of engines()) {
  describe(`DPoP-bound clients and dpop_jkt on ${engine}`, () => {
    let ward: TestWard;
    let key: ProofKey;
    let other: ProofKey;
    before(async () => {
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [
          PUBLIC_CLIENT,
          { ...PUBLIC_CLIENT, client_id: 'bound', dpop_bound_access_tokens: true },
          { ...CONFIDENTIAL_CLIENT, pkce_enforced: true },
        ],
      });
      key = await proofKey();
      other = await proofKey();
    });
    after(() => ward.close());

    const proofFor = (k: ProofKey, path = '/oauth/token') =>
      makeProof(k, { htm: 'POST', htu: `${ward.issuer}${path}` });
    async function redeem(flow: { code: string; verifier: string }, clientId: string, k?: ProofKey) {
      return tokenRequest(
        ward,
        {
          grant_type: 'authorization_code',
          code: flow.code,
          client_id: clientId,
          redirect_uri: CB,
          code_verifier: flow.verifier,
        },
        k ? { dpop: await proofFor(k) } : {},
      );
    }

    it('dpop_bound_access_tokens: no proof, invalid_dpop_proof; with one, DPoP tokens', async () => {
      atRealTime(ward);
      const refused = await redeem(await codeFor(ward, { clientId: 'bound' }), 'bound');
      await expectError(refused, 400, 'invalid_dpop_proof');
      await dpopTokens(await redeem(await codeFor(ward, { clientId: 'bound' }), 'bound', key));
      // Another client without the setting is not held to it.
      assert.equal((await expectTokens(await redeem(await codeFor(ward), 'spa'))).token_type, 'Bearer');
    });

    it("dpop_jkt binds the code: no proof or another key's is invalid_grant, the key's gets tokens", async () => {
      atRealTime(ward);
      const bound = () => codeFor(ward, { extra: { dpop_jkt: key.jkt } });
      await expectError(await redeem(await bound(), 'spa'), 400, 'invalid_grant');
      await expectError(await redeem(await bound(), 'spa', other), 400, 'invalid_grant');
      await dpopTokens(await redeem(await bound(), 'spa', key));
      // A bound code's value is marked (only those look for a binding): without the mark it is no code.
      const marked = await bound();
      const unmarked = { ...marked, code: marked.code.replace(/\.k$/, '') };
      assert.notEqual(unmarked.code, marked.code, 'a bound code carries the mark');
      await expectError(await redeem(unmarked, 'spa'), 400, 'invalid_grant');
      await dpopTokens(await redeem(marked, 'spa', key));
    });

    it('dpop_jkt survives the hosted login page', async () => {
      atRealTime(ward);
      const user = await signup(ward);
      const pkce = pkcePair();
      const browser = new Browser(ward);
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CB,
          scope: 'openid',
          state: 's',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          dpop_jkt: key.jkt,
        }),
      );
      assert.equal(page.status, 200, 'the login page');
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      const code = location(posted).searchParams.get('code')!;
      assert.ok(code);
      await expectError(await redeem({ code, verifier: pkce.verifier }, 'spa', other), 400, 'invalid_grant');
    });

    it('a malformed dpop_jkt is invalid_request, redirected', async () => {
      const res = await new Browser(ward).get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CB,
          scope: 'openid',
          state: 's',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          dpop_jkt: 'not-a-thumbprint',
        }),
      );
      assert.equal(location(res).searchParams.get('error'), 'invalid_request');
    });

    it('a pushed request binds its code by the proof sent to /oauth/par, and refuses a dpop_jkt of another key', async () => {
      atRealTime(ward);
      const user = await signup(ward, 'backend');
      const pkce = pkcePair();
      const form = async () => ({
        response_type: 'code',
        redirect_uri: API_CB,
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn: await passwordLogin(ward, user.email, user.password, 'backend', 'openid'),
      });
      const push = async (body: Record<string, string>, proof?: string) =>
        ward.fetch('/oauth/par', {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic('backend', CONFIDENTIAL_SECRET),
            ...(proof ? { dpop: proof } : {}),
          },
          body: new URLSearchParams(body).toString(),
        });
      const pushed = await push(await form(), await proofFor(key, '/oauth/par'));
      assert.equal(pushed.status, 201, await pushed.clone().text());
      const { request_uri } = (await pushed.json()) as { request_uri: string };
      const res = await new Browser(ward).get(authorizeUrl({ client_id: 'backend', request_uri }));
      const code = location(res).searchParams.get('code')!;
      const redeemWith = async (k: ProofKey) =>
        tokenRequest(
          ward,
          { grant_type: 'authorization_code', code, redirect_uri: API_CB, code_verifier: pkce.verifier },
          { authorization: basic('backend', CONFIDENTIAL_SECRET), dpop: await proofFor(k) },
        );
      await expectError(await redeemWith(other), 400, 'invalid_grant');
      const mismatch = await push({ ...(await form()), dpop_jkt: other.jkt }, await proofFor(key, '/oauth/par'));
      await expectError(mismatch, 400, 'invalid_dpop_proof');
      // dpop_jkt alone, pushed: the code is bound to it.
      const byParam = await push({ ...(await form()), dpop_jkt: key.jkt });
      assert.equal(byParam.status, 201);
      const uri = ((await byParam.json()) as { request_uri: string }).request_uri;
      const code2 = location(
        await new Browser(ward).get(authorizeUrl({ client_id: 'backend', request_uri: uri })),
      ).searchParams.get('code')!;
      const ok = await tokenRequest(
        ward,
        { grant_type: 'authorization_code', code: code2, redirect_uri: API_CB, code_verifier: pkce.verifier },
        { authorization: basic('backend', CONFIDENTIAL_SECRET), dpop: await proofFor(key) },
      );
      await dpopTokens(ok);
    });
  });
}

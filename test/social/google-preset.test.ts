// The `google` preset end to end against a local Google sign-in (test/helpers/google-sim.ts): discovery,
// the code by redirect, the token endpoint with the client's secret and PKCE, the id_token with its
// verified email and names. And the issuer rule's unit cases: Google's bare `accounts.google.com`,
// Microsoft's template (the end-to-end cases are in microsoft-preset.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { issuerProblem, issuerRule } from '../../src/social/issuer-rule.js';
import { Browser } from '../helpers/browser.js';
import { startGoogleSim, type GoogleSim } from '../helpers/google-sim.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('the google preset against a local Google sign-in', () => {
  let google: GoogleSim;
  let ward: TestWard;
  before(async () => {
    google = await startGoogleSim();
    ward = await startWard({
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

  it('signs in with the verified email and the names of the id_token', async () => {
    const browser = new Browser(ward);
    const pkce = pkcePair();
    const start = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid email profile',
        state: 'g',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        provider: 'google',
      }),
    );
    const upstream = location(start);
    assert.equal(`${upstream.origin}${upstream.pathname}`, `${google.issuer}/o/oauth2/v2/auth`);
    const callback = location(await browser.get(upstream.toString()));
    const res = await browser.get(callback.toString());
    assert.equal(res.status, 302, await res.text());
    const answer = location(res);
    assert.equal(answer.searchParams.get('error'), null, answer.searchParams.get('error_description') ?? '');
    const { body } = await redeem(ward, answer.searchParams.get('code')!, pkce.verifier);
    const claims = decodeJwt(body.id_token!);
    assert.equal(claims.email, google.account.email);
    assert.equal(claims.given_name, 'Larry');
    assert.deepEqual(claims.amr, ['social', 'google']);
  });
});

describe('the issuer rule', () => {
  it("takes Google's two documented forms of its issuer, and nothing else", () => {
    const rule = issuerRule('https://accounts.google.com', 'https://accounts.google.com')!;
    assert.equal(issuerProblem(rule, { iss: 'https://accounts.google.com' }), null);
    assert.equal(issuerProblem(rule, { iss: 'accounts.google.com' }), null);
    assert.equal(issuerProblem(rule, { iss: 'https://accounts.google.com.evil.example' }), 'another issuer');
    assert.equal(issuerRule('https://accounts.google.com', 'https://evil.example'), null);
  });

  it("takes Microsoft's template only for its multi-tenant paths, at the same base", () => {
    const base = 'https://login.microsoftonline.com';
    assert.ok(issuerRule(`${base}/common/v2.0`, `${base}/{tenantid}/v2.0`));
    assert.equal(issuerRule(`${base}/common/v2.0`, 'https://evil.example/{tenantid}/v2.0'), null);
    assert.equal(issuerRule(`${base}/contoso.example/v2.0`, `${base}/{tenantid}/v2.0`), null);
    const rule = issuerRule(`${base}/organizations/v2.0`, `${base}/{tenantid}/v2.0`)!;
    const tid = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    assert.equal(issuerProblem(rule, { tid, iss: `${base}/${tid}/v2.0` }), null);
    assert.equal(issuerProblem(rule, { iss: `${base}/${tid}/v2.0` }), 'no tenant (tid)');
    assert.equal(issuerProblem(rule, { tid: '{tenantid}', iss: `${base}/{tenantid}/v2.0` }), 'no tenant (tid)');
  });
});

// Social login against a real upstream OpenID Connect provider: oidc-provider 8 on 127.0.0.1 as
// "corp-idp" (test/helpers/corp-idp.ts: its own login and consent pages, PKCE required,
// client_secret_basic), driven with a cookie-jar browser. The full flow to Ward's code and tokens
// (the profile from the provider reaches Ward's id_token and userinfo; a second login finds the same
// user); the user cancelling at the provider ends in the client's redirect_uri with access_denied;
// an email that matches an existing account is linked only after its password.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { startWardWithCorpIdp, throughCorpIdp, type CorpIdp } from '../helpers/corp-idp.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe('social login with oidc-provider as corp-idp', { timeout: 60_000 }, () => {
  let idp: CorpIdp;
  let ward: TestWard;
  let close: () => Promise<void> = async () => undefined;
  before(async () => {
    ({ idp, ward, close } = await startWardWithCorpIdp([PUBLIC_CLIENT]));
  });
  after(() => close());

  const authorize = (pkce: { challenge: string }, state = 'st-corp') =>
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid email profile',
      state,
      nonce: 'client-nonce',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      provider: 'corp-idp',
    });

  it('logs in through the provider: state, nonce and PKCE sent, its profile in Ward’s id_token and userinfo', async () => {
    idp.accounts.set('alice', {
      email: 'alice@corp.example',
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Corp',
    });
    const grantsBefore = idp.tokenGrants;
    const pkce = pkcePair();
    const { upstream, callback, res, pages } = await throughCorpIdp(new Browser(ward), authorize(pkce), {
      login: 'alice',
    });
    assert.equal(`${upstream.origin}${upstream.pathname}`, `${idp.issuer}/auth`);
    assert.equal(upstream.searchParams.get('client_id'), idp.clientId);
    assert.equal(upstream.searchParams.get('redirect_uri'), `${ward.url}/identity/v1/oauth/callback/corp-idp`);
    assert.equal(upstream.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(
      upstream.searchParams.get('nonce') &&
        upstream.searchParams.get('state') &&
        upstream.searchParams.get('code_challenge'),
    );
    assert.notEqual(upstream.searchParams.get('state'), 'st-corp', "the client's state never goes upstream");
    assert.notEqual(upstream.searchParams.get('nonce'), 'client-nonce', "nor the client's nonce");
    assert.deepEqual(pages, ['login', 'consent'], "the provider's own pages were shown");
    assert.ok(callback.searchParams.get('code'));
    assert.equal(res.status, 302, await res.clone().text());
    const cb = location(res);
    assert.equal(`${cb.origin}${cb.pathname}`, 'https://app.example/cb');
    assert.equal(cb.searchParams.get('state'), 'st-corp');
    assert.equal(idp.tokenGrants, grantsBefore + 1, 'Ward redeemed the upstream code (PKCE, client_secret_basic)');
    assert.deepEqual(idp.errors, []);

    const { res: tokenRes, body } = await redeem(ward, cb.searchParams.get('code')!, pkce.verifier);
    assert.equal(tokenRes.status, 200);
    const claims = decodeJwt(body.id_token!);
    assert.equal(claims.email, 'alice@corp.example');
    assert.equal(claims.given_name, 'Alice');
    assert.equal(claims.family_name, 'Corp');
    assert.equal(claims.nonce, 'client-nonce');
    assert.equal(claims.auth_type, 'corp-idp');
    assert.deepEqual(claims.amr, ['social', 'corp-idp']);
    const me = await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { email?: string }).email, 'alice@corp.example');
    assert.equal((await ward.registry.storage.identities.find('corp-idp', 'alice'))?.user_id, claims.sub);

    // Another browser, another login at the provider: the same Ward user.
    const pkce2 = pkcePair();
    const again = await throughCorpIdp(new Browser(ward), authorize(pkce2), { login: 'alice' });
    const { body: body2 } = await redeem(ward, location(again.res).searchParams.get('code')!, pkce2.verifier);
    assert.equal(decodeJwt(body2.id_token!).sub, claims.sub);
  });

  it('sends the user who cancels at the provider back to the client with error=access_denied and no code', async () => {
    idp.accounts.set('bob', {
      email: 'bob@corp.example',
      email_verified: true,
      given_name: 'Bob',
      family_name: 'Corp',
    });
    const grantsBefore = idp.tokenGrants;
    const { callback, res, pages } = await throughCorpIdp(new Browser(ward), authorize(pkcePair(), 'st-cancel'), {
      login: 'bob',
      cancel: true,
    });
    assert.deepEqual(pages, ['login']);
    assert.equal(callback.searchParams.get('error'), 'access_denied', "the provider's own answer");
    assert.equal(res.status, 302);
    const cb = location(res);
    assert.equal(`${cb.origin}${cb.pathname}`, 'https://app.example/cb');
    assert.equal(cb.searchParams.get('error'), 'access_denied');
    assert.ok(cb.searchParams.get('error_description'));
    assert.equal(cb.searchParams.get('code'), null);
    assert.equal(cb.searchParams.get('state'), 'st-cancel');
    assert.equal(idp.tokenGrants, grantsBefore, 'nothing was redeemed');
    assert.equal(await ward.registry.storage.identities.find('corp-idp', 'bob'), undefined);
  });

  it('links a provider identity whose email has an account only after that account’s password', async () => {
    const owner = await signup(ward);
    idp.accounts.set('carol', { email: owner.email, email_verified: true, given_name: 'Carol', family_name: 'Corp' });
    const browser = new Browser(ward);
    const pkce = pkcePair();
    const { res } = await throughCorpIdp(browser, authorize(pkce), { login: 'carol' });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /You already have an account/);
    assert.match(html, /link your Corp IdP sign-in/);
    assert.equal(await ward.registry.storage.identities.find('corp-idp', 'carol'), undefined, 'not linked yet');
    const ok = await browser.postForm('/identity/v1/oauth/link', {
      link_token: field(html, 'link_token'),
      csrf: field(html, 'csrf'),
      password: owner.password,
    });
    assert.equal(ok.status, 303);
    const { body } = await redeem(ward, location(ok).searchParams.get('code')!, pkce.verifier);
    const claims = decodeJwt(body.id_token!);
    assert.equal(claims.sub, owner.id);
    assert.deepEqual(claims.amr, ['pwd', 'social', 'corp-idp']);
    assert.equal((await ward.registry.storage.identities.find('corp-idp', 'carol'))?.user_id, owner.id);
  });
});

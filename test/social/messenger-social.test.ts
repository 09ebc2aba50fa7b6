// Social login inside the Messenger account-linking flow: a chatbot client that registered
// https://facebook.com/messenger_platform/account_linking/ sends the user to
// /oauth/authorize?response_type=messenger_code&redirect_uri=<Messenger URL with
// account_linking_token>&provider=corp-idp; through the real provider (oidc-provider,
// test/helpers/corp-idp.ts) and back, Ward redirects to the Messenger URL with authorization_code;
// the chatbot exchanges it with client_id and the callback base, no secret, for an id_token whose
// auth_type is the provider and whose nonce is the one given at authorize. A cancel at the provider
// and the password-proven link on an email collision end at the Messenger URL too. Nothing is
// fetched from facebook.com: the redirects are read, never followed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jwtVerify } from 'jose';
import { Browser } from '../helpers/browser.js';
import { startWardWithCorpIdp, throughCorpIdp, type CorpIdp } from '../helpers/corp-idp.js';
import { authorizeUrl, location, signup, tokenRequest } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';

const CB = 'https://facebook.com/messenger_platform/account_linking/';
const SECRET = 'chatbot-client-secret-of-at-least-32-chars';
const BOT = {
  client_id: 'bot',
  name: 'Shop bot',
  type: 'confidential',
  client_secret: SECRET,
  jwt_algorithm: 'HS256',
  allowed_callback_urls: [CB],
};
const META = (t: string) => `https://www.facebook.com/messenger_platform/account_linking?account_linking_token=${t}`;
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe('social login in the Messenger linking flow', { timeout: 60_000 }, () => {
  let idp: CorpIdp;
  let ward: TestWard;
  let close: () => Promise<void> = async () => undefined;
  before(async () => {
    ({ idp, ward, close } = await startWardWithCorpIdp([BOT]));
  });
  after(() => close());

  const linkUrl = (redirectUri: string, nonce?: string) =>
    authorizeUrl({
      client_id: 'bot',
      response_type: 'messenger_code',
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      nonce,
      provider: 'corp-idp',
    });

  /** The chatbot's exchange: form body, client_id, the callback base, no secret. */
  const exchange = (code: string, redirectUri = CB) =>
    tokenRequest(ward, { grant_type: 'authorization_code', code, client_id: 'bot', redirect_uri: redirectUri });

  /** The Messenger redirect Ward answered with: the base, the token kept, and the added parameters. */
  function messengerRedirect(
    res: { status: number; headers: { get(n: string): string | null } },
    base: string,
    token: string,
  ) {
    const loc = location(res as never);
    assert.equal(`${loc.origin}${loc.pathname}`, base);
    assert.equal(loc.searchParams.get('account_linking_token'), token);
    return loc;
  }

  it('links through the provider: authorization_code to Messenger, the secretless exchange says corp-idp', async () => {
    idp.accounts.set('gina', {
      email: 'gina@corp.example',
      email_verified: true,
      given_name: 'Gina',
      family_name: 'Corp',
    });
    const { upstream, pages, res } = await throughCorpIdp(
      new Browser(ward),
      linkUrl(META('ARRsocial_1'), 'psid-nonce-7'),
      { login: 'gina' },
    );
    assert.equal(upstream.origin, idp.issuer);
    assert.deepEqual(pages, ['login', 'consent']);
    assert.equal(res.status, 302, await res.clone().text());
    const loc = messengerRedirect(res, 'https://www.facebook.com/messenger_platform/account_linking', 'ARRsocial_1');
    assert.deepEqual([...loc.searchParams.keys()], ['account_linking_token', 'authorization_code']);
    const code = loc.searchParams.get('authorization_code')!;
    assert.match(code, /^[A-Za-z0-9_-]{43}$/);

    const ex = await exchange(code);
    assert.equal(ex.status, 200);
    const body = (await ex.json()) as { id_token: string; access_token: string };
    const { payload } = await jwtVerify(body.id_token, new TextEncoder().encode(SECRET), {
      issuer: ward.url,
      audience: 'bot',
      algorithms: ['HS256'],
    });
    assert.equal(payload.auth_type, 'corp-idp');
    assert.deepEqual(payload.amr, ['social', 'corp-idp']);
    assert.equal(payload.nonce, 'psid-nonce-7');
    assert.equal(payload.email, 'gina@corp.example');
    assert.equal(payload.given_name, 'Gina');
    assert.equal((await ward.registry.storage.identities.find('corp-idp', 'gina'))?.user_id, payload.sub);
    assert.equal((await exchange(code)).status, 400, 'single use');
  });

  it('a cancel at the provider goes back to Messenger with error=access_denied and no code', async () => {
    idp.accounts.set('hugo', {
      email: 'hugo@corp.example',
      email_verified: true,
      given_name: 'Hugo',
      family_name: 'Corp',
    });
    const { pages, res } = await throughCorpIdp(
      new Browser(ward),
      linkUrl(CB.replace(/\/$/, '/?account_linking_token=ARRcancel')),
      { login: 'hugo', cancel: true },
    );
    assert.deepEqual(pages, ['login']);
    assert.equal(res.status, 302);
    const loc = messengerRedirect(res, CB, 'ARRcancel');
    assert.equal(loc.searchParams.get('error'), 'access_denied');
    assert.equal(loc.searchParams.get('authorization_code'), null);
    assert.equal(await ward.registry.storage.identities.find('corp-idp', 'hugo'), undefined);
  });

  it('an email that has an account: linked after its password, then the code goes to Messenger', async () => {
    const owner = await signup(ward, 'bot');
    idp.accounts.set('ines', { email: owner.email, email_verified: true, given_name: 'Ines', family_name: 'Corp' });
    const browser = new Browser(ward);
    const { res } = await throughCorpIdp(browser, linkUrl(META('ARRlink')), { login: 'ines' });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /You already have an account/);
    const wrong = await browser.postForm('/identity/v1/oauth/link', {
      link_token: field(html, 'link_token'),
      csrf: field(html, 'csrf'),
      password: 'not the password',
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('location'), null, 'no code for a wrong password');
    const ok = await browser.postForm('/identity/v1/oauth/link', {
      link_token: field(html, 'link_token'),
      csrf: field(html, 'csrf'),
      password: owner.password,
    });
    assert.equal(ok.status, 303);
    const loc = messengerRedirect(ok, 'https://www.facebook.com/messenger_platform/account_linking', 'ARRlink');
    const ex = await exchange(
      loc.searchParams.get('authorization_code')!,
      'https://www.facebook.com/messenger_platform/account_linking',
    );
    assert.equal(ex.status, 200);
    const { payload } = await jwtVerify(
      ((await ex.json()) as { id_token: string }).id_token,
      new TextEncoder().encode(SECRET),
      { issuer: ward.url, audience: 'bot' },
    );
    assert.equal(payload.sub, owner.id);
    assert.equal(payload.auth_type, 'corp-idp');
  });
});

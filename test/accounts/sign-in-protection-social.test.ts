// The password that confirms a social link (an existing account with the provider's verified email)
// is a password sign-in too: its failures count for that email, and past the wait the link page
// answers 429 with Retry-After and says so, without checking the password; after the wait the right
// password links the identity. Against a real local provider (test/helpers/tiny-idp.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, signup } from '../helpers/oauth.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe('per-account protection of the social link password', () => {
  let idp: TinyIdp;
  let m: MfaWard;
  before(async () => {
    idp = await startTinyIdp();
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: {
        rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
        sign_in_delay_after: 2,
        sign_in_lock_after: 4,
      },
      socialProviders: [
        {
          name: 'corp',
          type: 'oidc',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          label: 'Corp',
        },
      ],
    });
  });
  after(async () => {
    await m.close();
    await idp.close();
  });

  it('counts wrong link passwords, refuses during the wait, links after it', async () => {
    const owner = await signup(m.ward);
    idp.account = { sub: 'corp-owner', email: owner.email, email_verified: true, given_name: 'O', family_name: 'W' };
    const browser = new Browser(m.ward);
    const pkce = pkcePair();
    const start = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid email',
        state: 's',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        provider: 'corp',
      }),
    );
    const back = await browser.get(location(start).toString());
    const page = await browser.get(location(back).toString());
    const html = await page.text();
    assert.match(html, /You already have an account/);
    const post = (password: string) =>
      browser.postForm('/identity/v1/oauth/link', {
        link_token: field(html, 'link_token'),
        csrf: field(html, 'csrf'),
        password,
      });
    assert.equal((await post('wrong 1')).status, 401);
    assert.equal((await post('wrong 2')).status, 401);
    const waiting = await post(owner.password);
    assert.equal(waiting.status, 429);
    assert.equal(waiting.headers.get('retry-after'), '1');
    assert.match(await waiting.text(), /Too many failed attempts for this account/);
    assert.equal(await m.ward.registry.storage.identities.find('corp', 'corp-owner'), undefined, 'not linked');
    m.ward.clock.advance(1000);
    const ok = await post(owner.password);
    assert.equal(ok.status, 303);
    assert.equal((await m.ward.registry.storage.identities.find('corp', 'corp-owner'))?.user_id, owner.id);
  });
});

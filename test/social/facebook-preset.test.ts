// The `facebook` preset end to end against a local Facebook Login and Graph API
// (test/helpers/facebook-sim.ts), through Ward's hosted login page and callback with a cookie-keeping
// HTTP client: the dialog without PKCE, the code exchanged with the app secret as a parameter (HTTP
// Basic is not read there), /me with the fields Ward keeps and `appsecret_proof`; the account made from
// the profile (names; the email kept on the identity, not taken as verified), the same user at the
// next sign-in, a user who declines the email permission or cancels, the Graph API's refusals ending
// at the client as access_denied. The simulator's own checks, and the preset in the configuration and
// the management API. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Response } from 'undici';
import { validateSocialProviders } from '../../src/config/social.js';
import { Problems } from '../../src/config/validate.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { type FacebookAccount, type FacebookSim, startFacebookSim } from '../helpers/facebook-sim.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const check = (entry: Record<string, unknown>) => {
  const p = new Problems();
  const out = validateSocialProviders(p, [entry]);
  return { problems: p.list.join('\n'), out: out[0] };
};

/** The preset's own endpoints (paths, the fields asked of /me), on the simulator's origin. */
function presetOn(origin: string) {
  const { out } = check({ preset: 'facebook', client_id: 'x', client_secret: 'y' });
  const on = (u: string | undefined) => {
    const url = new URL(u!);
    return `${origin}${url.pathname}${url.search}`;
  };
  return {
    authorization_url: on(out?.authorization_url),
    token_url: on(out?.token_url),
    userinfo_url: on(out?.userinfo_url),
  };
}

let n = 0;
const account = (email: boolean = true): FacebookAccount => {
  n += 1;
  return {
    id: `1022334455${String(n).padStart(5, '0')}${Math.floor(Math.random() * 1000)}`,
    first_name: `Mark${n}`,
    last_name: 'Example',
    ...(email ? { email: `mark${n}.${Math.random().toString(16).slice(2, 8)}@facebook.example` } : {}),
  };
};

const PROVIDERS = ['facebook', 'fb-basic', 'fb-noproof', 'fb-wrong'];

for (const engine of engines()) {
  describe(`the facebook preset against a local Facebook Login (${engine})`, () => {
    let fb: FacebookSim;
    let ward: TestWard;
    before(async () => {
      fb = await startFacebookSim();
      const entry = (extra: Record<string, unknown>) => ({
        preset: 'facebook',
        ...presetOn(fb.url),
        client_id: fb.appId,
        client_secret: fb.appSecret,
        ...extra,
      });
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
        socialProviders: [
          entry({}),
          // Each differs from the preset by one thing Facebook does not take.
          entry({ name: 'fb-basic', token_endpoint_auth_method: 'client_secret_basic' }),
          entry({ name: 'fb-noproof', appsecret_proof: false }),
          entry({ name: 'fb-wrong', client_secret: 'not-the-app-secret' }),
        ],
      });
      fb.redirectUris = PROVIDERS.map((name) => `${ward.issuer}/identity/v1/oauth/callback/${name}`);
    });
    after(async () => {
      await ward?.close();
      await fb?.close();
    });

    const start = (browser: Browser, pkce: { challenge: string }, provider?: string) =>
      browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email profile',
          state: 'fb',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          provider,
        }),
      );

    /** From Ward's redirect to the dialog, through the dialog and Ward's callback: the client's answer. */
    async function throughDialog(browser: Browser, toDialog: Response) {
      assert.equal(toDialog.status, 302, await toDialog.clone().text());
      const dialog = location(toDialog);
      assert.equal(`${dialog.origin}${dialog.pathname}`, `${fb.url}/v19.0/dialog/oauth`);
      const fromDialog = await browser.get(dialog.toString());
      assert.equal(fromDialog.status, 302, await fromDialog.clone().text());
      const callback = location(fromDialog);
      assert.equal(callback.hash, '#_=_', "Facebook's fragment rides along");
      const res = await browser.get(callback.toString());
      assert.equal(res.status, 302, await res.text());
      const answer = location(res);
      assert.equal(answer.origin + answer.pathname, 'https://app.example/cb');
      return { dialog, answer };
    }

    async function signIn(provider = 'facebook') {
      const browser = new Browser(ward);
      const pkce = pkcePair();
      const { dialog, answer } = await throughDialog(browser, await start(browser, pkce, provider));
      return { dialog, answer, pkce };
    }

    async function idToken(answer: URL, verifier: string) {
      assert.equal(answer.searchParams.get('error'), null, answer.searchParams.get('error_description') ?? '');
      const { body } = await redeem(ward, answer.searchParams.get('code')!, verifier);
      return decodeJwt(body.id_token!);
    }

    it('signs in from the hosted page: no PKCE, the secret as a parameter, /me with appsecret_proof', async () => {
      fb.account = account();
      const browser = new Browser(ward);
      const pkce = pkcePair();
      const page = await start(browser, pkce);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /Continue with Facebook/);
      const href = /href="(\/oauth\/authorize\/social\?[^"]*provider=facebook)"/.exec(html)?.[1];
      assert.ok(href, 'the hosted page has the Facebook button');
      const dialogsBefore = fb.dialogs.length;
      const tokensBefore = fb.tokenRequests.length;
      const profilesBefore = fb.profileRequests.length;
      const { dialog, answer } = await throughDialog(browser, await browser.get(href.replace(/&amp;/g, '&')));

      const q = dialog.searchParams;
      assert.equal(fb.dialogs.length, dialogsBefore + 1);
      assert.equal(q.get('client_id'), fb.appId);
      assert.equal(q.get('redirect_uri'), `${ward.issuer}/identity/v1/oauth/callback/facebook`);
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('scope'), 'email public_profile');
      assert.ok(q.get('state'));
      for (const absent of ['code_challenge', 'code_challenge_method', 'nonce'])
        assert.equal(q.get(absent), null, absent);

      const claims = await idToken(answer, pkce.verifier);
      const [token] = fb.tokenRequests.slice(tokensBefore);
      assert.equal(fb.tokenRequests.length, tokensBefore + 1);
      assert.equal(token?.method, 'POST');
      assert.equal(token?.basic, false, 'no HTTP Basic');
      assert.equal(token?.params.client_id, fb.appId);
      assert.equal(token?.params.client_secret, fb.appSecret);
      assert.equal(token?.params.redirect_uri, q.get('redirect_uri'));
      assert.equal(token?.params.code_verifier, undefined);
      const [profile] = fb.profileRequests.slice(profilesBefore);
      assert.equal(profile?.get('fields'), 'id,first_name,last_name,email');
      assert.match(profile?.get('appsecret_proof') ?? '', /^[0-9a-f]{64}$/);

      assert.equal(claims.given_name, fb.account.first_name);
      assert.equal(claims.family_name, 'Example');
      assert.equal(claims.email, undefined, 'Facebook does not say the email is verified');
      assert.deepEqual(claims.amr, ['social', 'facebook']);
      const identity = await ward.registry.storage.identities.find('facebook', fb.account.id);
      assert.equal(identity?.user_id, claims.sub);
      assert.equal(identity?.email, fb.account.email, 'the email is kept on the identity');
      const user = await ward.registry.storage.users.findById(String(claims.sub));
      assert.equal(user?.email, null);
      assert.equal(user?.given_name, fb.account.first_name);

      const again = await signIn();
      assert.equal((await idToken(again.answer, again.pkce.verifier)).sub, claims.sub, 'the same user');
    });

    it('signs in a user who declined the email permission, or has no email', async () => {
      fb.account = account();
      fb.declines = ['email'];
      try {
        const { answer, pkce } = await signIn();
        const claims = await idToken(answer, pkce.verifier);
        assert.equal(claims.given_name, fb.account.first_name);
        assert.equal((await ward.registry.storage.identities.find('facebook', fb.account.id))?.email, null);
      } finally {
        fb.declines = [];
      }
      fb.account = account(false);
      const { answer, pkce } = await signIn();
      const claims = await idToken(answer, pkce.verifier);
      assert.equal(claims.family_name, 'Example');
      assert.equal((await ward.registry.storage.identities.find('facebook', fb.account.id))?.user_id, claims.sub);
    });

    it('sends a user who cancels at the dialog back to the client with access_denied', async () => {
      fb.account = account();
      fb.cancels = true;
      const tokensBefore = fb.tokenRequests.length;
      try {
        const { answer } = await signIn();
        assert.equal(answer.searchParams.get('error'), 'access_denied');
        assert.equal(answer.searchParams.get('state'), 'fb');
        assert.equal(fb.tokenRequests.length, tokensBefore, 'no code, no exchange');
      } finally {
        fb.cancels = false;
      }
    });

    it("ends the Graph API's refusals at the client as access_denied, naming the error, never a 500", async () => {
      const cases: Array<[string, RegExp]> = [
        ['fb-wrong', /refused: 400 \(OAuthException 1\)/], // a wrong app secret
        ['fb-basic', /refused: 400 \(OAuthException 101\)/], // HTTP Basic only: no client_id parameter
        ['fb-noproof', /refused: 400 \(GraphMethodException 100\)/], // /me without appsecret_proof
      ];
      for (const [provider, description] of cases) {
        fb.account = account();
        const { answer } = await signIn(provider);
        assert.equal(answer.searchParams.get('error'), 'access_denied', provider);
        assert.match(answer.searchParams.get('error_description') ?? '', description, provider);
        assert.equal(answer.searchParams.get('state'), 'fb');
        assert.equal(await ward.registry.storage.identities.find(provider, fb.account.id), undefined);
      }
      const basic = fb.tokenRequests.find((t) => t.basic);
      assert.equal(basic?.params.client_secret, undefined, 'Basic was tried, and refused');
      assert.equal(basic?.params.client_id, undefined);
    });
  });
}

describe('the facebook simulator speaks as Facebook documents', () => {
  let fb: FacebookSim;
  before(async () => {
    fb = await startFacebookSim();
    fb.redirectUris = ['https://rp.example/cb'];
  });
  after(() => fb?.close());

  async function code(redirect = 'https://rp.example/cb') {
    const q = new URLSearchParams({ client_id: fb.appId, redirect_uri: redirect, state: 's', scope: 'email' });
    const res = await fetch(`${fb.url}/v19.0/dialog/oauth?${q}`, { redirect: 'manual' });
    return new URL(res.headers.get('location')!).searchParams.get('code')!;
  }
  const exchange = async (params: Record<string, string>, init: RequestInit = {}) => {
    const res = await fetch(`${fb.url}/v19.0/oauth/access_token?${new URLSearchParams(params)}`, init);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('exchanges a code by the documented GET, once, only for its redirect_uri and with the secret', async () => {
    const good = { client_id: fb.appId, redirect_uri: 'https://rp.example/cb', client_secret: fb.appSecret };
    const wrongRedirect = await exchange({ ...good, redirect_uri: 'https://rp.example/other', code: await code() });
    assert.equal(wrongRedirect.status, 400);
    assert.equal(wrongRedirect.body.error.type, 'OAuthException');
    assert.equal(wrongRedirect.body.error.code, 100);
    const basic = `Basic ${Buffer.from(`${fb.appId}:${fb.appSecret}`).toString('base64')}`;
    const { client_secret: _s, ...noSecret } = good;
    const basicOnly = await exchange({ ...noSecret, code: await code() }, { headers: { authorization: basic } });
    assert.equal(basicOnly.status, 400);
    assert.match(basicOnly.body.error.message, /client_secret/);
    assert.equal((await exchange({ ...good, client_secret: 'nope', code: await code() })).status, 400);
    const c = await code();
    const ok = await exchange({ ...good, code: c });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.token_type, 'bearer');
    assert.equal((await exchange({ ...good, code: c })).body.error.message, 'This authorization code has been used.');
    const me = await fetch(`${fb.url}/v19.0/me?access_token=${encodeURIComponent(ok.body.access_token)}`);
    assert.equal(me.status, 400, 'the app requires appsecret_proof');
    assert.equal(((await me.json()) as Record<string, any>).error.type, 'GraphMethodException');
    const bad = await fetch(`${fb.url}/v19.0/me`, { headers: { authorization: 'Bearer EAAnot-a-token' } });
    assert.equal(((await bad.json()) as Record<string, any>).error.code, 190);
  });
});

describe('the facebook preset in the configuration and the management API', () => {
  it("gives Facebook's endpoints and rules; its overrides are checked", () => {
    const ok = check({ preset: 'facebook', client_id: '1234567890', client_secret: 'app-secret' });
    assert.equal(ok.problems, '');
    assert.equal(ok.out?.type, 'oauth2');
    assert.equal(ok.out?.authorization_url, 'https://www.facebook.com/v19.0/dialog/oauth');
    assert.equal(ok.out?.token_url, 'https://graph.facebook.com/v19.0/oauth/access_token');
    assert.equal(ok.out?.userinfo_url, 'https://graph.facebook.com/v19.0/me?fields=id,first_name,last_name,email');
    assert.equal(ok.out?.token_endpoint_auth_method, 'client_secret_post');
    assert.equal(ok.out?.pkce, false);
    assert.equal(ok.out?.appsecret_proof, true);
    assert.deepEqual(ok.out?.scopes, ['email', 'public_profile']);
    assert.match(check({ preset: 'facebook', client_id: '1' }).problems, /client_secret: is required/);
    const base = { preset: 'facebook', client_id: '1', client_secret: 's' };
    assert.match(
      check({ ...base, token_endpoint_auth_method: 'private_key_jwt' }).problems,
      /token_endpoint_auth_method: must be/,
    );
    assert.match(check({ ...base, pkce: 'no' }).problems, /pkce: must be true or false/);
    assert.match(check({ ...base, appsecret_proof: 1 }).problems, /appsecret_proof: must be true or false/);
    assert.match(check({ ...base, token_url: 'http://graph.example/t' }).problems, /token_url: must be https/);
    const plain = check({
      name: 'tiny',
      type: 'oidc',
      issuer: 'https://idp.example',
      client_id: 'a',
      client_secret: 'b',
    });
    assert.equal(plain.out?.token_endpoint_auth_method, undefined, 'other providers keep HTTP Basic');
    assert.equal(plain.out?.pkce, undefined);
  });

  it('is added through the management API with its rules shown', async () => {
    const ward = await startWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT] });
    try {
      const admin = api(ward, (await consoleToken(ward, 'manager')).token);
      const created = await admin.post('/api/v1/social-providers', {
        preset: 'facebook',
        client_id: '1234567890',
        client_secret: 'app-secret',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.name, 'facebook');
      assert.equal(created.body.token_endpoint_auth_method, 'client_secret_post');
      assert.equal(created.body.pkce, false);
      assert.equal(created.body.appsecret_proof, true);
      assert.equal(created.body.client_secret, undefined);
      const bad = await admin.patch('/api/v1/social-providers/facebook', { token_endpoint_auth_method: 'none' });
      assert.equal(bad.status, 400);
    } finally {
      await ward.close();
    }
  });
});

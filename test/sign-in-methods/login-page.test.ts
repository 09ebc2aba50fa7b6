// The sign-in methods' registry (src/sign-in-methods/): each method says when it is enabled, the login
// page shows exactly the enabled ones (passkeys, magic link, SMS code, social providers), and every
// route a method declares is one the app serves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import type { AccountSettings } from '../../src/config/types.js';
import type { AuthorizeRequest } from '../../src/protocol/authorize/request.js';
import { enabledMethods, SIGN_IN_METHODS } from '../../src/sign-in-methods/index.js';
import { Browser } from '../helpers/browser.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('the sign-in methods registry', () => {
  let ward: TestWard;
  // The account's defaults as the running configuration has them.
  let DEFAULT_ACCOUNT: AccountSettings;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
    DEFAULT_ACCOUNT = ward.registry.account();
  });
  after(() => ward.close());
  const request = (client: Record<string, unknown>) =>
    ({
      client: { client_id: 'spa', management_scopes: [], custom_token_login: false, ...client },
    }) as unknown as AuthorizeRequest;
  const ids = (account: Partial<AccountSettings>, client: Record<string, unknown> = {}, providers = 0) =>
    enabledMethods({
      account: { ...DEFAULT_ACCOUNT, ...account },
      request: request(client),
      providers: Array.from({ length: providers }, (_, i) => ({ name: `p${i}`, label: `P${i}` })),
    }).map((m) => m.id);

  it('offers only the password by default', () => {
    assert.deepEqual(ids({}), ['password']);
  });

  it('offers each method when the account, the client or the providers allow it', () => {
    assert.deepEqual(ids({ passwordless: { magic_link: true, sms: false, signup: false } }), [
      'password',
      'magic_link',
    ]);
    assert.deepEqual(ids({ passwordless: { magic_link: false, sms: true, signup: false } }), ['password', 'sms']);
    assert.deepEqual(ids({ passkeys: { ...DEFAULT_ACCOUNT.passkeys, enabled: true } }), ['password', 'passkey']);
    assert.deepEqual(ids({}, {}, 2), ['password', 'social']);
    assert.deepEqual(ids({}, { custom_token_login: true }), ['password', 'custom_token']);
  });

  it('never offers custom tokens to a system or management client', () => {
    assert.deepEqual(ids({}, { custom_token_login: true, management_scopes: ['read:users'] }), ['password']);
    assert.deepEqual(ids({}, { custom_token_login: true, client_id: 'ward-console' }), ['password']);
  });

  it('declares each method once, with its amr and at least one route', () => {
    const seen = new Set<string>();
    for (const m of SIGN_IN_METHODS) {
      assert.ok(!seen.has(m.id), `${m.id} declared twice`);
      seen.add(m.id);
      assert.ok(m.amr.length > 0 && m.routes.length > 0, m.id);
    }
  });
});

describe('the login page lists the enabled sign-in methods', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      socialProviders: [
        {
          name: 'plain',
          type: 'oauth2',
          label: 'Plain',
          authorization_url: 'https://idp.example/authorize',
          token_url: 'https://idp.example/token',
          userinfo_url: 'https://idp.example/me',
          client_id: 'ward',
          client_secret: 'a-provider-secret',
        },
      ],
    });
  });
  after(() => ward.close());

  async function loginHtml(): Promise<string> {
    const res = await new Browser(ward).get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    const html = await res.text();
    assert.equal(res.status, 200, html.slice(0, 300));
    return html;
  }

  const PASSKEY = 'action="/oauth/authorize/passkey"';
  const MAGIC_LINK = 'name="auth_type" value="magic_link"';
  const SMS = 'name="auth_type" value="sms"';

  it('shows the password form, the forgot link and the configured provider; no passkey, no passwordless when off', async () => {
    const html = await loginHtml();
    assert.match(html, /action="\/oauth\/authorize\/login"/);
    assert.match(html, /\/identity\/v1\/password\/forgot\?client_id=spa/);
    assert.match(html, /\/oauth\/authorize\/social\?interaction=[^"]+&amp;provider=plain/);
    for (const off of [PASSKEY, MAGIC_LINK, SMS]) assert.ok(!html.includes(off), `${off} shown while off`);
  });

  it('shows each passwordless form only when its channel is on', async () => {
    const passwordless = (magic_link: boolean, sms: boolean) =>
      ward.setAccount({ passwordless: { magic_link, sms, signup: false } });
    try {
      passwordless(true, false);
      let html = await loginHtml();
      assert.ok(html.includes(MAGIC_LINK) && !html.includes(SMS));
      passwordless(false, true);
      html = await loginHtml();
      assert.ok(!html.includes(MAGIC_LINK) && html.includes(SMS));
      passwordless(true, true);
      html = await loginHtml();
      assert.ok(html.includes(MAGIC_LINK) && html.includes(SMS));
    } finally {
      passwordless(false, false);
    }
  });

  it('shows the passkey sign-in only when passkeys are on', async () => {
    const passkeys = (enabled: boolean) =>
      ward.setAccount({ passkeys: { ...ward.registry.account().passkeys, enabled } });
    try {
      passkeys(true);
      assert.ok((await loginHtml()).includes(PASSKEY));
      passkeys(false);
      assert.ok(!(await loginHtml()).includes(PASSKEY));
    } finally {
      passkeys(false);
    }
  });

  it('serves every route a sign-in method declares', async () => {
    const app = await buildApp(ward.registry);
    try {
      await app.ready();
      for (const m of SIGN_IN_METHODS)
        for (const route of m.routes) {
          const [method, url] = route.split(' ') as [string, string];
          assert.ok(app.hasRoute({ method: method as 'GET' | 'POST', url }), `${m.id}: ${route} is served`);
        }
    } finally {
      await app.close();
    }
  });
});

// Custom identifiers and the identifiers a password signs in with (issue 37, item 3;
// docs/profiles.md#custom-identifiers), on both engines: a custom identifier set at signup (through the
// unmodified Core SDK) or by an administrator, stored normalised and unique; sign-in with it through the
// SDK's loginWithPassword({customIdentifier}), the password grant and the hosted login form, only where
// the account's sign_in_identifiers allow it (login_type_allowed says so); an unknown identifier and a
// wrong password read the same, and failures of one unknown identifier lock it like an email's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, pkcePair, signup, spaAuthorizeUrl, tokenRequest } from '../helpers/oauth.js';
import { installBrowserShims } from '../helpers/sdk-shims.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const MOBILE = { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] };
const ACCOUNT = {
  sign_in_identifiers: { email: true, phone_number: true, custom_identifier: true },
  sign_in_delay_after: 3,
  sign_in_lock_after: 3,
  rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
};

for (const engine of engines()) {
  describe(`custom identifiers (${engine})`, () => {
    let ward: TestWard;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MOBILE, CONSOLE_CLIENT], account: ACCOUNT });
      admin = api(ward, (await consoleToken(ward, 'administrator')).token);
    });
    after(() => ward.close());

    const post = async (path: string, body: unknown) => {
      const res = await ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const login = (identifier: Record<string, string>, password: string) =>
      post('/identity/v1/password/login', { client_id: 'spa', scope: 'openid profile', ...identifier, password });
    const grant = (username: string, password: string) =>
      tokenRequest(ward, { grant_type: 'password', username, password, client_id: 'mobile', scope: 'openid profile' });
    const suffix = () => Math.random().toString(36).slice(2, 8);

    it('keeps a signup custom identifier normalised, and signs in with it through the SDK', async () => {
      const id = `Member-${suffix()}`;
      const user = await signup(ward, 'spa', { custom_identifier: ` ${id} ` });
      assert.equal(await ward.registry.storage.customIdentifiers.ofUser(user.id), id.toLowerCase());
      const shown = await admin.get(`/api/v1/users/${user.id}`);
      assert.equal(shown.body.custom_identifier, id.toLowerCase());

      installBrowserShims(ward, 'https://app.example');
      const sdk = await import('@reachfive/identity-core');
      const client = sdk.createClient({ domain: new URL(ward.url).host, clientId: 'spa' });
      const config = await ward.fetch('/identity/v1/config?client_id=spa');
      assert.deepEqual(((await config.json()) as Record<string, any>).login_type_allowed, ACCOUNT.sign_in_identifiers);
      const outcome = await client
        .loginWithPassword({
          customIdentifier: id.toUpperCase(),
          password: user.password,
          auth: { redirectUri: 'https://app.example/cb' },
        })
        .then(
          () => 'ok',
          (e: { errorMessageKey?: string }) => `refused ${e.errorMessageKey}`,
        );
      assert.equal(outcome, 'ok');

      // The userinfo of a profile-scoped token names it.
      const ok = await grant(id, user.password);
      assert.equal(ok.status, 200, await ok.clone().text());
      const access = ((await ok.json()) as { access_token: string }).access_token;
      const info = await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${access}` } });
      assert.equal(((await info.json()) as Record<string, unknown>).custom_identifier, id.toLowerCase());
    });

    it('signs in with a custom identifier on the hosted login form', async () => {
      const id = `form-${suffix()}`;
      const user = await signup(ward, 'spa', { custom_identifier: id });
      const browser = new Browser(ward);
      const page = await browser.get(spaAuthorizeUrl(pkcePair().challenge));
      const html = await page.text();
      assert.match(html, /<input id="email" name="email" type="text"/, 'the field takes any identifier');
      assert.match(html, /Email, phone number or username/);
      const signedIn = await submitLoginPage(browser, html, id, user.password);
      assert.ok([302, 303].includes(signedIn.status), `hosted form: ${signedIn.status}`);
      assert.match(signedIn.headers.get('location') ?? '', /code=/);
    });

    it('refuses a malformed or taken custom identifier, and creates nothing', async () => {
      for (const bad of ['two words', 'a@b', '+3361234', 'x'.repeat(101), '', 42]) {
        const res = await post('/identity/v1/signup', {
          client_id: 'spa',
          data: { email: `bad-${suffix()}@example.com`, password: 'correct horse battery', custom_identifier: bad },
        });
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error_details?.[0]?.field, 'data.custom_identifier', JSON.stringify(res.body));
      }
      const id = `taken-${suffix()}`;
      await signup(ward, 'spa', { custom_identifier: id });
      const email = `second-${suffix()}@example.com`;
      const again = await post('/identity/v1/signup', {
        client_id: 'spa',
        data: { email, password: 'correct horse battery', custom_identifier: id.toUpperCase() },
      });
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(again.body.error_message_key, 'error.customIdentifier.alreadyInUse');
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, 'no user was created');
    });

    it('answers an unknown identifier like a wrong password, and locks it after failures', async () => {
      const id = `known-${suffix()}`;
      const user = await signup(ward, 'spa', { custom_identifier: id });
      const wrong = await login({ custom_identifier: id }, 'not the password');
      const unknown = await login({ custom_identifier: `nobody-${suffix()}` }, 'not the password');
      assert.equal(wrong.status, 400);
      assert.deepEqual(
        [unknown.status, unknown.body.error_message_key],
        [wrong.status, wrong.body.error_message_key],
        'the same answer',
      );
      const stranger = `stranger-${suffix()}`;
      for (let i = 0; i < 3; i++) await login({ custom_identifier: stranger }, 'guess');
      const locked = await login({ custom_identifier: stranger }, 'guess');
      assert.equal(locked.status, 429, JSON.stringify(locked.body));
      assert.equal((await login({ custom_identifier: id }, user.password)).status, 200, 'others are not locked');
    });

    it('lets an administrator set, change and remove it; a taken one is a 409', async () => {
      const first = await signup(ward, 'spa');
      const second = await signup(ward, 'spa', { custom_identifier: `holder-${suffix()}` });
      const held = await ward.registry.storage.customIdentifiers.ofUser(second.id);
      const id = `Admin-${suffix()}`;
      const set = await admin.patch(`/api/v1/users/${first.id}`, { custom_identifier: id });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.body.custom_identifier, id.toLowerCase());
      assert.equal((await login({ custom_identifier: id }, first.password)).status, 200);
      const exported = await admin.get(`/api/v1/users/${first.id}/export`);
      assert.equal(exported.body.user.custom_identifier, id.toLowerCase(), "the user's data download holds it");

      const clash = await admin.patch(`/api/v1/users/${first.id}`, { custom_identifier: held, given_name: 'Changed' });
      assert.equal(clash.status, 409, JSON.stringify(clash.body));
      assert.equal(clash.body.error_message_key, 'error.customIdentifier.alreadyInUse');
      assert.equal(await ward.registry.storage.customIdentifiers.ofUser(first.id), id.toLowerCase(), 'kept');
      assert.equal((await ward.registry.storage.users.findById(first.id))!.given_name, 'Ada', 'nothing else changed');

      const bad = await admin.patch(`/api/v1/users/${first.id}`, { custom_identifier: 'with space' });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));

      const removed = await admin.patch(`/api/v1/users/${first.id}`, { custom_identifier: null });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal(removed.body.custom_identifier, null);
      assert.equal((await login({ custom_identifier: id }, first.password)).status, 400, 'the old one is gone');
    });

    it('refuses each kind of identifier the account does not allow', async () => {
      const id = `off-${suffix()}`;
      const user = await signup(ward, 'spa', { custom_identifier: id });
      const off = { email: true, phone_number: true, custom_identifier: false };
      assert.equal((await admin.patch('/api/v1/settings/account', { sign_in_identifiers: off })).status, 200);
      try {
        const refused = await login({ custom_identifier: id }, user.password);
        assert.equal(refused.status, 400, JSON.stringify(refused.body));
        assert.equal(refused.body.error_message_key, 'error.signIn.identifierNotAllowed');
        assert.equal((await grant(id, user.password)).status, 400);
        assert.equal((await login({ email: user.email }, user.password)).status, 200);
        const config = await ward.fetch('/identity/v1/config?client_id=spa');
        assert.deepEqual(((await config.json()) as Record<string, any>).login_type_allowed, off);

        const none = { email: false, phone_number: false, custom_identifier: false };
        const invalid = await admin.patch('/api/v1/settings/account', { sign_in_identifiers: none });
        assert.equal(invalid.status, 400, 'some identifier must sign in');

        const customOnly = { email: false, phone_number: false, custom_identifier: true };
        assert.equal((await admin.patch('/api/v1/settings/account', { sign_in_identifiers: customOnly })).status, 200);
        const byEmail = await login({ email: user.email }, user.password);
        assert.equal(byEmail.body.error_message_key, 'error.signIn.identifierNotAllowed');
        assert.equal((await login({ custom_identifier: id }, user.password)).status, 200);
      } finally {
        await admin.patch('/api/v1/settings/account', { sign_in_identifiers: ACCOUNT.sign_in_identifiers });
      }
    });
  });
}

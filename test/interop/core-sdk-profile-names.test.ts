// The last fields of the Core SDK's SignupProfileData (issue 37, item 2): `name`, `profileURL` and
// `username`, through the unmodified Core SDK against a listening Ward, on SQLite and PostgreSQL: kept at
// signup, read back with getUser and `fields`, changed and cleared with updateProfile, released as the
// OpenID `name`, `profile` and `preferred_username` claims (ID token and userinfo, `profile` scope), written
// by the management API and the bulk import; bad values are a 400 with errorDetails that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { SHOP_CALLBACK, SHOP_PASSWORD, type SdkError, type ShopSdk, startShopSdk } from '../helpers/sdk-app.js';
import type { TestWard } from '../helpers/ward.js';

for (const engine of engines())
  describe(`Core SDK: name, profile URL and username (${engine})`, () => {
    let shop: ShopSdk;
    let ward: TestWard;
    before(async () => {
      shop = await startShopSdk({ engine, clients: [CONSOLE_CLIENT] });
      ward = shop.ward;
    });
    after(() => ward.close());

    const client = () => shop.client();
    const newEmail = () => shop.newEmail('sdk-n');
    const getUser = (accessToken: string, fields?: string) => shop.getUser(accessToken, fields);

    const signedUp = (data: Record<string, unknown>) =>
      shop.signedUp({ email: newEmail(), ...data }, 'openid profile email');

    it('signup keeps them; getUser reads each; the ID token and userinfo carry the OpenID claims', async () => {
      const { accessToken, idToken } = await signedUp({
        givenName: 'Ada',
        familyName: 'Lovelace',
        name: 'Augusta Ada King, Countess of Lovelace',
        profileURL: 'https://people.example/ada',
        username: 'ada.l',
      });
      const sub = (await getUser(accessToken)).sub;
      assert.deepEqual(await getUser(accessToken, 'name,profile_url,username'), {
        sub,
        name: 'Augusta Ada King, Countess of Lovelace',
        profileUrl: 'https://people.example/ada',
        username: 'ada.l',
      });
      // The OpenID names of the same values (userinfo answers both, as the SDK's OpenIdUser reads them).
      const all = await getUser(accessToken);
      assert.equal(all.profile, 'https://people.example/ada');
      assert.equal(all.preferredUsername, 'ada.l');
      const claims = decodeJwt(idToken);
      assert.equal(claims.name, 'Augusta Ada King, Countess of Lovelace');
      assert.equal(claims.profile, 'https://people.example/ada');
      assert.equal(claims.preferred_username, 'ada.l');
      assert.equal(claims.profile_url, undefined, 'the ID token speaks OpenID only');
    });

    it('updateProfile changes and clears them; without a written name the claim joins the names', async () => {
      const { accessToken } = await signedUp({ givenName: 'Ada', familyName: 'Lovelace', username: 'ada' });
      assert.equal((await getUser(accessToken, 'name')).name, 'Ada Lovelace', 'the names joined');
      await client().updateProfile({
        accessToken,
        data: { name: 'Ada L.', profileURL: 'http://ada.example/', username: 'countess' } as never,
      });
      assert.deepEqual(await getUser(accessToken, 'name,profile_url,username,preferred_username,profile'), {
        sub: (await getUser(accessToken)).sub,
        name: 'Ada L.',
        profileUrl: 'http://ada.example/',
        username: 'countess',
        preferredUsername: 'countess',
        profile: 'http://ada.example/',
      });
      await client().updateProfile({ accessToken, data: { name: null, profileURL: '', username: null } as never });
      const user = await getUser(accessToken, 'name,profile_url,username,preferred_username,profile');
      assert.equal(user.name, 'Ada Lovelace');
      assert.equal(user.profileUrl, null);
      assert.equal(user.username, null);
      assert.equal(user.preferredUsername, undefined);
      assert.equal(user.profile, undefined);
    });

    it('a username is not unique: two users may share one', async () => {
      // (One browser: the second signup's session replaces the first's, so each is read in turn.)
      const a = await signedUp({ username: 'shared' });
      assert.equal((await getUser(a.accessToken, 'username')).username, 'shared');
      const b = await signedUp({ username: 'shared' });
      assert.equal((await getUser(b.accessToken, 'username')).username, 'shared');
      assert.notEqual(a.email, b.email);
    });

    it('refuses bad values with errorDetails, at signup and in updateProfile, keeping what was there', async () => {
      const { accessToken } = await signedUp({ name: 'Ada', profileURL: 'https://a.example/', username: 'ada' });
      const refused = async (data: Record<string, unknown>, fields: string[]) =>
        assert.rejects(client().updateProfile({ accessToken, data: data as never }), (e: SdkError) => {
          assert.equal(e.error, 'invalid_request');
          assert.equal(e.errorMessageKey, 'error.invalidParameter');
          assert.deepEqual(e.errorDetails!.map((d) => d.field).sort(), fields);
          assert.ok(e.errorDetails!.every((d) => d.code === 'invalid'));
          return true;
        });
      await refused({ name: 'x'.repeat(301), profileURL: 'javascript:alert(1)', username: ' ada' }, [
        'name',
        'profile_url',
        'username',
      ]);
      await refused({ name: 'a\u0000b', profileURL: 'ftp://files.example/', username: 'x'.repeat(101) }, [
        'name',
        'profile_url',
        'username',
      ]);
      await refused({ name: 12, profileURL: 'https://user:pw@a.example/', username: ['ada'] }, [
        'name',
        'profile_url',
        'username',
      ]);
      await refused({ name: '   ', profileURL: 'not a url', username: 'ada\n' }, ['name', 'profile_url', 'username']);
      assert.deepEqual(await getUser(accessToken, 'name,profile_url,username'), {
        sub: (await getUser(accessToken)).sub,
        name: 'Ada',
        profileUrl: 'https://a.example/',
        username: 'ada',
      });
      const email = newEmail();
      await assert.rejects(
        client().signup({
          data: { email, password: SHOP_PASSWORD, profileURL: 'data:text/html,hi', username: 'x'.repeat(101) },
          auth: { redirectUri: SHOP_CALLBACK },
        }),
        (e: SdkError) => {
          assert.deepEqual(e.errorDetails!.map((d) => d.field).sort(), ['data.profile_url', 'data.username']);
          return true;
        },
      );
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, 'nothing created');
    });

    it('the management API and the bulk import read and write them', async () => {
      const { accessToken, email } = await signedUp({ username: 'before' });
      const id = (await ward.registry.storage.users.findByEmail(email))!.id;
      const token = (await consoleToken(ward, 'manager')).token;
      const manager = api(ward, token);
      const patched = await manager.patch(`/api/v1/users/${id}`, {
        name: 'Set By Support',
        profile_url: 'https://support.example/u/1',
        username: 'after',
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.name, 'Set By Support');
      assert.equal(patched.body.profile_url, 'https://support.example/u/1');
      assert.equal(patched.body.username, 'after');
      assert.equal((await manager.get(`/api/v1/users/${id}`)).body.username, 'after');
      assert.equal((await getUser(accessToken, 'username')).username, 'after');
      const bad = await manager.patch(`/api/v1/users/${id}`, { profile_url: 'mailto:a@b.example' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error_details[0].field, 'profile_url');

      const imported = newEmail();
      const lines = [
        { email: imported, name: 'Imported Name', profile_url: 'https://i.example/', username: 'imp' },
        { email: newEmail(), username: 'x'.repeat(101) },
      ];
      const res = await ward.fetch('/api/v1/users/import?report=all', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: lines.map((l) => JSON.stringify(l)).join('\n'),
      });
      const report = (await res.json()) as { created: number; results: Array<{ status: string }> };
      assert.equal(report.created, 1, JSON.stringify(report));
      assert.equal(report.results[1]!.status, 'refused', JSON.stringify(report));
      const p = (await ward.registry.storage.profiles.find(
        (await ward.registry.storage.users.findByEmail(imported))!.id,
      ))!;
      assert.equal(p.name, 'Imported Name');
      assert.equal(p.profile_url, 'https://i.example/');
      assert.equal(p.username, 'imp');
    });
  });

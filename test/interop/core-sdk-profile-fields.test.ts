// The whole ReachFive profile (issue 37, item 2) through the unmodified Core SDK against a listening
// Ward, on SQLite and PostgreSQL: `addresses`, `company`, `bio` and `lite_only` on signup, read back
// with getUser and each `fields` value, changed with updateProfile and the management API; the OpenID
// `address` claim is the default address; bad input to each is a 400 with errorDetails that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { SHOP_CALLBACK, SHOP_PASSWORD, type SdkError, type ShopSdk, startShopSdk } from '../helpers/sdk-app.js';
import type { TestWard } from '../helpers/ward.js';

const HOME = {
  title: 'Home',
  isDefault: true,
  addressType: 'delivery' as const,
  streetAddress: '12 rue de la Paix',
  addressComplement: 'Bâtiment B',
  locality: 'Paris',
  region: 'Île-de-France',
  postalCode: '75002',
  country: 'FR',
  raw: '12 rue de la Paix\n75002 Paris',
  deliveryNote: 'Code 1234',
  recipient: 'Ada Lovelace',
  company: 'Analytical Engines',
  phoneNumber: '+33612345678',
};
const OFFICE = { title: 'Office', addressType: 'billing' as const, locality: 'London', country: 'GB' };
/** HOME as getUser answers it (the SDK camel-cases `default` to itself and `is_default` to isDefault). */
const HOME_READ = { ...HOME, default: true };
const OFFICE_READ = { ...OFFICE, default: false, isDefault: false };

for (const engine of engines())
  describe(`Core SDK: the whole ReachFive profile (${engine})`, () => {
    let shop: ShopSdk;
    let ward: TestWard;
    before(async () => {
      shop = await startShopSdk({ engine, clients: [CONSOLE_CLIENT] });
      ward = shop.ward;
    });
    after(() => ward.close());

    const client = () => shop.client();
    const newEmail = () => shop.newEmail('sdk-w');
    const getUser = (accessToken: string, fields?: string) => shop.getUser(accessToken, fields);

    const signedUp = (data: Record<string, unknown>) =>
      shop.signedUp({ email: newEmail(), ...data }, 'openid profile email phone address');

    it('signup keeps addresses, company, bio and lite_only; getUser reads each field', async () => {
      const { accessToken } = await signedUp({
        addresses: [HOME, OFFICE],
        company: 'Analytical Engines',
        bio: 'Wrote the first program.\nCountess.',
        liteOnly: false,
      });
      assert.deepEqual((await getUser(accessToken, 'addresses')).addresses, [HOME_READ, OFFICE_READ]);
      // The SDK camel-cases `is_default`; the answer also says `default`, ReachFive's own name.
      assert.equal(
        ((await getUser(accessToken, 'addresses')).addresses as Array<{ isDefault: boolean }>)[0]!.isDefault,
        true,
      );
      assert.deepEqual(await getUser(accessToken, 'company'), {
        sub: (await getUser(accessToken)).sub,
        company: 'Analytical Engines',
      });
      assert.equal((await getUser(accessToken, 'bio')).bio, 'Wrote the first program.\nCountess.');
      assert.equal((await getUser(accessToken, 'lite_only')).liteOnly, false);
      // The OpenID Connect address claim is the default address.
      assert.deepEqual((await getUser(accessToken, 'address')).address, {
        formatted: HOME.raw,
        streetAddress: `${HOME.streetAddress}\n${HOME.addressComplement}`,
        locality: 'Paris',
        region: 'Île-de-France',
        postalCode: '75002',
        country: 'FR',
      });
    });

    it('updateProfile changes and clears them', async () => {
      const { accessToken } = await signedUp({ addresses: [OFFICE], company: 'ACME' });
      assert.equal((await getUser(accessToken, 'address')).address, undefined, 'no default address, no claim');
      await client().updateProfile({
        accessToken,
        data: { addresses: [{ ...OFFICE, isDefault: true }], company: null, bio: 'Hello' } as never,
      });
      const user = await getUser(accessToken, 'addresses,company,bio,address');
      assert.deepEqual(user.addresses, [{ ...OFFICE, default: true, isDefault: true }]);
      assert.equal(user.company, null);
      assert.equal(user.bio, 'Hello');
      assert.deepEqual(user.address, { locality: 'London', country: 'GB' });
      await client().updateProfile({ accessToken, data: { addresses: [] } });
      assert.deepEqual((await getUser(accessToken, 'addresses')).addresses, []);
    });

    it('refuses bad input to every new field with errorDetails, keeping what was there', async () => {
      const { accessToken } = await signedUp({ addresses: [HOME], company: 'ACME', bio: 'Bio' });
      const refused = async (data: Record<string, unknown>, fields: string[]) =>
        assert.rejects(client().updateProfile({ accessToken, data: data as never }), (e: SdkError) => {
          assert.equal(e.error, 'invalid_request');
          assert.equal(e.errorMessageKey, 'error.invalidParameter');
          assert.deepEqual(e.errorDetails!.map((d) => d.field).sort(), fields);
          return true;
        });
      await refused({ addresses: { locality: 'Paris' } }, ['addresses']);
      await refused({ addresses: [HOME, { ...OFFICE, isDefault: true }] }, ['addresses']);
      await refused({ addresses: Array.from({ length: 11 }, () => OFFICE) }, ['addresses']);
      await refused(
        {
          addresses: [
            { addressType: 'home', phoneNumber: '12', locality: 7, zip: '1', title: 'x'.repeat(101) },
            'Paris',
            {},
            { isDefault: 'yes', raw: 'a\u0000b' },
          ],
        },
        [
          'addresses[0].address_type',
          'addresses[0].locality',
          'addresses[0].phone_number',
          'addresses[0].title',
          'addresses[0].zip',
          'addresses[1]',
          'addresses[2]',
          'addresses[3].is_default',
          'addresses[3].raw',
        ],
      );
      await refused({ company: 'x'.repeat(201), bio: 12 }, ['bio', 'company']);
      await refused({ liteOnly: true }, ['lite_only']);
      await refused({ liteOnly: 'no' }, ['lite_only']);
      const user = await getUser(accessToken, 'addresses,company,bio,lite_only');
      assert.deepEqual(user.addresses, [HOME_READ]);
      assert.equal(user.company, 'ACME');
      assert.equal(user.bio, 'Bio');
      assert.equal(user.liteOnly, false);
      // At signup too: nothing is created.
      const email = newEmail();
      await assert.rejects(
        client().signup({
          data: { email, password: SHOP_PASSWORD, addresses: [{ country: 'x'.repeat(101) }], liteOnly: true },
          auth: { redirectUri: SHOP_CALLBACK },
        }),
        (e: SdkError) => {
          assert.deepEqual(e.errorDetails!.map((d) => d.field).sort(), ['data.addresses[0].country', 'data.lite_only']);
          return true;
        },
      );
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined);
    });

    it('the management API reads and writes them, lite_only included', async () => {
      const { accessToken, email } = await signedUp({ company: 'ACME' });
      const id = (await ward.registry.storage.users.findByEmail(email))!.id;
      const manager = api(ward, (await consoleToken(ward, 'manager')).token);
      const patched = await manager.patch(`/api/v1/users/${id}`, {
        addresses: [{ default: true, locality: 'Lyon', phone_number: '+33 6 12 34 56 78' }],
        bio: 'Set by support',
        lite_only: true,
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.addresses, [
        { default: true, is_default: true, locality: 'Lyon', phone_number: '+33612345678' },
      ]);
      assert.equal(patched.body.company, 'ACME');
      assert.equal(patched.body.bio, 'Set by support');
      assert.equal(patched.body.lite_only, true);
      const read = await manager.get(`/api/v1/users/${id}`);
      assert.equal(read.body.lite_only, true);
      assert.deepEqual(read.body.addresses, patched.body.addresses);
      const bad = await manager.patch(`/api/v1/users/${id}`, { addresses: [{ address_type: 'home' }], lite_only: 1 });
      assert.equal(bad.status, 400);
      assert.ok(bad.body.error_message_key);
      assert.equal((await getUser(accessToken, 'lite_only')).liteOnly, true);
    });

    it('the bulk import writes them, and refuses a line with a bad one', async () => {
      const token = (await consoleToken(ward, 'manager')).token;
      const email = newEmail();
      const lines = [
        {
          email,
          addresses: [{ default: true, locality: 'Nantes', address_type: 'billing' }],
          company: 'ACME',
          bio: 'Imported',
          lite_only: true,
        },
        {
          email: newEmail(),
          addresses: [
            { default: true, locality: 'A' },
            { default: true, locality: 'B' },
          ],
        },
      ];
      const res = await ward.fetch('/api/v1/users/import?report=all', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: lines.map((l) => JSON.stringify(l)).join('\n'),
      });
      const report = (await res.json()) as Record<string, any>;
      assert.equal(report.created, 1, JSON.stringify(report));
      assert.equal(report.results[1].status, 'refused', JSON.stringify(report));
      const id = (await ward.registry.storage.users.findByEmail(email))!.id;
      const p = (await ward.registry.storage.profiles.find(id))!;
      assert.deepEqual(p.addresses, [{ default: true, locality: 'Nantes', address_type: 'billing' }]);
      assert.equal(p.company, 'ACME');
      assert.equal(p.bio, 'Imported');
      assert.equal(p.lite_only, true);
    });
  });

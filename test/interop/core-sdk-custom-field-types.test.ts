// Every custom field type of the Core SDK (number, integer, decimal, string, date, checkbox, select,
// tags, object, phone, email) with its translations in the remote settings, through the unmodified SDK
// against a listening Ward on SQLite and PostgreSQL: a signup filling SignupProfileData's fields Ward
// keeps and every type, read back with getUser and each `fields` value; updateProfile; and a 400 with
// errorDetails for an ill-typed value of each, nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { SHOP_PASSWORD, type SdkError, type ShopSdk, startShopSdk } from '../helpers/sdk-app.js';
import type { TestWard } from '../helpers/ward.js';

const CUSTOM_FIELDS = [
  { name: 'shoe_size', data_type: 'number', name_translations: [{ lang_code: 'fr', label: 'Pointure' }] },
  { name: 'children', data_type: 'integer' },
  { name: 'balance', data_type: 'decimal' },
  { name: 'nickname_2', data_type: 'string' },
  { name: 'wedding', data_type: 'date' },
  { name: 'newsletter', data_type: 'checkbox' },
  {
    name: 'tier',
    data_type: 'select',
    values: ['silver', 'gold'],
    value_labels: [{ value: 'gold', label: 'Gold', translations: [{ lang_code: 'fr', label: 'Or' }] }],
  },
  { name: 'interests', data_type: 'tags', values: ['shoes', 'bags', 'hats'] },
  { name: 'free_tags', data_type: 'tags' },
  { name: 'preferences', data_type: 'object' },
  { name: 'work_phone', data_type: 'phone' },
  { name: 'work_email', data_type: 'email' },
];
const VALUES = {
  shoe_size: 38.5,
  children: 2,
  balance: 12.75,
  nickname_2: 'Ada',
  wedding: '1835-07-08',
  newsletter: true,
  tier: 'gold',
  interests: ['shoes', 'hats'],
  free_tags: ['vip'],
  preferences: { theme: 'dark', sizes: { shoe: 38 } },
  work_phone: '+33612345678',
  work_email: 'ada@work.example',
};

for (const engine of engines())
  describe(`Core SDK: every custom field type (${engine})`, () => {
    let shop: ShopSdk;
    let ward: TestWard;
    before(async () => {
      shop = await startShopSdk({ engine, account: { custom_fields: CUSTOM_FIELDS } });
      ward = shop.ward;
    });
    after(() => ward.close());

    const client = () => shop.client();
    const getUser = (accessToken: string, fields?: string) => shop.getUser(accessToken, fields);

    it('the remote settings list each type with its translations', async () => {
      const res = await ward.fetch('/identity/v1/config?client_id=shop-web');
      const config = (await res.json()) as { custom_fields: Array<Record<string, unknown>> };
      assert.deepEqual(
        config.custom_fields.map((f) => f.data_type),
        [
          'number',
          'integer',
          'decimal',
          'string',
          'date',
          'checkbox',
          'select',
          'tags',
          'tags',
          'object',
          'phone',
          'email',
        ],
      );
      assert.deepEqual(config.custom_fields[0]!.name_translations, [{ lang_code: 'fr', label: 'Pointure' }]);
      assert.deepEqual(config.custom_fields[6]!.selectable_values, [
        { value: 'silver', label: 'silver', translations: [] },
        { value: 'gold', label: 'Gold', translations: [{ lang_code: 'fr', label: 'Or' }] },
      ]);
    });

    it('a signup filling the profile and every type, read back with each field', async () => {
      const email = shop.newEmail('sdk-t');
      const data = {
        email,
        password: SHOP_PASSWORD,
        phoneNumber: '+33698765432',
        givenName: 'Ada',
        middleName: 'King',
        familyName: 'Lovelace',
        nickname: 'ada',
        birthdate: '1815-12-10',
        picture: 'https://pics.example/ada.png',
        gender: 'female',
        locale: 'en-GB',
        addresses: [{ isDefault: true, locality: 'London', country: 'GB' }],
        bio: 'Countess',
        company: 'Analytical Engines',
        liteOnly: false,
        customFields: VALUES,
      };
      const { accessToken } = await shop.signedUp(data, 'openid profile email phone address');
      const expected: Record<string, unknown> = {
        email,
        phoneNumber: '+33698765432',
        givenName: 'Ada',
        middleName: 'King',
        familyName: 'Lovelace',
        name: 'Ada King Lovelace',
        nickname: 'ada',
        birthdate: '1815-12-10',
        picture: 'https://pics.example/ada.png',
        gender: 'female',
        locale: 'en-GB',
        addresses: [{ default: true, isDefault: true, locality: 'London', country: 'GB' }],
        address: { locality: 'London', country: 'GB' },
        bio: 'Countess',
        company: 'Analytical Engines',
        liteOnly: false,
        customFields: VALUES,
      };
      const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual((await getUser(accessToken!, snake(k)))[k], v, k);
      const all = await getUser(accessToken!);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(all[k], v, k);

      await client().updateProfile({
        accessToken: accessToken!,
        data: { customFields: { balance: '99.90', interests: [], preferences: null, newsletter: false } },
      });
      const { preferences: _removed, ...kept } = VALUES;
      assert.deepEqual((await getUser(accessToken!, 'custom_fields')).customFields, {
        ...kept,
        balance: 99.9,
        interests: [],
        newsletter: false,
      });
    });

    it('refuses an ill-typed value of each type, changing nothing', async () => {
      const { accessToken } = await shop.signedUp({ email: shop.newEmail('sdk-t'), customFields: VALUES });
      const bad = {
        shoe_size: '38',
        children: 2.5,
        balance: '12,5',
        nickname_2: 7,
        wedding: '1835-02-30',
        newsletter: 'yes',
        tier: 'bronze',
        interests: ['shoes', 'cars'],
        free_tags: ['a', 'a'],
        preferences: [1, 2],
        work_phone: '12',
        work_email: 'not an email',
      };
      await assert.rejects(
        client().updateProfile({ accessToken: accessToken!, data: { customFields: bad } }),
        (e: SdkError) => {
          assert.equal(e.error, 'invalid_request');
          assert.equal(e.errorMessageKey, 'error.invalidParameter');
          assert.deepEqual(
            e.errorDetails!.map((d) => d.field).sort(),
            Object.keys(bad)
              .map((k) => `custom_fields.${k}`)
              .sort(),
          );
          return true;
        },
      );
      const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
      for (const v of [deep, { big: 'x'.repeat(10_001) }, Array.from({ length: 51 }, (_, i) => `t${i}`)])
        await assert.rejects(
          client().updateProfile({
            accessToken: accessToken!,
            data: { customFields: Array.isArray(v) ? { free_tags: v } : { preferences: v } },
          }),
          (e: SdkError) => e.errorDetails?.length === 1,
        );
      assert.deepEqual((await getUser(accessToken!, 'custom_fields')).customFields, VALUES);
    });
  });

// The unmodified ReachFive Core SDK against a listening Ward (TLS), on SQLite and PostgreSQL: signup
// with standard claims and custom fields, getUser({fields}) with custom_fields and identities,
// updateProfile, unlink; and the SDK's error body (errorDetails) for an unknown field, an ill-typed
// one and a missing required custom field.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import {
  SHOP_CALLBACK,
  SHOP_ORIGIN,
  SHOP_PASSWORD,
  type SdkError,
  type ShopSdk,
  startShopSdk,
} from '../helpers/sdk-app.js';
import type { TestWard } from '../helpers/ward.js';

const CUSTOM_FIELDS = [
  { name: 'loyalty_id', data_type: 'string', required: true },
  { name: 'shoe_size', data_type: 'integer' },
  { name: 'tier', data_type: 'list', values: ['silver', 'gold'], writable: 'admin' },
];

for (const engine of engines())
  describe(`Core SDK: profiles, custom fields and unlink (${engine})`, () => {
    let shop: ShopSdk;
    let ward: TestWard;
    before(async () => {
      shop = await startShopSdk({ engine, account: { custom_fields: CUSTOM_FIELDS } });
      ward = shop.ward;
    });
    after(() => ward.close());

    const client = () => shop.client();
    const newEmail = () => shop.newEmail('sdk-p');

    /** Signs up through the SDK, follows its navigation to the code, and exchanges it. */
    const signedUp = (data: Record<string, unknown>) => shop.signedUp({ email: newEmail(), ...data });

    it('signup with custom fields, getUser with fields, updateProfile', async () => {
      const { accessToken, email } = await signedUp({
        givenName: 'Ada',
        familyName: 'Lovelace',
        nickname: 'ada',
        birthdate: '1815-12-10',
        customFields: { loyalty_id: 'L-1', shoe_size: 38 },
      });
      const user = (await client().getUser({
        accessToken,
        fields: 'email,nickname,custom_fields,identities',
      })) as Record<string, unknown>;
      assert.equal(user.email, email);
      assert.equal(user.nickname, 'ada');
      assert.equal(user.givenName, undefined, 'only the fields asked for');
      assert.deepEqual(user.customFields, { loyalty_id: 'L-1', shoe_size: 38 });
      assert.deepEqual(user.identities, []);

      await client().updateProfile({
        accessToken,
        redirectUrl: `${SHOP_ORIGIN}/profile`,
        data: { nickname: 'Countess', middleName: 'King', customFields: { shoe_size: 39 } },
      });
      const after = (await client().getUser({ accessToken })) as Record<string, unknown>;
      assert.equal(after.nickname, 'Countess');
      assert.equal(after.name, 'Ada King Lovelace');
      assert.deepEqual(after.customFields, { loyalty_id: 'L-1', shoe_size: 39 });
    });

    it('the SDK gets errorDetails for unknown, ill-typed and missing required fields', async () => {
      const { accessToken } = await signedUp({ customFields: { loyalty_id: 'L-2' } });
      await assert.rejects(
        client().updateProfile({
          accessToken,
          data: { nickname: 'x', hometown: 'Paris', customFields: { shoe_size: 'big', tier: 'gold' } } as never,
        }),
        (e: SdkError) => {
          assert.equal(e.error, 'invalid_request');
          assert.ok(e.errorMessageKey);
          assert.deepEqual(e.errorDetails!.map((d) => d.field).sort(), [
            'custom_fields.shoe_size',
            'custom_fields.tier',
            'hometown',
          ]);
          return true;
        },
      );
      assert.equal(((await client().getUser({ accessToken })) as Record<string, unknown>).nickname, undefined);

      const email = newEmail();
      await assert.rejects(
        client().signup({
          data: { email, password: SHOP_PASSWORD, givenName: 'No loyalty' },
          auth: { redirectUri: SHOP_CALLBACK },
        }),
        (e: SdkError) => {
          assert.deepEqual(e.errorDetails, [
            {
              field: 'data.custom_fields.loyalty_id',
              message: 'data.custom_fields.loyalty_id is required',
              code: 'missing',
            },
          ]);
          return true;
        },
      );
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined);
    });

    it('getUser lists linked identities; unlink removes one', async () => {
      const { accessToken, email } = await signedUp({ customFields: { loyalty_id: 'L-3' } });
      const user = (await ward.registry.storage.users.findByEmail(email))!;
      const id = randomBytes(8).toString('hex');
      await ward.registry.storage.identities.insert({
        id,
        user_id: user.id,
        provider: 'google',
        subject: `g-${id}`,
        email,
        created_at: Date.now(),
      });
      const before = (await client().getUser({ accessToken, fields: 'identities' })) as {
        identities: Array<Record<string, unknown>>;
      };
      assert.equal(before.identities.length, 1);
      assert.equal(before.identities[0]!.id, id);
      assert.equal(before.identities[0]!.provider, 'google');
      assert.equal(before.identities[0]!.userId, `g-${id}`);
      await client().unlink({ accessToken, identityId: id });
      assert.deepEqual(
        ((await client().getUser({ accessToken, fields: 'identities' })) as unknown as { identities: unknown[] })
          .identities,
        [],
      );
      await assert.rejects(client().unlink({ accessToken, identityId: id }), (e: SdkError) => e.error === 'not_found');
    });
  });

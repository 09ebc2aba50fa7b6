// Profiles over HTTP, on SQLite and PostgreSQL: the account's custom fields in /identity/v1/config;
// signup storing the standard claims and custom fields (and refusing unknown, ill-typed, admin-only
// or missing required fields with error_details, storing nothing); update-profile (204, the same
// refusals, never email/phone/password, audited); userinfo by scope with `fields`, custom_fields and
// identities; ID tokens with the claims of their scopes; unlink (never the last way in); and the
// management API's PATCH of a user's profile (admin-only fields too), audited.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import {
  PUBLIC_CLIENT,
  authorizeUrl,
  location,
  passwordLogin,
  pkcePair,
  redeem,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

export const CUSTOM_FIELDS = [
  { name: 'loyalty_id', data_type: 'string', required: true },
  { name: 'shoe_size', data_type: 'integer' },
  { name: 'newsletter', data_type: 'boolean' },
  { name: 'member_since', data_type: 'date' },
  { name: 'tier', data_type: 'list', values: ['silver', 'gold'], writable: 'admin' },
];

type Json = Record<string, any>;
const PASSWORD = 'correct horse battery';

for (const engine of engines())
  describe(`profiles and custom fields (${engine})`, () => {
    let ward: TestWard;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT] });
      admin = api(ward, (await consoleToken(ward, 'administrator')).token);
      // Declared through the settings API, as an operator would.
      const set = await admin.patch('/api/v1/settings/account', { custom_fields: CUSTOM_FIELDS });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    });
    after(() => ward.close());

    const email = () => `p-${randomBytes(4).toString('hex')}@example.com`;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
    };
    const signup = (data: Json) =>
      post('/identity/v1/signup', { client_id: 'spa', scope: 'openid', data: { password: PASSWORD, ...data } });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    /** Signs a user up with data, then gets their tokens for a scope (the code flow with PKCE). */
    async function tokensFor(data: Json, scope = 'openid profile email address') {
      const address = data.email ?? email();
      const up = await signup({ email: address, ...data });
      assert.equal(up.status, 200, JSON.stringify(up.body));
      const tkn = await passwordLogin(ward, address, PASSWORD, 'spa', scope);
      const pkce = pkcePair();
      const res = await new Browser(ward).get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope,
          tkn,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const { body } = await redeem(ward, location(res).searchParams.get('code')!, pkce.verifier);
      assert.ok(body.access_token, JSON.stringify(body));
      return {
        id: up.body.id as string,
        email: address,
        access: body.access_token!,
        idToken: body.id_token!,
        refresh: body.refresh_token,
      };
    }
    const userinfo = async (access: string, query = '') => {
      const res = await ward.fetch(`/identity/v1/userinfo${query}`, { headers: bearer(access) });
      assert.equal(res.status, 200);
      return (await res.json()) as Json;
    };
    const fieldsOf = (body: Json) => (body.error_details as Array<{ field: string; code: string }>).map((d) => d.field);

    it('the settings API refuses a bad custom_fields list and keeps the one it had', async () => {
      const before = ward.registry.account().custom_fields;
      assert.equal(before.length, CUSTOM_FIELDS.length);
      const required = await admin.patch('/api/v1/settings/account', {
        custom_fields: [{ name: 'secret', data_type: 'string', required: true, writable: 'admin' }],
      });
      assert.equal(required.status, 400);
      assert.match(required.body.error_description, /custom_fields\[0\]\.required/);
      const noValues = await admin.patch('/api/v1/settings/account', {
        custom_fields: [{ name: 'x', data_type: 'list' }],
      });
      assert.equal(noValues.status, 400);
      const badType = await admin.patch('/api/v1/settings/account', {
        custom_fields: [{ name: 'x', data_type: 'colour' }],
      });
      assert.equal(badType.status, 400);
      assert.ok(badType.body.error_details?.length, 'the schema names the field');
      assert.deepEqual(ward.registry.account().custom_fields, before);
      assert.deepEqual((await admin.get('/api/v1/settings/account')).body.custom_fields, before);
    });

    it('lists the custom fields in /identity/v1/config, in the Core SDK shape', async () => {
      const config = (await (await ward.fetch('/identity/v1/config?client_id=spa')).json()) as Json;
      const byName = Object.fromEntries((config.custom_fields as Json[]).map((f) => [f.name, f]));
      assert.deepEqual(
        Object.keys(byName),
        CUSTOM_FIELDS.map((f) => f.name),
      );
      assert.deepEqual(byName.loyalty_id, {
        name: 'loyalty_id',
        path: 'custom_fields.loyalty_id',
        data_type: 'string',
        required: true,
        writable: 'user',
      });
      assert.equal(byName.newsletter.data_type, 'checkbox');
      assert.equal(byName.tier.data_type, 'select');
      assert.deepEqual(
        byName.tier.selectable_values.map((v: Json) => v.value),
        ['silver', 'gold'],
      );
      assert.equal(byName.tier.writable, 'admin');
    });

    it('stores the claims and custom fields of a signup; userinfo and the ID token release them by scope', async () => {
      const u = await tokensFor({
        given_name: 'Ada',
        family_name: 'Lovelace',
        middle_name: 'King',
        nickname: 'ada',
        birthdate: '1815-12-10',
        gender: 'female',
        locale: 'en-GB',
        picture: 'https://pics.example/ada.png',
        website: 'https://ada.example',
        zoneinfo: 'Europe/London',
        address: { street_address: '12 St James Sq', locality: 'London', postal_code: 'SW1Y', country: 'UK' },
        custom_fields: { loyalty_id: 'L-1', shoe_size: 38, newsletter: true, member_since: '2020-02-29' },
        consents: {},
      });
      const info = await userinfo(u.access);
      assert.equal(info.sub, u.id);
      assert.equal(info.name, 'Ada King Lovelace');
      assert.equal(info.nickname, 'ada');
      assert.equal(info.birthdate, '1815-12-10');
      assert.equal(info.zoneinfo, 'Europe/London');
      assert.equal(info.website, 'https://ada.example');
      assert.deepEqual(info.address, {
        street_address: '12 St James Sq',
        locality: 'London',
        postal_code: 'SW1Y',
        country: 'UK',
      });
      assert.deepEqual(info.custom_fields, {
        loyalty_id: 'L-1',
        shoe_size: 38,
        newsletter: true,
        member_since: '2020-02-29',
      });
      assert.deepEqual(info.identities, []);
      const claims = decodeJwt(u.idToken);
      assert.equal(claims.nickname, 'ada');
      assert.equal(claims.locale, 'en-GB');
      assert.equal((claims.address as Json).locality, 'London');
      assert.equal(claims.custom_fields, undefined, 'custom fields are no ID token claim');

      // fields: only those (and sub, OIDC Core 5.3.2).
      assert.deepEqual(await userinfo(u.access, '?fields=nickname,custom_fields,identities'), {
        sub: u.id,
        nickname: 'ada',
        custom_fields: info.custom_fields,
        identities: [],
      });
      // Without the profile and address scopes: none of their claims.
      const narrow = await tokensFor({ custom_fields: { loyalty_id: 'L-2' }, nickname: 'n' }, 'openid email');
      const plain = await userinfo(narrow.access);
      assert.equal(plain.email, narrow.email);
      for (const k of ['nickname', 'custom_fields', 'identities', 'address', 'updated_at']) assert.ok(!(k in plain), k);
      assert.equal(decodeJwt(narrow.idToken).nickname, undefined);
    });

    it('gives the profile claims in the ID tokens of a refresh too, and only those the user has', async () => {
      const scope = 'openid profile address offline_access';
      const refreshed = async (refresh: string | undefined) => {
        assert.ok(refresh, 'a refresh token');
        const res = await tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'spa' });
        const body = (await res.json()) as Json;
        assert.equal(res.status, 200, JSON.stringify(body));
        return decodeJwt(body.id_token as string);
      };
      const ada = await tokensFor(
        { nickname: 'ada', address: { locality: 'London' }, custom_fields: { loyalty_id: 'L-3' } },
        scope,
      );
      const claims = await refreshed(ada.refresh);
      assert.equal(claims.nickname, 'ada');
      assert.equal((claims.address as Json).locality, 'London');
      const bare = await tokensFor({ custom_fields: { loyalty_id: 'L-4' } }, scope);
      const none = await refreshed(bare.refresh);
      assert.equal(none.sub, bare.id);
      for (const k of ['nickname', 'address', 'locale']) assert.ok(!(k in none), k);
      assert.equal(decodeJwt(bare.idToken).nickname, undefined);
    });

    it('refuses unknown, ill-typed, admin-only and missing required fields at signup, and stores nothing', async () => {
      const address = email();
      const res = await signup({
        email: address,
        favourite_colour: 'blue',
        birthdate: '1990-13-01',
        website: 'javascript:alert(1)',
        zoneinfo: 'Mars/Olympus',
        address: { city: 'Paris' },
        custom_fields: { shoe_size: 'big', tier: 'gold', unknown_field: 1 },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_request');
      assert.ok(res.body.error_message_key);
      assert.deepEqual(fieldsOf(res.body).sort(), [
        'data.address.city',
        'data.birthdate',
        'data.custom_fields.loyalty_id',
        'data.custom_fields.shoe_size',
        'data.custom_fields.tier',
        'data.custom_fields.unknown_field',
        'data.favourite_colour',
        'data.website',
        'data.zoneinfo',
      ]);
      const missing = res.body.error_details.find((d: Json) => d.field === 'data.custom_fields.loyalty_id');
      assert.equal(missing.code, 'missing');
      assert.equal(await ward.registry.storage.users.findByEmail(address), undefined);
      // A required field alone is enough to be refused.
      const noLoyalty = await signup({ email: address, nickname: 'x' });
      assert.equal(noLoyalty.status, 400);
      assert.deepEqual(fieldsOf(noLoyalty.body), ['data.custom_fields.loyalty_id']);
      assert.equal(await ward.registry.storage.users.findByEmail(address), undefined);
    });

    it('a passkey signup checks its profile with the same rules before the ceremony', async () => {
      ward.setAccount({ passkeys: { enabled: true } });
      try {
        const res = await post('/identity/v1/webauthn/signup-options', {
          client_id: 'spa',
          origin: ward.url,
          friendly_name: 'laptop',
          profile: { email: email(), given_name: 'Ada', favourite_colour: 'blue', custom_fields: { shoe_size: 1.5 } },
        });
        assert.equal(res.status, 400);
        assert.deepEqual(fieldsOf(res.body).sort(), [
          'profile.custom_fields.loyalty_id',
          'profile.custom_fields.shoe_size',
          'profile.favourite_colour',
        ]);
        const ok = await post('/identity/v1/webauthn/signup-options', {
          client_id: 'spa',
          origin: ward.url,
          friendly_name: 'laptop',
          profile: { email: email(), nickname: 'ada', custom_fields: { loyalty_id: 'L-9' } },
        });
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
      } finally {
        ward.setAccount({ passkeys: { enabled: false } });
      }
    });

    it('update-profile changes the claims and custom fields the user may write (204, audited)', async () => {
      const u = await tokensFor({ given_name: 'Grace', custom_fields: { loyalty_id: 'L-3', shoe_size: 40 } });
      const ok = await post(
        '/identity/v1/update-profile',
        {
          family_name: 'Hopper',
          nickname: 'amazing grace',
          locale: 'fr-FR',
          address: { locality: 'Arlington' },
          custom_fields: { newsletter: false, shoe_size: null },
          redirect_url: 'https://app.example/done',
        },
        bearer(u.access),
      );
      assert.equal(ok.status, 204, JSON.stringify(ok.body));
      const info = await userinfo(u.access);
      assert.equal(info.name, 'Grace Hopper');
      assert.equal(info.nickname, 'amazing grace');
      assert.equal(info.locale, 'fr-FR');
      assert.deepEqual(info.address, { locality: 'Arlington' });
      assert.deepEqual(info.custom_fields, { loyalty_id: 'L-3', newsletter: false });
      const [audit] = await ward.registry.storage.audit.list({
        action: 'user.profile_updated',
        target: `user:${u.id}`,
        limit: 5,
      });
      assert.ok(audit, 'audited');
      assert.equal(audit.actor_id, u.id);
      assert.deepEqual(JSON.parse(audit.details).fields.sort(), [
        'address',
        'custom_fields.newsletter',
        'custom_fields.shoe_size',
        'family_name',
        'locale',
        'nickname',
      ]);

      // Refusals change nothing.
      const bad = await post(
        '/identity/v1/update-profile',
        {
          nickname: 'changed',
          email: 'new@example.com',
          phone_number: '+33612345678',
          password: 'another long password',
          gender: 42,
          custom_fields: { loyalty_id: null, tier: 'gold', member_since: '2021-02-29' },
        },
        bearer(u.access),
      );
      assert.equal(bad.status, 400);
      assert.deepEqual(fieldsOf(bad.body).sort(), [
        'custom_fields.loyalty_id',
        'custom_fields.member_since',
        'custom_fields.tier',
        'email',
        'gender',
        'password',
        'phone_number',
      ]);
      const emailDetail = bad.body.error_details.find((d: Json) => d.field === 'email');
      assert.match(emailDetail.message, /update-email/);
      assert.equal((await userinfo(u.access)).nickname, 'amazing grace');
      assert.equal((await ward.registry.storage.users.findById(u.id))!.email, u.email);

      const anonymous = await post('/identity/v1/update-profile', { nickname: 'x' });
      assert.equal(anonymous.status, 401);
    });

    it('unlinks a linked identity, never the last way to sign in (audited)', async () => {
      const u = await tokensFor({ custom_fields: { loyalty_id: 'L-4' } });
      const storage = ward.registry.storage;
      const link = (id: string, userId: string, provider: string) =>
        storage.identities.insert({
          id,
          user_id: userId,
          provider,
          subject: `${provider}-${id}`,
          email: null,
          created_at: Date.now(),
        });
      const linked = randomBytes(8).toString('hex');
      await link(linked, u.id, 'corp');
      const listed = (await userinfo(u.access)).identities as Json[];
      assert.deepEqual(
        listed.map((i) => [i.id, i.provider, i.user_id]),
        [[linked, 'corp', `corp-${linked}`]],
      );
      assert.equal((await post('/identity/v1/unlink', { identity_id: 'nope' }, bearer(u.access))).status, 404);
      assert.equal((await post('/identity/v1/unlink', { identity_id: linked }, bearer(u.access))).status, 204);
      assert.deepEqual((await userinfo(u.access)).identities, []);
      const [unlinked] = await storage.audit.list({
        action: 'user.identity_unlinked',
        target: `user:${u.id}`,
        limit: 5,
      });
      assert.equal(JSON.parse(unlinked!.details).provider, 'corp');

      // A user with no password and one identity: that identity is their last way in.
      await storage.users.setPassword(u.id, null as unknown as string, Date.now());
      const last = randomBytes(8).toString('hex');
      await link(last, u.id, 'corp');
      const refused = await post('/identity/v1/unlink', { identity_id: last }, bearer(u.access));
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error_message_key, 'error.identity.lastSignInMethod');
      assert.equal((await userinfo(u.access)).identities.length, 1);
      // With a second identity, one of them may go.
      await link(randomBytes(8).toString('hex'), u.id, 'plain');
      assert.equal((await post('/identity/v1/unlink', { identity_id: last }, bearer(u.access))).status, 204);
    });

    it('the management API edits a profile with the same rules (admin-only fields too), audited', async () => {
      const u = await tokensFor({ custom_fields: { loyalty_id: 'L-5' } });
      const path = `/api/v1/users/${u.id}`;
      const patched = await admin.patch(path, {
        given_name: 'Katherine',
        birthdate: '1918-08-26',
        custom_fields: { tier: 'gold' },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.given_name, 'Katherine');
      assert.equal(patched.body.birthdate, '1918-08-26');
      assert.deepEqual(patched.body.custom_fields, { loyalty_id: 'L-5', tier: 'gold' });
      assert.deepEqual((await userinfo(u.access)).custom_fields, { loyalty_id: 'L-5', tier: 'gold' });
      assert.equal((await admin.get(path)).body.birthdate, '1918-08-26');

      const bad = await admin.patch(path, { nickname: 'k', custom_fields: { tier: 'platinum', loyalty_id: null } });
      assert.equal(bad.status, 400);
      assert.deepEqual(fieldsOf(bad.body).sort(), ['custom_fields.loyalty_id', 'custom_fields.tier']);
      const unknown = await admin.patch(path, { email: 'x@example.com' });
      assert.equal(unknown.status, 400);
      assert.equal((await admin.get(path)).body.nickname, null, 'nothing stored');
      const [audit] = await ward.registry.storage.audit.list({
        action: 'user.profile_updated',
        target: `user:${u.id}`,
        limit: 5,
      });
      assert.ok(audit);
      assert.notEqual(audit.actor_id, u.id, 'the administrator is the actor');

      // The OpenAPI description says what the PATCH takes.
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as Json;
      const body = doc.paths['/api/v1/users/{userId}'].patch.requestBody.content['application/json'].schema;
      for (const k of ['disabled', 'nickname', 'birthdate', 'address', 'custom_fields'])
        assert.ok(k in body.properties, k);
      assert.equal(body.additionalProperties, false);
    });
  });

// A user's life by an administrator through the management API, against a listening Ward on SQLite
// and PostgreSQL: create with a password (the policy applies), verify or unverify the email or phone,
// export the data as JSON (no secret or hash), delete completely (no row with the user's id left but
// the audit trail; their tokens stop working), each guarded by the roles and audited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { accountKey } from '../../src/accounts/sign-in-protection.js';
import { randomId } from '../../src/lib/random.js';
import { USER_TABLES } from '../../src/storage/sql/user-erasure.js';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { giveFactors } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, codeFor, redeem, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const NO_LIMITS = { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } };
/** A management client that may act on role holders (manage:roles): deleting an Administrator needs it. */
const PEOPLE_OPS = {
  client_id: 'people-ops',
  type: 'confidential',
  client_secret: 'people-ops-secret-of-at-least-32-bytes!!',
  grant_types: ['client_credentials'],
  management_scopes: ['read:users', 'manage:users', 'manage:roles'],
};

for (const engine of engines()) {
  describe(`management API: a user's life (${engine})`, () => {
    let ward: TestWard;
    let manager: ReturnType<typeof api>;
    let viewer: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT, PEOPLE_OPS], account: NO_LIMITS });
      manager = api(ward, (await consoleToken(ward, 'manager')).token);
      viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
    });
    after(() => ward.close());

    const login = (email: string, password: string) =>
      ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password }),
      });

    it('creates a user with a password that meets the policy; refuses a weak one, a duplicate, a Viewer', async () => {
      const email = `made-${engine}@example.com`;
      const weak = await manager.post('/api/v1/users', { email, password: 'password' });
      assert.equal(weak.status, 400);
      assert.equal(weak.body.error_message_key, 'error.password.tooWeak');
      assert.deepEqual(weak.body.error_details, [
        { field: 'password', message: 'is one of the most common passwords', code: 'too_common' },
      ]);
      const none = await manager.post('/api/v1/users', { password: 'a long unusual passphrase' });
      assert.equal(none.status, 400);
      assert.equal(none.body.error_details[0].field, 'email');
      const unknown = await manager.post('/api/v1/users', { email, password: 'x', admin: true });
      assert.equal(unknown.status, 400);
      assert.equal((await viewer.post('/api/v1/users', { email, password: 'a long unusual passphrase' })).status, 403);
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, 'nothing stored');

      const made = await manager.post('/api/v1/users', {
        email,
        password: 'a long unusual passphrase',
        given_name: 'Grace',
        family_name: 'Hopper',
        email_verified: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.email, email);
      assert.equal(made.body.email_verified, true);
      assert.equal(made.body.phone_number_verified, false);
      assert.equal(made.body.has_password, true);
      assert.equal(made.body.password_hash, undefined);
      assert.equal((await login(email, 'a long unusual passphrase')).status, 200);
      const again = await manager.post('/api/v1/users', { email, password: 'a long unusual passphrase' });
      assert.equal(again.status, 409);
      const audit = await ward.registry.storage.audit.list({
        action: 'user.created',
        target: `user:${made.body.id}`,
        limit: 5,
      });
      assert.equal(audit.length, 1);
      assert.doesNotMatch(audit[0]!.details, /passphrase/);
    });

    it('verifies and unverifies an email or phone number; refuses a flag for an identifier the user lacks', async () => {
      const made = await manager.post('/api/v1/users', {
        email: `verify-${engine}@example.com`,
        password: 'a long unusual passphrase',
      });
      const id = made.body.id as string;
      const on = await manager.patch(`/api/v1/users/${id}/verification`, { email_verified: true });
      assert.equal(on.status, 200);
      assert.equal(on.body.email_verified, true);
      assert.equal((await manager.get(`/api/v1/users/${id}`)).body.email_verified, true);
      const off = await manager.patch(`/api/v1/users/${id}/verification`, { email_verified: false });
      assert.equal(off.body.email_verified, false);
      const phone = await manager.patch(`/api/v1/users/${id}/verification`, { phone_number_verified: true });
      assert.equal(phone.status, 400);
      assert.equal(phone.body.error_details[0].field, 'phone_number_verified');
      assert.equal((await manager.patch(`/api/v1/users/${id}/verification`, {})).status, 400);
      assert.equal((await viewer.patch(`/api/v1/users/${id}/verification`, { email_verified: true })).status, 403);
      const audit = await ward.registry.storage.audit.list({
        action: 'user.verification_changed',
        target: `user:${id}`,
        limit: 5,
      });
      assert.equal(audit.length, 2);
    });

    /** A user with a session, a grant and tokens, factors, a trusted device, a passkey, an identity. */
    async function richUser() {
      const { code, verifier, user } = await codeFor(ward);
      const { body } = await redeem(ward, code, verifier);
      const s = ward.registry.storage;
      const now = ward.clock.now();
      await giveFactors(ward, user.id, { email: 'second@example.com', phone: '+33611112222' });
      await s.trustedDevices.insert({
        id: randomId(),
        user_id: user.id,
        digest: randomId(),
        name: 'Laptop',
        created_at: now,
        expires_at: now + 1e9,
        revoked_at: null,
      });
      await s.passkeys.insert({
        id: randomId(),
        user_id: user.id,
        credential_id: randomId(),
        public_key: 'cHVibGljLWtleS1tYXRlcmlhbA',
        counter: 0,
        transports: ['internal'],
        backed_up: true,
        device_type: 'multiDevice',
        friendly_name: 'Phone passkey',
        aaguid: null,
        created_at: now,
        last_used_at: null,
      });
      await s.identities.insert({
        id: randomId(),
        user_id: user.id,
        provider: 'google',
        subject: `google-${user.id}`,
        email: user.email,
        created_at: now,
      });
      await login(user.email, 'a wrong password'); // a counted failure (on the account, issue 33)
      assert.ok(await s.signInFailures.find(accountKey(user.id)));
      return { user, accessToken: body.access_token! };
    }

    it("exports a user's data as JSON: profile, identities, masked factors, passkeys, sessions, grants, audit", async () => {
      const { user } = await richUser();
      await manager.patch(`/api/v1/users/${user.id}/verification`, { email_verified: true });
      await ward.registry.storage.consents.grant(user.id, 'spa', ['openid', 'email'], ward.clock.now());
      const none = { middle_name: null, nickname: null, birthdate: null, gender: null, locale: null, picture: null };
      await ward.registry.storage.profiles.put(
        user.id,
        {
          ...none,
          website: null,
          zoneinfo: null,
          address: null,
          addresses: [],
          company: null,
          bio: null,
          lite_only: false,
          name: null,
          profile_url: null,
          username: null,
          custom_fields: { loyalty_id: 'L-7' },
        },
        ward.clock.now(),
      );
      // read:users, like the bulk export (nothing secret in it): a Viewer may; a token without it may not.
      const nobody = api(ward, (await consoleToken(ward, null)).token);
      assert.equal((await nobody.get(`/api/v1/users/${user.id}/export`)).status, 403);
      assert.equal((await viewer.get(`/api/v1/users/${user.id}/export`)).status, 200);
      const out = await manager.get(`/api/v1/users/${user.id}/export`);
      assert.equal(out.status, 200);
      const x = out.body;
      assert.equal(x.format, 'ward.user-export.v1');
      assert.equal(x.user.id, user.id);
      assert.equal(x.user.email, user.email);
      assert.equal(x.user.email_verified, true);
      assert.equal(x.user.has_password, true);
      assert.deepEqual(
        x.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject]),
        [['google', `google-${user.id}`]],
      );
      assert.deepEqual(
        x.second_factors.map((f: { type: string; destination: string }) => [f.type, f.destination]).sort(),
        [
          ['email', 's***@example.com'],
          ['sms', '+33*******22'],
        ],
      );
      assert.equal(x.passkeys[0].name, 'Phone passkey');
      assert.equal(x.trusted_devices[0].name, 'Laptop');
      assert.equal(x.sessions.length, 1);
      assert.equal(x.grants_by_client[0].client_id, 'spa');
      assert.equal(x.sign_in_protection.failures, 1);
      assert.deepEqual(
        x.consents.map((c: { client_id: string; scopes: string[] }) => [c.client_id, c.scopes]),
        [['spa', ['email', 'openid']]],
      );
      assert.deepEqual(x.profile.custom_fields, { loyalty_id: 'L-7' });
      assert.equal(x.pending_deletion, null);
      assert.ok(
        x.audit_events.some(
          (e: { action: string; details: { email_verified?: boolean } }) =>
            e.action === 'user.verification_changed' && e.details.email_verified === true,
        ),
      );
      // No secret, hash, digest or key material anywhere in it.
      const text = JSON.stringify(x);
      const row = await ward.registry.storage.users.findById(user.id);
      assert.doesNotMatch(text, /argon2|password_hash|digest|public_key|cHVibGljLWtleS1tYXRlcmlhbA|second@example/);
      assert.ok(!text.includes(row!.password_hash!));
      const audit = await ward.registry.storage.audit.list({
        action: 'user.exported',
        target: `user:${user.id}`,
        limit: 5,
      });
      assert.equal(audit.length, 2, "the Viewer's export and the Manager's");
    });

    it('deletes a user completely: no row with their id but the audit trail; their tokens stop working', async () => {
      const { user, accessToken } = await richUser();
      const userinfo = () =>
        ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal((await userinfo()).status, 200);
      assert.equal((await viewer.del(`/api/v1/users/${user.id}`)).status, 403);
      assert.equal((await manager.del(`/api/v1/users/${user.id}`)).status, 204);

      const db = ward.registry.db.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      for (const t of USER_TABLES) {
        const { n } = await db
          .selectFrom(t)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(n), 0, `${t} still holds rows of the deleted user`);
      }
      assert.equal(await ward.registry.storage.users.findById(user.id), undefined);
      assert.equal(
        await ward.registry.storage.signInFailures.find(accountKey(user.id)),
        undefined,
        "the user's counted failures are gone",
      );
      assert.equal((await userinfo()).status, 401);
      assert.equal((await login(user.email, user.password)).status, 400);
      const audit = await ward.registry.storage.audit.list({ target: `user:${user.id}`, limit: 50 });
      const deleted = audit.find((e) => e.action === 'user.deleted');
      assert.ok(deleted, 'the deletion is in the audit trail');
      assert.equal(JSON.parse(deleted.details).erased.passkeys, 1);
      assert.equal((await manager.del(`/api/v1/users/${user.id}`)).status, 404);
      // The same email can sign up again: a new account, nothing of the old one.
      const again = await manager.post('/api/v1/users', { email: user.email, password: 'a long unusual passphrase' });
      assert.equal(again.status, 201);
      assert.notEqual(again.body.id, user.id);
    });

    it('refuses to delete the caller, and the last administrator', async () => {
      const admin = await consoleToken(ward, 'administrator');
      const adminApi = api(ward, admin.token);
      const own = await adminApi.del(`/api/v1/users/${admin.userId}`);
      assert.equal(own.status, 409);
      assert.equal(own.body.error_message_key, 'error.user.ownAccountDeletion');
      // A Manager (no manage:roles) deletes no Administrator (issue 33 item 2).
      assert.equal((await manager.del(`/api/v1/users/${admin.userId}`)).status, 403);
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: PEOPLE_OPS.client_id,
        client_secret: PEOPLE_OPS.client_secret,
      });
      const ops = api(ward, ((await res.json()) as { access_token: string }).access_token);
      // Every other administrator gone (the first one of the data dir too), this one is the last.
      for (const u of await ward.registry.storage.users.search('', 200))
        if (u.role === 'administrator' && u.id !== admin.userId)
          assert.equal((await ops.del(`/api/v1/users/${u.id}`)).status, 204);
      const last = await ops.del(`/api/v1/users/${admin.userId}`);
      assert.equal(last.status, 409);
      assert.equal(last.body.error_message_key, 'error.user.lastAdministrator');
      assert.ok(await ward.registry.storage.users.findById(admin.userId));
    });

    it('describes every new operation in the OpenAPI document with its permission', async () => {
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, any> };
      for (const [path, method] of [
        ['/api/v1/users', 'post'],
        ['/api/v1/users/{userId}', 'delete'],
        ['/api/v1/users/{userId}/verification', 'patch'],
        ['/api/v1/users/{userId}/export', 'get'],
        ['/api/v1/users/{userId}/unlock', 'post'],
        ['/api/v1/users/{userId}/password-reset', 'post'],
        ['/api/v1/users/{userId}/sign-in-protection', 'get'],
      ] as const)
        assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    });
  });
}

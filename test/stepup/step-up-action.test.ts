// The step-up action (issue 37, item 6; docs/mfa.md#step-up-actions): the `action` given to
// /identity/v1/mfa/stepup is bound to the step_up token and carried into what the step-up leads to: the
// ID token, the access token (sealed, or an RFC 9068 JWT for an API resource), introspection of both
// access and refresh tokens, and the tokens a refresh makes; the audit events name it. A step-up without
// one, and a password sign-in, carry none; a malformed action is a 400 with error_details. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, pkcePair, redeem, tokenRequest } from '../helpers/oauth.js';
import { basic } from '../protocol/token/support.js';
import { bearer, emailCode, mfaUser, OPEN, plainToken, stepUpBody, verify, type User } from './support.js';

const ORDERS = 'https://api.example.com/orders';
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const RESOURCE_SERVER = { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET };
const OPS_SECRET = 'resource-manager-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients'],
};

for (const engine of engines()) {
  describe(`the step-up action (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT, RESOURCE_SERVER, OPS], account: OPEN });
      const res = await tokenRequest(m.ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS_SECRET,
      });
      const admin = api(m.ward, ((await res.json()) as { access_token: string }).access_token);
      const orders = { identifier: ORDERS, name: 'Orders', scopes: ['orders:read'] };
      assert.equal((await admin.post('/api/v1/resources', orders)).status, 201);
    });
    after(() => m.close());

    /** The audit rows `action` of the user, once the buffered writer has written them. */
    async function auditOf(userId: string, action: string, count: number) {
      let rows: Array<{ details: string }> = [];
      for (let i = 0; i < 100 && rows.length < count; i++) {
        if (i) await new Promise((res) => setTimeout(res, 20));
        rows = await m.ward.registry.db.db
          .selectFrom('audit_events')
          .select(['details'])
          .where('actor_id', '=', userId)
          .where('action', '=', action)
          .execute();
      }
      return rows.map((r) => JSON.parse(r.details) as Record<string, unknown>);
    }

    const introspect = async (token: string) => {
      const res = await m.ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic('orders-api', API_SECRET),
        },
        body: new URLSearchParams({ token }).toString(),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Record<string, unknown>;
    };

    /** Password login, /mfa/stepup with `extra`, the emailed code, verify, redeem: the tokens. */
    async function steppedUp(user: User, extra: Record<string, unknown>, resource?: string) {
      const l = await postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid',
        email: user.email,
        password: user.password,
      });
      assert.equal(l.status, 200, JSON.stringify(l.body));
      const pkce = pkcePair();
      const scope = resource ? 'openid offline_access orders:read' : 'openid offline_access';
      const body = stepUpBody(pkce.challenge, { tkn: l.body.tkn, scope, ...(resource ? { resource } : {}), ...extra });
      const s = await postJson(m.ward, '/identity/v1/mfa/stepup', body);
      assert.equal(s.status, 200, JSON.stringify(s.body));
      const { challengeId, code } = await emailCode(m, user, s.body.token);
      const v = await verify(m, challengeId, code);
      assert.equal(v.status, 200, JSON.stringify(v.body));
      if (!resource) return (await redeem(m.ward, v.body.code, pkce.verifier)).body;
      const res = await tokenRequest(m.ward, {
        grant_type: 'authorization_code',
        code: v.body.code,
        client_id: 'spa',
        redirect_uri: 'https://app.example/cb',
        code_verifier: pkce.verifier,
        resource,
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Record<string, string>;
    }

    it('carries the action into the ID token, the sealed access token, introspection and refreshes', async () => {
      const user = await mfaUser(m);
      const tokens = await steppedUp(user, { action: 'delete_account' });
      assert.equal(decodeJwt(tokens.id_token!).step_up_action, 'delete_account');
      assert.deepEqual(decodeJwt(tokens.id_token!).amr, ['pwd', 'mfa', 'email']);
      assert.equal((await introspect(tokens.access_token!)).step_up_action, 'delete_account');
      // A refresh keeps it, like auth_time: a resource server judges freshness by auth_time.
      const r = await tokenRequest(m.ward, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: 'spa',
      });
      assert.equal(r.status, 200);
      const refreshed = (await r.json()) as Record<string, string>;
      const seen = await introspect(refreshed.access_token!);
      assert.equal(seen.step_up_action, 'delete_account');
      assert.equal(seen.auth_time, (await introspect(tokens.access_token!)).auth_time);

      for (const name of ['mfa.stepup_started', 'mfa.stepup_verified']) {
        const rows = await auditOf(user.id, name, 1);
        assert.equal(rows.length, 1, name);
        assert.equal(rows[0]!.action, 'delete_account', name);
      }
    });

    it('carries the action into an API resource JWT access token', async () => {
      const user = await mfaUser(m);
      const tokens = await steppedUp(user, { action: 'transfer_funds' }, ORDERS);
      const claims = decodeJwt(tokens.access_token!);
      assert.equal(claims.aud, ORDERS);
      assert.equal(claims.step_up_action, 'transfer_funds');
      assert.equal((await introspect(tokens.access_token!)).step_up_action, 'transfer_funds');
    });

    it('carries none without an action', async () => {
      const user = await mfaUser(m);
      const tokens = await steppedUp(user, {});
      assert.equal(decodeJwt(tokens.id_token!).step_up_action, undefined);
      assert.equal((await introspect(tokens.access_token!)).step_up_action, undefined);
      const jwt = await steppedUp(user, {}, ORDERS);
      assert.equal(decodeJwt(jwt.access_token!).step_up_action, undefined);
    });

    it('refuses a malformed action with error_details, and nothing is begun', async () => {
      const user = await mfaUser(m);
      for (const action of [42, 'x'.repeat(101)]) {
        const l = await postJson(m.ward, '/identity/v1/password/login', {
          client_id: 'spa',
          scope: 'openid',
          email: user.email,
          password: user.password,
        });
        const s = await postJson(
          m.ward,
          '/identity/v1/mfa/stepup',
          stepUpBody(pkcePair().challenge, { tkn: l.body.tkn, action }),
        );
        assert.equal(s.status, 400, JSON.stringify(s.body));
        assert.equal(s.body.error, 'invalid_request');
        assert.equal(s.body.error_details[0].field, 'action');
        assert.ok(s.body.error_message_key);
      }
    });

    it("names a factor registration's action in its audit event, and refuses a malformed one", async () => {
      const { user, access } = await plainToken(m);
      const register = (path: string, body: Record<string, unknown>) =>
        postJson(m.ward, `/identity/v1/mfa/credentials/${path}`, body, bearer(access));
      const sent = m.sms.messages.length;
      for (const action of [42, 'x'.repeat(101)]) {
        const r = await register('phone-numbers', { phone_number: '+33612345678', action });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.error_details[0].field, 'action');
        assert.ok(r.body.error_message_key);
      }
      assert.equal(m.sms.messages.length, sent, 'a refused registration sends nothing');
      const ok = await register('phone-numbers', { phone_number: '+33612345678', action: 'add_phone' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const rows = await auditOf(user.id, 'mfa.code_sent', 1);
      assert.deepEqual(
        rows.map((d) => [d.purpose, d.channel, d.action]),
        [['register', 'sms', 'add_phone']],
      );
    });
  });
}

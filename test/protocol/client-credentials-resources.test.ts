// client_credentials for an API resource (RFC 8707 with RFC 6749 4.4; issue #39 item 3), on both
// engines over real HTTP: openid-client asks a token for a resource the client lists in its
// client_credentials_resources; the token's audience is the resource, an RFC 9068 JWT that jose verifies
// from /jwks.json when the resource's format is jwt (sub and client_id the client), a sealed token when
// opaque; the scopes are those both the resource and the client's list hold; an unknown resource or
// one the client does not list is invalid_target, a scope beyond the list invalid_scope; without a
// resource the management API token of before is unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { basic, expectError, expectTokens } from './token/support.js';

const ORDERS = 'https://api.example.com/orders';
const BILLING = 'https://api.example.com/billing';
const OTHER = 'https://api.example.com/other';
const SECRET = 'machine-client-secret-of-at-least-32-bytes';
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const MACHINE = {
  client_id: 'machine',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients'],
  client_credentials_resources: { [ORDERS]: ['orders:read', 'not-of-the-resource'], [BILLING]: ['billing:read'] },
};
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: `${SECRET}-ops`,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients'],
};

for (const engine of engines()) {
  describe(`client_credentials for API resources on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [MACHINE, OPS, { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET }],
      });
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS.client_secret,
      });
      const admin = api(ward, ((await res.json()) as { access_token: string }).access_token);
      for (const r of [
        { identifier: ORDERS, name: 'Orders', scopes: ['orders:read', 'orders:write'] },
        { identifier: BILLING, name: 'Billing', scopes: ['billing:read'], token_format: 'opaque' },
        { identifier: OTHER, name: 'Other', scopes: ['other:read'] },
      ])
        assert.equal((await admin.post('/api/v1/resources', r)).status, 201);
    });
    after(() => ward.close());

    const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
    const ask = (form: Record<string, string>) =>
      tokenRequest(ward, { grant_type: 'client_credentials', ...form }, { authorization: basic('machine', SECRET) });

    it("openid-client gets a JWT for the resource, verified by jose from /jwks.json, with the client's scopes", async () => {
      const config = await client.discovery(new URL(ward.url), 'machine', SECRET, undefined, {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const tokens = await client.clientCredentialsGrant(config, { resource: ORDERS });
      assert.equal(tokens.scope, 'orders:read', 'what both the resource and the client hold');
      const jwks = createRemoteJWKSet(new URL('/jwks.json', ward.url), {
        [customFetch]: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: ward.agent }) as never,
      });
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
        issuer: ward.issuer,
        audience: ORDERS,
        typ: 'at+jwt',
      });
      assert.equal(protectedHeader.typ, 'at+jwt');
      assert.equal(payload.sub, 'machine');
      assert.equal(payload.client_id, 'machine');
      assert.equal(payload.scope, 'orders:read');
    });

    it('an opaque resource gets a sealed token that introspects with its audience', async () => {
      const tokens = await expectTokens(await ask({ resource: BILLING, scope: 'billing:read' }));
      assert.equal(tokens.access_token!.split('.').length === 3, false, 'not a JWT');
      const res = await ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic('orders-api', API_SECRET),
        },
        body: new URLSearchParams({ token: tokens.access_token! }).toString(),
      });
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.active, true);
      assert.equal(body.aud, BILLING);
      assert.equal(body.client_id, 'machine');
    });

    it('refuses an unknown or unlisted resource (invalid_target) and scopes beyond the list (invalid_scope)', async () => {
      await expectError(await ask({ resource: 'https://evil.example/api' }), 400, 'invalid_target');
      await expectError(await ask({ resource: OTHER }), 400, 'invalid_target');
      await expectError(await ask({ resource: `${ORDERS}#frag` }), 400, 'invalid_target');
      await expectError(await ask({ resource: ORDERS, scope: 'orders:write' }), 400, 'invalid_scope');
      await expectError(await ask({ resource: ORDERS, scope: 'not-of-the-resource' }), 400, 'invalid_scope');
      await expectError(await ask({ resource: ORDERS, scope: 'read:clients' }), 400, 'invalid_scope');
      // Another client that lists no resource.
      const ops = await tokenRequest(
        ward,
        { grant_type: 'client_credentials', resource: ORDERS },
        { authorization: basic('ops', OPS.client_secret) },
      );
      await expectError(ops, 400, 'invalid_target');
    });

    it('without a resource: the management token of before', async () => {
      const tokens = await expectTokens(await ask({}));
      assert.equal(tokens.scope, 'read:clients');
    });
  });
}

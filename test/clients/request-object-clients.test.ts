// The client settings of issue #39's request objects, DPoP binding and API resource tokens, made two
// ways on both engines: Dynamic Client Registration (RFC 7591 metadata request_object_signing_alg,
// require_signed_request_object, dpop_bound_access_tokens) and the management API (those and
// client_credentials_resources), shown back, and refused where they cannot work (no keys to verify
// request objects with, an algorithm Ward does not take, resources without the client_credentials grant).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken, uniqueId } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CB = 'https://agent.example/cb';
type Json = Record<string, unknown>;

for (const engine of engines()) {
  describe(`request object, DPoP and resource settings of clients on ${engine}`, () => {
    let ward: TestWard;
    let jwk: Json;
    before(async () => {
      jwk = { ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'agent-1' };
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: {
          rate_limits: { registration: { limit: 1000 } },
          client_registration: { mode: 'open', metadata_documents: false },
        },
      });
    });
    after(() => ward.close());

    const register = async (metadata: Json) => {
      const res = await ward.fetch('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(metadata),
      });
      return { res, body: (await res.json()) as Json };
    };

    it('DCR: takes the settings with keys, shows them back, refuses them where they cannot work', async () => {
      const { res, body } = await register({
        redirect_uris: [CB],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
        request_object_signing_alg: 'ES256',
        require_signed_request_object: true,
        dpop_bound_access_tokens: true,
      });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.request_object_signing_alg, 'ES256');
      assert.equal(body.require_signed_request_object, true);
      assert.equal(body.dpop_bound_access_tokens, true);
      const publicDpop = await register({
        redirect_uris: [CB],
        token_endpoint_auth_method: 'none',
        dpop_bound_access_tokens: true,
      });
      assert.equal(publicDpop.res.status, 201);
      assert.equal(publicDpop.body.require_signed_request_object, false);
      for (const bad of [
        { token_endpoint_auth_method: 'none', require_signed_request_object: true },
        { token_endpoint_auth_method: 'none', request_object_signing_alg: 'ES256' },
        { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, request_object_signing_alg: 'none' },
        { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, request_object_signing_alg: 'HS256' },
        { token_endpoint_auth_method: 'none', dpop_bound_access_tokens: 'yes' },
      ]) {
        const refused = await register({ redirect_uris: [CB], ...bad });
        assert.equal(refused.res.status, 400, JSON.stringify(bad));
        assert.equal(refused.body.error, 'invalid_client_metadata', JSON.stringify(refused.body));
      }
    });

    it('management API: takes and shows the settings, client_credentials_resources with the grant only', async () => {
      const a = api(ward, (await consoleToken(ward, 'developer')).token);
      const id = uniqueId('jar');
      const resources = { 'https://api.example.com/orders': ['orders:read'] };
      const created = await a.post('/api/v1/clients', {
        client_id: id,
        type: 'confidential',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
        allowed_callback_urls: [CB],
        grant_types: ['authorization_code', 'client_credentials'],
        request_object_signing_alg: 'PS256',
        require_signed_request_object: true,
        dpop_bound_access_tokens: true,
        client_credentials_resources: resources,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const shown = await a.get(`/api/v1/clients/${id}`);
      assert.equal(shown.body.request_object_signing_alg, 'PS256');
      assert.equal(shown.body.require_signed_request_object, true);
      assert.equal(shown.body.dpop_bound_access_tokens, true);
      assert.deepEqual(shown.body.client_credentials_resources, resources);
      for (const bad of [
        { grant_types: ['authorization_code'] },
        { jwks: null, token_endpoint_auth_method: null },
        { request_object_signing_alg: 'none' },
      ]) {
        const res = await a.patch(`/api/v1/clients/${id}`, bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(typeof res.body.error_message_key, 'string');
      }
    });
  });
}

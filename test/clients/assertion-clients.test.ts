// Clients that authenticate with a signed JWT (RFC 7523), made three ways, on both engines: through
// Dynamic Client Registration (RFC 7591: token_endpoint_auth_method private_key_jwt with jwks or
// jwks_uri, or client_secret_jwt), through the management API, and refused when their keys are
// missing, private, or on a public client. Each one made authenticates at /oauth/introspect with an
// assertion, and with nothing else.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken, uniqueId } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CB = 'https://agent.example/cb';
const TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
type Json = Record<string, unknown>;

for (const engine of engines()) {
  describe(`clients registered for client assertions on ${engine}`, () => {
    let ward: TestWard;
    let pair: Awaited<ReturnType<typeof generateKeyPair>>;
    let jwk: Json;
    before(async () => {
      pair = await generateKeyPair('ES256');
      jwk = { ...(await exportJWK(pair.publicKey)), kid: 'agent-1' };
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: {
          rate_limits: { signup: { limit: null }, login: { limit: null }, registration: { limit: 1000 } },
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
    const signed = (clientId: string, key: CryptoKey | Uint8Array, alg: string) => {
      const now = Math.floor(ward.clock.now() / 1000);
      return new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg, ...(alg.startsWith('HS') ? {} : { kid: 'agent-1' }) })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(ward.issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(key);
    };
    const introspect = (form: Record<string, string>) =>
      ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: 'not-a-token', ...form }).toString(),
      });
    const authenticates = async (clientId: string, assertion: string) => {
      const res = await introspect({ client_assertion_type: TYPE, client_assertion: assertion });
      assert.equal(res.status, 200, `${clientId}: ${await res.clone().text()}`);
      assert.equal(((await res.json()) as Json).active, false);
    };

    it('DCR: registers a private_key_jwt client with jwks; it is shown no secret and authenticates with its key', async () => {
      const { res, body } = await register({
        redirect_uris: [CB],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
        require_pushed_authorization_requests: true,
      });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.token_endpoint_auth_method, 'private_key_jwt');
      assert.equal(body.require_pushed_authorization_requests, true);
      assert.deepEqual(body.jwks, { keys: [jwk] });
      assert.equal(body.client_secret, undefined, 'a key client is handed no secret');
      const id = String(body.client_id);
      await authenticates(id, await signed(id, pair.privateKey, 'ES256'));
      const other = await generateKeyPair('ES256');
      const refused = await introspect({
        client_assertion_type: TYPE,
        client_assertion: await signed(id, other.privateKey, 'ES256'),
      });
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as Json).error, 'invalid_client');
    });

    it('DCR: registers a client_secret_jwt client; it signs with the secret it was given', async () => {
      const { res, body } = await register({ redirect_uris: [CB], token_endpoint_auth_method: 'client_secret_jwt' });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.token_endpoint_auth_method, 'client_secret_jwt');
      const id = String(body.client_id);
      await authenticates(id, await signed(id, new TextEncoder().encode(String(body.client_secret)), 'HS256'));
      // Its secret as such is not its method.
      const plain = await introspect({ client_id: id, client_secret: String(body.client_secret) });
      assert.equal(plain.status, 401);
    });

    it('DCR: refuses private_key_jwt without keys, with both, with a private key, and keys for another method', async () => {
      const uri = 'https://agent.example/jwks.json';
      for (const metadata of [
        { token_endpoint_auth_method: 'private_key_jwt' },
        { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, jwks_uri: uri },
        { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ ...jwk, d: 'secret-part' }] } },
        { token_endpoint_auth_method: 'private_key_jwt', jwks: [jwk] },
        { token_endpoint_auth_method: 'client_secret_basic', jwks_uri: uri },
        { token_endpoint_auth_method: 'tls_client_auth' },
        { token_endpoint_auth_method: 'none', require_pushed_authorization_requests: 'yes' },
      ]) {
        const { res, body } = await register({ redirect_uris: [CB], ...metadata });
        assert.equal(res.status, 400, JSON.stringify(metadata));
        assert.equal(body.error, 'invalid_client_metadata', JSON.stringify(body));
      }
    });

    it('management API: creates a private_key_jwt client with a jwks_uri, shows it, refuses bad keys', async () => {
      const a = api(ward, (await consoleToken(ward, 'developer')).token);
      const id = uniqueId('keyed');
      const created = await a.post('/api/v1/clients', {
        client_id: id,
        type: 'confidential',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: 'https://keys.example/jwks.json',
        allowed_callback_urls: ['https://keys.example/cb'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.token_endpoint_auth_method, 'private_key_jwt');
      assert.equal(created.body.jwks_uri, 'https://keys.example/jwks.json');
      assert.equal(created.body.jwks, null);
      // Switched to inline keys: it authenticates with them.
      const changed = await a.patch(`/api/v1/clients/${id}`, { jwks_uri: null, jwks: { keys: [jwk] } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      await authenticates(id, await signed(id, pair.privateKey, 'ES256'));
      for (const bad of [
        { jwks: { keys: [{ ...jwk, d: 'x' }] }, jwks_uri: null },
        { jwks: null, jwks_uri: null },
        { jwks_uri: 'http://keys.example/jwks.json', jwks: null },
        { type: 'public' },
      ]) {
        const res = await a.patch(`/api/v1/clients/${id}`, bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(typeof res.body.error_message_key, 'string');
      }
      const publicOne = await a.post('/api/v1/clients', {
        client_id: uniqueId('pub'),
        type: 'public',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
      });
      assert.equal(publicOne.status, 400);
    });
  });
}

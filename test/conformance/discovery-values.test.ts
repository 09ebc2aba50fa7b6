// The Config plan, continued: discovery lists only what works. test/protocol/discovery-promises.test.ts
// proves most *_supported lists value by value; this file proves the lists it does not (display values,
// subject types, the revocation endpoint's and the introspection endpoint's client authentication and
// its algorithms, the request objects' algorithms) and fails when discovery gains a list neither file tests.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import { engines } from '../helpers/databases.js';
import { signup } from '../helpers/oauth.js';
import { RP_SECRET, rpConfig, signIn, type Suite, startSuite } from './support.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SIGNED_SECRET = 'client-secret-jwt-secret-of-at-least-32-bytes';
/** The lists this file proves (the others: discovery-promises.test.ts names them). */
const PROVED_HERE = [
  'display_values_supported',
  'subject_types_supported',
  'revocation_endpoint_auth_methods_supported',
  'revocation_endpoint_auth_signing_alg_values_supported',
  'introspection_endpoint_auth_signing_alg_values_supported',
  'request_object_signing_alg_values_supported',
];

for (const engine of engines()) {
  describe(`Discovery values the other tests do not prove (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    let doc: Record<string, unknown>;
    const keys: Record<string, CryptoKey> = {};
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
      doc = (await (await suite.ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
      // One private_key_jwt client with a key of each asymmetric algorithm listed, named by it.
      const jwks = [];
      for (const alg of doc.revocation_endpoint_auth_signing_alg_values_supported as string[]) {
        if (alg.startsWith('HS')) continue;
        const pair = await generateKeyPair(alg);
        keys[alg] = pair.privateKey;
        jwks.push({ ...(await exportJWK(pair.publicKey)), kid: alg });
      }
      // Confidential clients: they may revoke and introspect (a resource server only introspects).
      const base = { type: 'confidential', client_secret: RP_SECRET, grant_types: ['client_credentials'] };
      await suite.ward.addClient({
        ...base,
        client_id: 'keyed',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: jwks },
      });
      await suite.ward.addClient({
        ...base,
        client_id: 'signed',
        client_secret: SIGNED_SECRET,
        token_endpoint_auth_method: 'client_secret_jwt',
      });
      await suite.ward.addClient({ client_id: 'public', type: 'public', allowed_callback_urls: [suite.redirectUri] });
      // Its signed request objects (RFC 9101), with a key of each algorithm discovery lists for them.
      const objectKeys = [];
      for (const alg of doc.request_object_signing_alg_values_supported as string[]) {
        const pair = await generateKeyPair(alg, { extractable: true });
        keys[`ro-${alg}`] = pair.privateKey;
        objectKeys.push({ ...(await exportJWK(pair.publicKey)), kid: `ro-${alg}` });
      }
      await suite.ward.addClient({
        ...base,
        client_id: 'jar',
        grant_types: ['authorization_code'],
        allowed_callback_urls: [suite.redirectUri],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: objectKeys },
      });
    });
    after(() => suite.close());

    it('every *_supported list of discovery is proved value by value by one of the tests', () => {
      const promises = readFileSync('test/protocol/discovery-promises.test.ts', 'utf8');
      for (const [field, value] of Object.entries(doc)) {
        if (!field.endsWith('_supported') || !Array.isArray(value)) continue;
        assert.ok(PROVED_HERE.includes(field) || promises.includes(`${field}`), `${field} is proved nowhere`);
      }
    });

    /** A client assertion (RFC 7523) for `clientId` signed with `alg`, its audience the issuer. */
    async function assertion(clientId: string, alg: string): Promise<Record<string, string>> {
      const key = alg.startsWith('HS') ? new TextEncoder().encode(SIGNED_SECRET) : keys[alg]!;
      const now = Math.floor(suite.ward.clock.now() / 1000);
      const jwt = await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg, ...(alg.startsWith('HS') ? {} : { kid: alg }) })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(suite.ward.issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(key);
      return { client_assertion_type: ASSERTION_TYPE, client_assertion: jwt };
    }
    const post = (endpoint: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      suite.ward.fetch(doc[endpoint] as string, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
    const basic = (id: string, secret: string) => ({
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
    });
    const TOKEN = { token: 'some-token-of-nobody' };

    it('request_object_signing_alg_values_supported: an object signed with each starts the sign-in', async () => {
      const algs = doc.request_object_signing_alg_values_supported as string[];
      assert.ok(algs.length && !algs.includes('none'));
      for (const alg of algs) {
        const now = Math.floor(suite.ward.clock.now() / 1000);
        const object = await new SignJWT({
          client_id: 'jar',
          response_type: 'code',
          redirect_uri: suite.redirectUri,
          scope: 'openid',
          state: `st-${alg}`,
        })
          .setProtectedHeader({ alg, kid: `ro-${alg}`, typ: 'oauth-authz-req+jwt' })
          .setIssuer('jar')
          .setAudience(suite.ward.issuer)
          .setIssuedAt(now)
          .setExpirationTime(now + 60)
          .sign(keys[`ro-${alg}`]!);
        const res = await suite.ward.fetch(
          `/oauth/authorize?${new URLSearchParams({ client_id: 'jar', request: object })}`,
        );
        assert.equal(res.status, 200, `${alg}: ${res.headers.get('location') ?? ''}`);
        assert.match(await res.text(), /name="password"/, `${alg}: the login page`);
      }
    });

    it('display_values_supported: each value completes a sign-in', async () => {
      for (const display of doc.display_values_supported as string[]) {
        const { tokens } = await signIn(suite, { config, params: { display } });
        assert.ok(tokens.id_token, display);
      }
    });

    it('subject_types_supported public: one user has the same sub at every client', async () => {
      assert.deepEqual(doc.subject_types_supported, ['public']);
      const user = await signup(suite.ward, 'rp');
      const a = await signIn(suite, { config, user });
      const b = await signIn(suite, { config: await rpConfig(suite.ward, 'rp-post'), user, browser: a.browser });
      assert.equal(decodeJwt(b.tokens.id_token!).sub, decodeJwt(a.tokens.id_token!).sub);
    });

    it('revocation_endpoint_auth_methods_supported: each method authenticates; wrong credentials are 401', async () => {
      const methods = doc.revocation_endpoint_auth_methods_supported as string[];
      const ok: Record<string, () => Promise<Awaited<ReturnType<typeof post>>>> = {
        client_secret_basic: () => post('revocation_endpoint', TOKEN, basic('rp', RP_SECRET)),
        client_secret_post: () =>
          post('revocation_endpoint', { ...TOKEN, client_id: 'rp-post', client_secret: RP_SECRET }),
        client_secret_jwt: async () =>
          post('revocation_endpoint', { ...TOKEN, ...(await assertion('signed', 'HS256')) }),
        private_key_jwt: async () => post('revocation_endpoint', { ...TOKEN, ...(await assertion('keyed', 'ES256')) }),
        none: () => post('revocation_endpoint', { ...TOKEN, client_id: 'public' }),
      };
      assert.deepEqual([...methods].sort(), Object.keys(ok).sort());
      for (const m of methods) assert.equal((await ok[m]!()).status, 200, m);
      assert.equal((await post('revocation_endpoint', TOKEN, basic('rp', `${RP_SECRET}x`))).status, 401);
      assert.equal((await post('revocation_endpoint', { ...TOKEN, client_id: 'nobody' })).status, 401);
      // And a real revocation: the refresh token revoked with client_secret_basic no longer refreshes.
      const { tokens } = await signIn(suite, { config, params: { scope: 'openid offline_access' } });
      const res = await post('revocation_endpoint', { token: tokens.refresh_token! }, basic('rp', RP_SECRET));
      assert.equal(res.status, 200);
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!));
    });

    for (const endpoint of ['revocation_endpoint', 'introspection_endpoint']) {
      const field = `${endpoint}_auth_signing_alg_values_supported`;
      it(`${field}: a client assertion of each algorithm authenticates`, async () => {
        const algs = doc[field] as string[];
        assert.deepEqual(algs, doc.token_endpoint_auth_signing_alg_values_supported);
        for (const alg of algs) {
          const res = await post(endpoint, {
            ...TOKEN,
            ...(await assertion(alg.startsWith('HS') ? 'signed' : 'keyed', alg)),
          });
          assert.equal(res.status, 200, `${alg}: ${await res.text()}`);
        }
      });
    }
  });
}

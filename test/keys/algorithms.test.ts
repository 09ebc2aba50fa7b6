// ES256 (EC P-256) and EdDSA (Ed25519) id tokens, per client: signed with the current key of that
// family in the client's key set, published in /jwks.json with kid, use and alg, and verified here
// with jose as a relying party does. The key-set transitions apply per family with RSA's rules
// (transitions.test.ts): rotate (the previous key stays for the grace period), client-specific pair,
// sync, revoke (gone at once, refused as an id_token_hint). The specification's bare calls keep their
// meaning (the RSA pair). SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { codeFor, location, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const client = (id: string, alg: string) => ({
  client_id: id,
  name: id,
  type: 'public',
  jwt_algorithm: alg,
  allowed_callback_urls: [`https://${id}.example/cb`],
});
const ES = client('es-app', 'ES256');
const ED = client('ed-app', 'EdDSA');
const RS = client('rs-app', 'RS256');
type Client = typeof ES;
type Key = { kid: string; alg: string; status: string; key_set: string; public_jwk: JWK };

/** Shared by the two describes: a Ward's id tokens, JWKS and management calls. */
function helpers(get: () => TestWard) {
  async function idToken(c: Client): Promise<string> {
    const ward = get();
    const redirectUri = c.allowed_callback_urls[0]!;
    const { code, verifier } = await codeFor(ward, { clientId: c.client_id, redirectUri, scope: 'openid' });
    const { body } = await redeem(ward, code, verifier, c.client_id, redirectUri);
    assert.ok(body.id_token, JSON.stringify(body));
    return body.id_token;
  }
  const jwks = async (query = ''): Promise<JSONWebKeySet> =>
    (await get().fetch(`/jwks.json${query}`)).json() as Promise<JSONWebKeySet>;
  const kids = async (query = '') => (await jwks(query)).keys.map((k) => k.kid);
  const remote = () =>
    createRemoteJWKSet(new URL(`${get().url}/jwks.json`), {
      [customFetch]: ((u: string, i: object) => undiciFetch(u, { ...i, dispatcher: get().agent })) as never,
      cooldownDuration: 0,
    });
  const verifies = async (token: string, set: Parameters<typeof jwtVerify>[1], c: Client) =>
    jwtVerify(token, set as never, { issuer: get().url, audience: c.client_id, algorithms: [c.jwt_algorithm] }).then(
      () => true,
      () => false,
    );
  return { idToken, jwks, kids, remote, verifies };
}

for (const engine of engines()) {
  describe(`ES256 and EdDSA signing keys (${engine})`, () => {
    let ward: TestWard;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [ES, ED, RS, CONSOLE_CLIENT],
        account: { access_token_ttl: 600, id_token_ttl: 900 },
      });
    });
    // The grace-period test moves the clock past token lifetimes: each test gets a fresh console token.
    beforeEach(async () => {
      admin = api(ward, (await consoleToken(ward, 'developer')).token);
    });
    after(() => ward.close());
    const { idToken, jwks, kids, remote, verifies } = helpers(() => ward);
    const siteKeys = async () => (await admin.get('/api/v1/site/keys')).body.keys as Key[];
    const currentOf = (keys: Key[], alg: string) => keys.filter((k) => k.status === 'current' && k.alg === alg);
    const hint = (c: Client, token: string) =>
      ward.fetch(
        `/oauth/authorize?client_id=${c.client_id}&response_type=code&redirect_uri=${encodeURIComponent(c.allowed_callback_urls[0]!)}&scope=openid&prompt=none&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&id_token_hint=${token}`,
      );
    const hintError = async (c: Client, token: string) => location(await hint(c, token)).searchParams.get('error');

    it('signs each client with its algorithm, verified by jose against /jwks.json; every JWK has kid, use sig, alg', async () => {
      const rp = remote();
      const published = await jwks();
      for (const [c, kty, crv] of [
        [ES, 'EC', 'P-256'],
        [ED, 'OKP', 'Ed25519'],
        [RS, 'RSA', undefined],
      ] as const) {
        const token = await idToken(c);
        const header = decodeProtectedHeader(token);
        assert.equal(header.alg, c.jwt_algorithm);
        assert.ok(await verifies(token, rp, c), `${c.jwt_algorithm} id token verifies with the JWKS`);
        const jwk = published.keys.find((k) => k.kid === header.kid);
        assert.ok(jwk, `the ${c.jwt_algorithm} kid is published`);
        assert.equal(jwk.kty, kty);
        assert.equal(jwk.crv, crv);
        assert.equal(jwk.alg, c.jwt_algorithm);
        assert.equal(jwk.d, undefined, 'no private member');
        // The self-signed certificate holds the same public key.
        const certKey = new X509Certificate(Buffer.from(jwk.x5c![0]!, 'base64')).publicKey.export({ format: 'jwk' });
        assert.equal(certKey.x, kty === 'RSA' ? undefined : jwk.x);
        if (kty === 'RSA') assert.equal(certKey.n, jwk.n);
        const wrongFamily = { ...c, jwt_algorithm: c.jwt_algorithm === 'RS256' ? 'ES256' : 'RS256' };
        assert.ok(!(await verifies(token, rp, wrongFamily)), 'refused under another algorithm');
      }
      for (const k of published.keys) {
        assert.ok(k.kid && k.use === 'sig' && ['RS256', 'ES256', 'EdDSA'].includes(k.alg!), JSON.stringify(k));
      }
      const site = await siteKeys();
      for (const alg of ['RS256', 'ES256', 'EdDSA'])
        assert.equal(currentOf(site, alg).length, 1, `one current global ${alg} key`);
      assert.deepEqual(
        new Set(site.map((k) => k.public_jwk.kty)),
        new Set(['RSA', 'EC', 'OKP']),
        'the management API shows each family',
      );
    });

    it('rotates one global family at a time: the bare call is the RSA pair, {"alg"} names another; the previous key stays for the grace period', async () => {
      const rp = remote();
      const start = await siteKeys();
      const [rs0, es0, ed0] = ['RS256', 'ES256', 'EdDSA'].map((a) => currentOf(start, a)[0]!.kid);
      const bare = await admin.post('/api/v1/site/keys');
      assert.equal(bare.status, 201);
      assert.equal(bare.body.alg, 'RS256', "the specification's call rotates the RSA pair");
      const afterBare = await siteKeys();
      assert.equal(currentOf(afterBare, 'ES256')[0]!.kid, es0, 'the EC key is untouched');
      assert.equal(currentOf(afterBare, 'EdDSA')[0]!.kid, ed0, 'the Ed25519 key is untouched');
      assert.equal(afterBare.find((k) => k.kid === rs0)!.status, 'previous');

      const before = await idToken(ES);
      ward.clock.advance(1_000);
      const rotated = await admin.post('/api/v1/site/keys', { alg: 'ES256' });
      assert.equal(rotated.status, 201);
      assert.equal(rotated.body.alg, 'ES256');
      assert.equal(rotated.body.public_jwk.kty, 'EC');
      const fresh = await idToken(ES);
      assert.equal(decodeProtectedHeader(fresh).kid, rotated.body.kid);
      assert.equal(currentOf(await siteKeys(), 'RS256')[0]!.kid, bare.body.kid, 'the RSA key is untouched');
      assert.ok((await kids()).includes(es0), 'the previous EC key stays published');
      assert.ok(await verifies(before, rp, ES), 'tokens of the previous EC key still verify');
      assert.ok(await verifies(fresh, rp, ES));

      const ed = await admin.post('/api/v1/site/keys', { alg: 'EdDSA' });
      assert.equal(ed.status, 201);
      assert.equal(decodeProtectedHeader(await idToken(ED)).kid, ed.body.kid);
      for (const wrong of [{ alg: 'PS256' }, { alg: 'HS256' }, { alg: 'ES256', force: true }])
        assert.equal((await admin.post('/api/v1/site/keys', wrong)).status, 400, JSON.stringify(wrong));

      ward.clock.advance(901_000);
      const left = await kids();
      for (const old of [rs0, es0, ed0]) assert.ok(!left.includes(old), 'gone after the grace period');
      assert.ok(!(await verifies(before, remote(), ES)), 'its tokens no longer verify');
    });

    for (const c of [ES, ED]) {
      it(`gives an ${c.jwt_algorithm} client its own pair of its family; sync returns it to the global pair`, async () => {
        const globalKid = currentOf(await siteKeys(), c.jwt_algorithm)[0]!.kid;
        const rotated = await admin.post(`/api/v1/clients/${c.client_id}/keys`);
        assert.equal(rotated.status, 201);
        assert.equal(rotated.body.alg, c.jwt_algorithm);
        assert.equal(rotated.body.key_set, `client:${c.client_id}`);
        const ownKid = rotated.body.kid as string;
        const state = await admin.get(`/api/v1/clients/${c.client_id}/keys`);
        assert.equal(state.body.state, 'client_specific');
        assert.equal(state.body.jwt_algorithm, c.jwt_algorithm);
        const token = await idToken(c);
        assert.equal(decodeProtectedHeader(token).kid, ownKid);
        const own = await jwks(`?client_id=${c.client_id}`);
        assert.deepEqual(
          own.keys.map((k) => k.kid),
          [ownKid],
        );
        assert.ok(await verifies(token, createLocalJWKSet(own), c));
        const rsView = await jwks(`?client_id=${RS.client_id}`);
        assert.ok(!rsView.keys.some((k) => k.kid === ownKid), "another client's view never holds it");
        assert.ok(!(await verifies(token, createLocalJWKSet(rsView), c)), "another client's keys cannot verify it");

        const other = c === ES ? 'EdDSA' : 'ES256';
        const refused = await admin.patch(`/api/v1/clients/${c.client_id}`, { jwt_algorithm: other });
        assert.equal(refused.status, 409, 'a client-specific client is synced before it changes family');
        assert.equal(refused.body.error_message_key, 'error.client.hasOwnKeys');

        const synced = await admin.put(`/api/v1/clients/${c.client_id}/keys`);
        assert.equal(synced.status, 200);
        assert.equal(synced.body.state, 'synced_with_global');
        assert.equal(decodeProtectedHeader(await idToken(c)).kid, globalKid, 'signs with the global pair again');
        assert.ok((await kids(`?client_id=${c.client_id}`)).includes(ownKid), 'its own key stays for the grace period');
        assert.ok(await verifies(token, remote(), c));

        // Synced, it may change family: its next token is of the new one, under the global key.
        assert.equal((await admin.patch(`/api/v1/clients/${c.client_id}`, { jwt_algorithm: other })).status, 200);
        const switched = await idToken({ ...c, jwt_algorithm: other });
        assert.equal(decodeProtectedHeader(switched).alg, other);
        assert.equal(decodeProtectedHeader(switched).kid, currentOf(await siteKeys(), other)[0]!.kid);
        assert.ok(await verifies(switched, remote(), { ...c, jwt_algorithm: other }));
        assert.equal(
          (await admin.patch(`/api/v1/clients/${c.client_id}`, { jwt_algorithm: c.jwt_algorithm })).status,
          200,
        );
      });
    }

    it('revokes an EC / Ed25519 client key: gone at once, refused as an id_token_hint, never signs again', async () => {
      for (const c of [ES, ED]) {
        const rotated = await admin.post(`/api/v1/clients/${c.client_id}/keys`);
        const token = await idToken(c);
        const kid = rotated.body.kid as string;
        assert.equal(decodeProtectedHeader(token).kid, kid);
        assert.equal(await hintError(c, token), 'login_required', `an ${c.jwt_algorithm} hint is accepted`);
        assert.equal((await admin.del(`/api/v1/clients/${c.client_id}/jwks/${kid}`)).status, 204);
        assert.ok(!(await kids()).includes(kid));
        assert.ok(!(await kids(`?client_id=${c.client_id}`)).includes(kid));
        assert.ok(!(await verifies(token, remote(), c)), 'a relying party stops verifying its tokens');
        assert.equal(await hintError(c, token), 'invalid_request', 'Ward refuses a hint signed by a revoked key');
        const next = await idToken(c);
        assert.notEqual(decodeProtectedHeader(next).kid, kid);
        assert.equal((await admin.get(`/api/v1/clients/${c.client_id}/keys`)).body.state, 'synced_with_global');
        assert.equal((await admin.del(`/api/v1/clients/${c.client_id}/jwks/${kid}`)).status, 409, 'already revoked');
      }
    });

    it('revokes the current global EC key and puts a fresh EC key in its place, the other families untouched', async () => {
      const before = await siteKeys();
      const ec = currentOf(before, 'ES256')[0]!.kid;
      const token = await idToken(ES);
      assert.equal(await hintError(ES, token), 'login_required');
      assert.equal((await admin.del(`/api/v1/site/keys/${ec}`)).status, 204);
      const after = await siteKeys();
      const fresh = currentOf(after, 'ES256');
      assert.equal(fresh.length, 1);
      assert.notEqual(fresh[0]!.kid, ec);
      assert.equal(fresh[0]!.public_jwk.kty, 'EC');
      for (const alg of ['RS256', 'EdDSA'])
        assert.equal(currentOf(after, alg)[0]!.kid, currentOf(before, alg)[0]!.kid, `${alg} untouched`);
      assert.ok(!(await kids()).includes(ec));
      assert.equal(await hintError(ES, token), 'invalid_request');
      assert.equal(decodeProtectedHeader(await idToken(ES)).kid, fresh[0]!.kid);
    });

    it('refuses an ES256 hint for an EdDSA client and an RS256 hint for an ES256 client', async () => {
      // The same user's tokens, each from the other client: the audience and the algorithm differ.
      assert.equal(await hintError(ED, await idToken(ES)), 'invalid_request');
      assert.equal(await hintError(ES, await idToken(RS)), 'invalid_request');
    });
  });
}

describe('the EC and Ed25519 global pairs are made when a client first uses them', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [RS, CONSOLE_CLIENT] });
  });
  after(() => ward.close());
  const { idToken, jwks, verifies, remote } = helpers(() => ward);

  it('publishes only the RSA pair while every client uses RS256, then an Ed25519 pair before the first EdDSA token', async () => {
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kty),
      ['RSA'],
      "the JWKS of an RS256-only site is the specification's",
    );
    const admin = api(ward, (await consoleToken(ward, 'developer')).token);
    const fresh = client('fresh-ed', 'EdDSA');
    assert.equal((await admin.post('/api/v1/clients', fresh)).status, 201);
    const okp = (await jwks()).keys.filter((k) => k.kty === 'OKP');
    assert.equal(okp.length, 1, 'published as the client is created');
    assert.equal((await jwks('?client_id=fresh-ed')).keys.filter((k) => k.kty === 'OKP').length, 1);
    const token = await idToken(fresh);
    assert.equal(decodeProtectedHeader(token).kid, okp[0]!.kid);
    assert.ok(await verifies(token, remote(), fresh));
    assert.equal((await ward.fetch('/readyz')).status, 200);
  });
});

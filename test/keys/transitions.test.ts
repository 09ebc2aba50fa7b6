// The key-set state table of the product specification, watched by a relying party using jose's
// createRemoteJWKSet: global rotation, client rotation (client-specific), sync back to global,
// revocation; the grace period on a fake clock; tokens of A never verify with B's keys (IDT-07..09).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { fetch as undiciFetch } from 'undici';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { codeFor, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const A = {
  client_id: 'app-a',
  name: 'A',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://a.example/cb'],
};
const B = {
  client_id: 'app-b',
  name: 'B',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://b.example/cb'],
};

describe('key sets: rotate, sync, revoke', () => {
  let ward: TestWard;
  let admin: ReturnType<typeof api>;
  before(async () => {
    ward = await startWard({ clients: [A, B, CONSOLE_CLIENT], account: { access_token_ttl: 600, id_token_ttl: 900 } });
  });
  // The grace-period test moves the clock past token lifetimes: each test gets a fresh console token.
  beforeEach(async () => {
    admin = api(ward, (await consoleToken(ward, 'developer')).token);
  });
  after(() => ward.close());

  async function idToken(client: typeof A): Promise<string> {
    const { code, verifier } = await codeFor(ward, {
      clientId: client.client_id,
      redirectUri: client.allowed_callback_urls[0],
      scope: 'openid',
    });
    const { body } = await redeem(ward, code, verifier, client.client_id, client.allowed_callback_urls[0]);
    return body.id_token!;
  }
  const jwks = async (query = ''): Promise<JSONWebKeySet> =>
    (await ward.fetch(`/jwks.json${query}`)).json() as Promise<JSONWebKeySet>;
  const kids = async (query = '') => (await jwks(query)).keys.map((k) => k.kid);
  const remote = () =>
    createRemoteJWKSet(new URL(`${ward.url}/jwks.json`), {
      [customFetch]: ((u: string, i: object) => undiciFetch(u, { ...i, dispatcher: ward.agent })) as never,
      cooldownDuration: 0,
    });
  const verifies = async (token: string, set: Parameters<typeof jwtVerify>[1], aud: string) =>
    jwtVerify(token, set as never, { issuer: ward.url, audience: aud, algorithms: ['RS256'] }).then(
      () => true,
      () => false,
    );

  it('rotates the global pair: new tokens use the new kid, the old one stays published for the grace period, then leaves', async () => {
    const rp = remote();
    const before = await idToken(A);
    const oldKid = decodeProtectedHeader(before).kid!;
    assert.ok(await verifies(before, rp, 'app-a'));
    ward.clock.advance(1_000);
    const rotated = await admin.post('/api/v1/site/keys', {});
    assert.equal(rotated.status, 201);
    const newKid = rotated.body.kid as string;
    assert.notEqual(newKid, oldKid);
    const after = await idToken(A);
    assert.equal(decodeProtectedHeader(after).kid, newKid);
    assert.deepEqual((await kids()).sort(), [oldKid, newKid].sort());
    assert.ok(await verifies(before, rp, 'app-a'), 'tokens of the old key still verify during the grace period');
    assert.ok(await verifies(after, rp, 'app-a'), 'the relying party refetches for the unknown kid');
    const site = await admin.get('/api/v1/site/keys');
    assert.deepEqual(
      site.body.keys.map((k: { kid: string; status: string }) => [k.kid, k.status]),
      [
        [oldKid, 'previous'],
        [newKid, 'current'],
      ],
    );
    ward.clock.advance(899_000);
    assert.ok((await kids()).includes(oldKid), 'still published just before the longest token lifetime (900 s)');
    ward.clock.advance(2_000);
    assert.deepEqual(await kids(), [newKid], 'gone once every token it signed has expired');
  });

  it('gives a client its own pair, whose tokens verify only with that pair; sync returns it to the global pair', async () => {
    const globalKid = (await admin.get('/api/v1/site/keys')).body.keys.find(
      (k: { status: string }) => k.status === 'current',
    ).kid as string;
    const rotated = await admin.post('/api/v1/clients/app-a/keys', {});
    assert.equal(rotated.status, 201);
    const aKid = rotated.body.kid as string;
    const state = await admin.get('/api/v1/clients/app-a/keys');
    assert.equal(state.body.state, 'client_specific');
    const tokenA = await idToken(A);
    const tokenB = await idToken(B);
    assert.equal(decodeProtectedHeader(tokenA).kid, aKid);
    assert.equal(decodeProtectedHeader(tokenB).kid, globalKid);
    const jwksA = await jwks('?client_id=app-a');
    const jwksB = await jwks('?client_id=app-b');
    assert.deepEqual(
      jwksA.keys.map((k) => k.kid),
      [aKid],
    );
    assert.ok(jwksB.keys.some((k) => k.kid === globalKid) && !jwksB.keys.some((k) => k.kid === aKid));
    assert.ok(await verifies(tokenA, createLocalJWKSet(jwksA), 'app-a'));
    assert.ok(!(await verifies(tokenA, createLocalJWKSet(jwksB), 'app-a')), "B's key set cannot verify A's tokens");
    assert.ok(!(await verifies(tokenB, createLocalJWKSet(jwksA), 'app-b')), "A's key set cannot verify B's tokens");
    assert.ok((await kids()).includes(aKid), 'the full JWKS holds every live key');

    const synced = await admin.put('/api/v1/clients/app-a/keys', {});
    assert.equal(synced.status, 200);
    assert.equal(synced.body.state, 'synced_with_global');
    const afterSync = await idToken(A);
    assert.equal(decodeProtectedHeader(afterSync).kid, globalKid, 'signs with the global pair again');
    assert.ok(await verifies(tokenA, remote(), 'app-a'), 'tokens of its own pair still verify during the grace period');
    const syncedView = await kids('?client_id=app-a');
    assert.ok(
      syncedView.includes(aKid) && syncedView.includes(globalKid),
      "a synced client's view: the global keys and its own retired key in grace",
    );
    assert.ok(!(await kids('?client_id=app-b')).includes(aKid), "B's view never holds A's key");
  });

  it('revokes a key: gone from the JWKS at once, never signs again, refused by Ward itself as an id_token_hint', async () => {
    await admin.post('/api/v1/clients/app-b/keys', {});
    const tokenB = await idToken(B);
    const kid = decodeProtectedHeader(tokenB).kid!;
    const hint = (t: string) =>
      ward.fetch(
        `/oauth/authorize?client_id=app-b&response_type=code&redirect_uri=${encodeURIComponent(B.allowed_callback_urls[0]!)}&scope=openid&prompt=none&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&id_token_hint=${t}`,
      );
    const okHint = new URL((await hint(tokenB)).headers.get('location')!);
    assert.equal(okHint.searchParams.get('error'), 'login_required', 'a valid hint is accepted (no session here)');
    const revoked = await admin.del(`/api/v1/clients/app-b/jwks/${kid}`);
    assert.equal(revoked.status, 204);
    assert.ok(!(await kids()).includes(kid));
    assert.ok(!(await kids('?client_id=app-b')).includes(kid));
    assert.ok(!(await verifies(tokenB, remote(), 'app-b')), 'a relying party stops verifying its tokens');
    const badHint = new URL((await hint(tokenB)).headers.get('location')!);
    assert.equal(badHint.searchParams.get('error'), 'invalid_request');
    const next = await idToken(B);
    assert.notEqual(decodeProtectedHeader(next).kid, kid, 'never signs again');
    assert.equal(
      (await admin.get('/api/v1/clients/app-b/keys')).body.state,
      'synced_with_global',
      'revoking the current key sends the client back to the global pair',
    );
    assert.equal((await admin.del(`/api/v1/clients/app-b/jwks/${kid}`)).status, 409, 'already revoked');
    const globalKid = decodeProtectedHeader(next).kid!;
    assert.equal(
      (await admin.del(`/api/v1/clients/app-b/jwks/${globalKid}`)).status,
      404,
      "the global key is not the client's to revoke",
    );
  });

  it('revokes the current global key and puts a fresh one in its place', async () => {
    const current = (await admin.get('/api/v1/site/keys')).body.keys.find(
      (k: { status: string }) => k.status === 'current',
    ).kid as string;
    assert.equal((await admin.del(`/api/v1/site/keys/${current}`)).status, 204);
    const fresh = await idToken(A);
    assert.notEqual(decodeProtectedHeader(fresh).kid, current);
    assert.ok(!(await kids()).includes(current));
  });

  it('serves the JWKS pre-serialised with a short max-age and an ETag that changes with the keys', async () => {
    const first = await ward.fetch('/jwks.json');
    const etag = first.headers.get('etag')!;
    assert.match(first.headers.get('cache-control')!, /max-age=\d+/);
    assert.equal((await ward.fetch('/jwks.json', { headers: { 'if-none-match': etag } })).status, 304);
    await admin.post('/api/v1/site/keys', {});
    assert.notEqual((await ward.fetch('/jwks.json')).headers.get('etag'), etag);
  });
});

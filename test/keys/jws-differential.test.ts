// Every kind of JWT Ward signs (ID tokens: RS256 with the global key, RS256 with a client-specific
// key, HS256 with the client secret), on the tuned path (keys/tuning/jws.ts, node:crypto directly)
// and on the plain one (jose), must verify with jose against what Ward publishes (/jwks.json,
// ?client_id=) and the secret, carry the same header and claims, and be accepted back by Ward as an
// id_token_hint (verified with jose); a token with one bit changed must not verify.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { verifyIdTokenHint } from '../../src/protocol/id-token-hint.js';
import type { User } from '../../src/storage/sql/users.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const OWN_KEY_CLIENT = { ...PUBLIC_CLIENT, client_id: 'own-key', name: 'Own key' };
const KINDS = [
  { kind: 'RS256, global key', clientId: PUBLIC_CLIENT.client_id, alg: 'RS256' },
  { kind: 'RS256, client-specific key', clientId: OWN_KEY_CLIENT.client_id, alg: 'RS256' },
  { kind: 'HS256, client secret', clientId: CONFIDENTIAL_CLIENT.client_id, alg: 'HS256' },
];

const flip = (jwt: string) => {
  const [h, p, s] = jwt.split('.');
  const sig = Buffer.from(s!, 'base64url');
  sig[0]! ^= 1;
  return `${h}.${p}.${sig.toString('base64url')}`;
};

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as object;

for (const tuning of ['on', 'off'] as const) {
  describe(`ID tokens signed with WARD_TUNING=${tuning} verify with jose`, () => {
    let ward: TestWard;
    let user: User;
    before(async () => {
      ward = await startWard({
        clients: [PUBLIC_CLIENT, OWN_KEY_CLIENT, CONFIDENTIAL_CLIENT],
        env: { WARD_TUNING: tuning },
      });
      assert.equal(ward.registry.config.tuning.direct_jws, tuning === 'on');
      await ward.registry.keyOps.rotateClient(OWN_KEY_CLIENT.client_id, { type: 'system', id: 'test', ip: null });
      user = await ward.registry.users.signup({
        email: `jws-${tuning}@example.com`,
        password: 'a-long-enough-password',
        given_name: 'Zoë',
      });
    });
    after(() => ward.close());

    for (const { kind, clientId, alg } of KINDS) {
      it(kind, async () => {
        const client = (await ward.registry.clients.find(clientId))!;
        const token = await ward.registry.signIdToken({
          client,
          user,
          scopes: ['openid', 'email', 'profile'],
          nonce: 'n-0S6_WzA2Mj',
          authTime: ward.clock.now(),
          amr: ['pwd'],
          accessToken: 'an-access-token',
          code: 'a-code',
        });
        const header = decodeProtectedHeader(token);
        assert.equal(header.alg, alg);
        assert.equal(header.typ, 'JWT');
        let key: Parameters<typeof jwtVerify>[1];
        if (alg === 'HS256') {
          key = new TextEncoder().encode(CONFIDENTIAL_SECRET);
        } else {
          const jwks = (await (await ward.fetch(`/jwks.json?client_id=${clientId}`)).json()) as JSONWebKeySet;
          const published = jwks.keys.map((k) => k.kid);
          assert.ok(published.includes(header.kid), `kid ${header.kid} is published for ${clientId}`);
          const keySet = clientId === OWN_KEY_CLIENT.client_id ? `client:${clientId}` : 'global';
          assert.equal(ward.registry.keys.published(header.kid!)?.keySet, keySet);
          key = createLocalJWKSet(jwks) as never;
        }
        const { payload } = await jwtVerify(token, key as never, {
          algorithms: [alg],
          issuer: ward.registry.config.issuer,
          audience: clientId,
          currentDate: new Date(ward.clock.now()),
        });
        assert.equal(payload.sub, user.id);
        assert.equal(payload.nonce, 'n-0S6_WzA2Mj');
        assert.equal(payload.email, `jws-${tuning}@example.com`);
        assert.deepEqual(payload, claimsOf(token));
        await assert.rejects(jwtVerify(flip(token), key as never, { algorithms: [alg] }));
        const deps = { issuer: ward.registry.config.issuer, keys: ward.registry.keys, clients: ward.registry.clients };
        assert.equal(await verifyIdTokenHint(token, client, deps), user.id);
        assert.equal(await verifyIdTokenHint(flip(token), client, deps), null);
      });
    }
  });
}

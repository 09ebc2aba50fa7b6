// Signing configuration and the published keys: IDT-04 (HS256 only with a secret of 32 octets or
// more), IDT-05 (no alg none, anywhere), IDT-06 (/jwks.json: public members only, unique kid,
// use sig, alg RS256, modulus >= 2048 bits, x5c a certificate whose key is n/e, x5t its SHA-1).
import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { Problems, validateClient } from '../../src/config/validate.js';
import { generateSigningKey } from '../../src/keys/generate.js';
import { GLOBAL_SET, clientSet } from '../../src/keys/key-store.js';
import { CONFIDENTIAL_CLIENT, PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { issueBackendTokens, issueSpaTokens, startSecurityWard } from './support.js';

type Jwk = Record<string, unknown> & { kid: string; n: string; e: string; x5c: string[]; x5t: string };
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

function problemsOf(def: Record<string, unknown>): string[] {
  const p = new Problems();
  const c = validateClient(p, 'client', def);
  if (!p.list.length) assert.ok(c);
  return p.list;
}

describe('IDT-04, IDT-05: signing configuration', () => {
  it('IDT-04: refuses HS256 on a public client and client secrets shorter than 32 octets', async () => {
    assert.match(
      problemsOf({ ...PUBLIC_CLIENT, jwt_algorithm: 'HS256' }).join('\n'),
      /client\.jwt_algorithm: HS256 needs a client secret/,
    );
    assert.match(
      problemsOf({ ...PUBLIC_CLIENT, client_secret: 'x'.repeat(40) }).join('\n'),
      /client\.client_secret: a public client has no secret/,
    );
    assert.match(
      problemsOf({ ...CONFIDENTIAL_CLIENT, client_secret: 'x'.repeat(31) }).join('\n'),
      /client\.client_secret: must be at least 32 bytes/,
    );
    assert.match(
      problemsOf({ ...CONFIDENTIAL_CLIENT, client_secret: undefined }).join('\n'),
      /client\.client_secret: a confidential client needs a client_secret/,
    );
    assert.match(
      problemsOf({ ...CONFIDENTIAL_CLIENT, client_secret: 1.234567890123457e34 }).join('\n'),
      /client\.client_secret/,
    );
    // Octets, not characters: 16 two-octet characters are 32 octets; 31 ASCII + nothing are not.
    assert.deepEqual(problemsOf({ ...CONFIDENTIAL_CLIENT, client_secret: 'é'.repeat(16) }), []);
    assert.deepEqual(problemsOf({ ...CONFIDENTIAL_CLIENT, client_secret: 'x'.repeat(32) }), []);
    // Through the two doors: the config file at start, and the management upsert of a running Ward.
    await assert.rejects(
      startWard({ clients: [{ ...PUBLIC_CLIENT, jwt_algorithm: 'HS256' }] }),
      /HS256 needs a client secret/,
    );
    await assert.rejects(
      startWard({ clients: [{ ...CONFIDENTIAL_CLIENT, client_secret: 'short-secret' }] }),
      /at least 32 bytes/,
    );
    const ward = await startSecurityWard();
    try {
      await assert.rejects(
        ward.addClient({ ...PUBLIC_CLIENT, client_id: 'spa2', jwt_algorithm: 'HS256' }),
        /HS256 needs a client secret/,
      );
      await assert.rejects(
        ward.addClient({ ...CONFIDENTIAL_CLIENT, client_id: 'b2', client_secret: 'y'.repeat(31) }),
        /at least 32 bytes/,
      );
      assert.equal(await ward.registry.clients.find('spa2'), undefined);
      assert.equal(await ward.registry.clients.find('b2'), undefined);
    } finally {
      await ward.close();
    }
  });

  it('IDT-05: refuses alg none in any spelling and the unknown id_token_signed_response_alg key; discovery omits none', async () => {
    for (const alg of ['none', 'None', 'NONE', 'RS512', 'es256', 'ES384', 'Ed25519', 'EDDSA', 'HS512', '']) {
      assert.match(
        problemsOf({ ...CONFIDENTIAL_CLIENT, jwt_algorithm: alg }).join('\n'),
        /client\.jwt_algorithm: must be one of RS256, HS256, ES256, EdDSA,/,
        alg,
      );
    }
    assert.match(
      problemsOf({ ...PUBLIC_CLIENT, id_token_signed_response_alg: 'none' }).join('\n'),
      /client\.id_token_signed_response_alg: unknown key/,
    );
    await assert.rejects(startWard({ clients: [{ ...PUBLIC_CLIENT, jwt_algorithm: 'none' }] }), /jwt_algorithm/);
    const ward = await startSecurityWard();
    try {
      const d = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, string[]>;
      assert.deepEqual(d.id_token_signing_alg_values_supported, ['RS256', 'HS256', 'ES256', 'EdDSA']);
      for (const [k, v] of Object.entries(d)) {
        if (Array.isArray(v))
          assert.ok(!v.some((x) => typeof x === 'string' && x.toLowerCase() === 'none' && k.includes('alg')), k);
      }
      // What Ward actually signs: RS256 with a kid for 'spa', HS256 for 'backend'; never none.
      const spa = await issueSpaTokens(ward);
      const backend = await issueBackendTokens(ward);
      assert.deepEqual(decodeProtectedHeader(spa.id_token), {
        alg: 'RS256',
        typ: 'JWT',
        kid: decodeProtectedHeader(spa.id_token).kid,
      });
      assert.equal(decodeProtectedHeader(backend.id_token).alg, 'HS256');
      assert.notEqual(spa.id_token.split('.')[2], '');
    } finally {
      await ward.close();
    }
  });
});

describe('IDT-06: /jwks.json', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
    // Besides the global current key: a retired global key, a client-specific key, a revoked key.
    const now = ward.clock.now();
    const retired = await generateSigningKey(ward.registry.masterKey, GLOBAL_SET, now - 1000);
    retired.status = 'previous';
    retired.retired_at = now;
    const own = await generateSigningKey(ward.registry.masterKey, clientSet('spa'), now, 'RS256', 3072);
    const revoked = await generateSigningKey(ward.registry.masterKey, GLOBAL_SET, now - 2000);
    revoked.status = 'previous';
    for (const k of [retired, own, revoked]) await ward.registry.storage.keys.insert(k);
    await ward.registry.storage.keys.revoke(revoked.kid, now);
    await ward.registry.storage.clients.setKeyMode('spa', 'client', now);
    ward.registry.clients.invalidate();
    await ward.registry.keys.reload();
    revokedKid = revoked.kid;
  });
  after(() => ward.close());
  let revokedKid = '';

  async function jwks(
    query = '',
  ): Promise<{ res: Awaited<ReturnType<TestWard['fetch']>>; keys: Jwk[]; raw: Record<string, unknown> }> {
    const res = await ward.fetch(`/jwks.json${query}`);
    assert.equal(res.status, 200);
    const raw = (await res.json()) as Record<string, unknown>;
    return { res, keys: raw.keys as Jwk[], raw };
  }

  it('publishes only public RSA signing keys, each with a unique kid, use sig, alg RS256, modulus >= 2048 bits', async () => {
    const { res, keys, raw } = await jwks();
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(Object.keys(raw), ['keys']);
    assert.equal(keys.length, 3, 'current global, retired global, client-specific');
    assert.equal(new Set(keys.map((k) => k.kid)).size, keys.length, 'kids are unique');
    assert.ok(!keys.some((k) => k.kid === revokedKid), 'a revoked key is not published');
    for (const k of keys) {
      for (const m of PRIVATE_MEMBERS) assert.equal(k[m], undefined, `${k.kid} has private member ${m}`);
      assert.deepEqual(Object.keys(k).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use', 'x5c', 'x5t', 'x5t#S256']);
      assert.equal(k.kty, 'RSA');
      assert.equal(k.use, 'sig');
      assert.equal(k.alg, 'RS256');
      assert.equal(k.e, 'AQAB');
      assert.match(k.kid, /^[A-Za-z0-9_-]{43}$/);
      const n = Buffer.from(k.n, 'base64url');
      assert.notEqual(n[0], 0, 'no leading zero octet (RFC 7518 6.3.1.1)');
      const bits = n.length * 8 - Math.clz32(n[0]!) + 24;
      assert.ok(bits >= 2048, `${k.kid}: modulus of ${bits} bits`);
      // The key imports as a public key only.
      const pub = createPublicKey({ key: { kty: 'RSA', n: k.n, e: k.e }, format: 'jwk' });
      assert.equal(pub.type, 'public');
      assert.equal(pub.asymmetricKeyDetails?.modulusLength, bits);
    }
  });

  it('gives each key one x5c certificate whose public key is n/e, and x5t = base64url SHA-1 of its DER', async () => {
    const { keys } = await jwks();
    for (const k of keys) {
      assert.equal(k.x5c.length, 1);
      assert.match(k.x5c[0]!, /^[A-Za-z0-9+/]+=*$/, 'x5c is standard base64 (RFC 7517 4.7), not base64url');
      const der = Buffer.from(k.x5c[0]!, 'base64');
      const cert = new X509Certificate(der);
      const certJwk = cert.publicKey.export({ format: 'jwk' }) as { n: string; e: string };
      assert.equal(certJwk.n, k.n, `${k.kid}: certificate modulus`);
      assert.equal(certJwk.e, k.e, `${k.kid}: certificate exponent`);
      assert.equal(k.x5t, createHash('sha1').update(der).digest('base64url'));
      assert.equal(k['x5t#S256'], createHash('sha256').update(der).digest('base64url'));
      assert.ok(cert.verify(cert.publicKey), 'self-signed by the key it certifies');
      assert.ok(new Date(cert.validTo).getTime() > ward.clock.now(), 'not expired');
      assert.ok(new Date(cert.validFrom).getTime() <= ward.clock.now(), 'already valid');
    }
  });

  it('narrows to one client with ?client_id= and answers an unknown client with a JSON 404', async () => {
    const all = (await jwks()).keys;
    const spaKeys = (await jwks('?client_id=spa')).keys;
    const globalKeys = (await jwks('?client_id=backend')).keys;
    assert.equal(spaKeys.length, 1, 'spa has its own key set');
    assert.equal(globalKeys.length, 2, 'backend uses the global set: current and retired');
    assert.deepEqual(new Set([...spaKeys, ...globalKeys].map((k) => k.kid)), new Set(all.map((k) => k.kid)));
    const unknown = await ward.fetch('/jwks.json?client_id=nope');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error_message_key: string }).error_message_key, 'error.client.notFound');
    const odd = await ward.fetch('/jwks.json?client_id=a&client_id=b');
    assert.equal(odd.status, 404);
  });

  it('publishes the kid that signs RS256 id tokens', async () => {
    const ward2 = await startSecurityWard();
    try {
      const { id_token } = await issueSpaTokens(ward2);
      const keys = ((await (await ward2.fetch('/jwks.json')).json()) as { keys: Jwk[] }).keys;
      assert.deepEqual(
        keys.map((k) => k.kid),
        [decodeProtectedHeader(id_token).kid],
      );
    } finally {
      await ward2.close();
    }
  });
});

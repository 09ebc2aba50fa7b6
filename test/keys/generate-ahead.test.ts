// keys/generate.ts `generateAhead`: a first start begins its global RS256 pair while the store is
// migrated (registry.ts). The pair begun is taken by one key only, of its own family and size; every
// other key gets a pair of its own; and each key is whole: its private part opens to the published
// public key, and its certificate holds that key.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateAhead, generateSigningKey, keyAad } from '../../src/keys/generate.js';
import { unseal } from '../../src/lib/secrets.js';
import type { SigningKeyRow } from '../../src/storage/sql/keys.js';

const masterKey = randomBytes(32);
const now = Date.now();

/** The key's public JWK, as its private part and its certificate each give it. */
function publicParts(k: SigningKeyRow) {
  const priv = createPrivateKey({
    key: unseal(masterKey, k.private_sealed, keyAad(k.kid)),
    format: 'der',
    type: 'pkcs8',
  });
  const cert = new X509Certificate(Buffer.from(k.cert_der, 'base64'));
  return {
    published: JSON.parse(k.public_jwk) as Record<string, string>,
    fromPrivate: createPublicKey(priv).export({ format: 'jwk' }) as Record<string, string>,
    fromCertificate: cert.publicKey.export({ format: 'jwk' }) as Record<string, string>,
    type: priv.asymmetricKeyType,
    bits: priv.asymmetricKeyDetails?.modulusLength,
  };
}

describe('a signing key begun ahead', () => {
  it('is taken once, by a key of its family and size; the others are generated as they are asked for', async () => {
    generateAhead();
    // Asked for first, of another family or size: neither takes the RSA 2048 pair.
    const ec = await generateSigningKey(masterKey, 'global', now, 'ES256');
    const rsa3072 = await generateSigningKey(masterKey, 'global', now, 'RS256', 3072);
    const first = await generateSigningKey(masterKey, 'global', now, 'RS256');
    const second = await generateSigningKey(masterKey, 'global', now, 'RS256');
    assert.equal(publicParts(ec).type, 'ec');
    assert.equal(publicParts(rsa3072).bits, 3072);
    assert.equal(publicParts(first).bits, 2048);
    assert.notEqual(first.kid, second.kid, 'the pair begun ahead serves one key');
    assert.equal(new Set([ec, rsa3072, first, second].map((k) => k.kid)).size, 4);
    for (const k of [ec, rsa3072, first, second]) {
      const p = publicParts(k);
      for (const [m, v] of Object.entries(p.published)) {
        assert.equal(p.fromPrivate[m], v, `${k.alg} ${m}: the sealed private key is the published one's`);
        assert.equal(p.fromCertificate[m], v, `${k.alg} ${m}: the certificate holds the published key`);
      }
    }
  });

  it('begins one pair at a time: a second call before it is taken changes nothing', async () => {
    generateAhead();
    generateAhead();
    const a = await generateSigningKey(masterKey, 'global', now);
    const b = await generateSigningKey(masterKey, 'global', now);
    assert.notEqual(a.kid, b.kid);
  });
});

// The self-signed certificates Ward makes (src/lib/self-signed.ts), read back by OpenSSL (node's
// X509Certificate: parse, signature, names, validity, host and address checks) and by @peculiar/x509
// (the key usage bits and which extensions are critical), for each key type Ward signs with.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import * as peculiar from '@peculiar/x509';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { selfSignedCertificate, serialNumberFrom } from '../../src/lib/self-signed.js';

const keys = {
  'RSA 2048': () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
  'EC P-256': () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
  Ed25519: () => generateKeyPairSync('ed25519').privateKey,
};
const notBefore = new Date('2026-01-01T00:00:00Z');
const notAfter = new Date('2036-01-01T00:00:00Z');

describe('a self-signed certificate', () => {
  for (const [type, make] of Object.entries(keys)) {
    it(`for an ${type} key holds its public key, is signed by it and says what it is for`, async () => {
      const privateKey = make();
      const serialNumber = Buffer.from('0badc0ffee', 'hex');
      const der = await selfSignedCertificate({
        privateKey,
        serialNumber,
        name: { CN: `Ward signing key ${type}` },
        notBefore,
        notAfter,
        usage: ['digitalSignature'],
      });
      const cert = new X509Certificate(der);
      assert.equal(cert.subject, `CN=Ward signing key ${type}`);
      assert.equal(cert.issuer, cert.subject);
      assert.equal(cert.serialNumber.toLowerCase(), '0badc0ffee');
      assert.equal(new Date(cert.validFrom).getTime(), notBefore.getTime());
      assert.equal(new Date(cert.validTo).getTime(), notAfter.getTime());
      assert.ok(cert.publicKey.equals(createPublicKey(privateKey)), 'the certificate holds the signing public key');
      assert.ok(cert.verify(cert.publicKey), 'signed by the key it certifies');
      assert.equal(cert.ca, false);
      const read = new peculiar.X509Certificate(new Uint8Array(der));
      assert.equal(read.getExtension(peculiar.KeyUsagesExtension)?.usages, peculiar.KeyUsageFlags.digitalSignature);
      assert.equal(read.getExtension(peculiar.KeyUsagesExtension)?.critical, true);
      assert.equal(read.getExtension(peculiar.BasicConstraintsExtension), null);
      assert.equal(read.getExtension(peculiar.SubjectAlternativeNameExtension), null);
    });
  }

  it('for TLS names its hosts and addresses, and is its own authority', async () => {
    const { cert: pem, key } = await makeDevCertificate(['ward.test', '10.1.2.3']);
    const cert = new X509Certificate(pem);
    assert.equal(cert.subject, 'CN=localhost\nO=Ward development certificate');
    assert.ok(cert.verify(cert.publicKey));
    assert.ok(cert.checkPrivateKey(createPrivateKey(key)), 'the key file is the certificate key');
    assert.equal(cert.checkHost('localhost'), 'localhost');
    assert.equal(cert.checkHost('ward.test'), 'ward.test');
    assert.equal(cert.checkHost('other.test'), undefined);
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(cert.checkIP('::1'), '::1');
    assert.equal(cert.checkIP('10.1.2.3'), undefined, 'an address is not taken for a DNS name');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'extended key usage: TLS server');
    assert.equal(cert.ca, true);
    const read = new peculiar.X509Certificate(pem);
    assert.equal(
      read.getExtension(peculiar.KeyUsagesExtension)?.usages,
      peculiar.KeyUsageFlags.digitalSignature | peculiar.KeyUsageFlags.keyCertSign,
    );
    assert.equal(read.getExtension(peculiar.BasicConstraintsExtension)?.critical, true);
    assert.equal(read.getExtension(peculiar.BasicConstraintsExtension)?.ca, true);
  });

  it('refuses a serial number DER would not write as given', async () => {
    const request = { privateKey: keys['EC P-256'](), name: { CN: 'x' }, notBefore, notAfter, usage: [] };
    for (const serial of ['', '00ff', '80', '01'.repeat(21)])
      await assert.rejects(
        selfSignedCertificate({ ...request, serialNumber: Buffer.from(serial, 'hex') }),
        /serial number/,
        serial,
      );
  });

  it('makes a serial number of any bytes positive and without a leading zero', () => {
    assert.deepEqual(serialNumberFrom(Buffer.from('ff01', 'hex')), Buffer.from('7f01', 'hex'));
    assert.deepEqual(serialNumberFrom(Buffer.from('8001', 'hex')), Buffer.from('0101', 'hex'));
    assert.deepEqual(serialNumberFrom(Buffer.from('0001', 'hex')), Buffer.from('0101', 'hex'));
    assert.deepEqual(serialNumberFrom(Buffer.from('2a01', 'hex')), Buffer.from('2a01', 'hex'));
  });
});

import { randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadX509 } from '../lib/x509.js';

/** The master key that seals private keys and client secrets: from config, else ./data/master.key (0600). */
export function loadMasterKey(dataDir: string, fromConfig: string | null): { key: Buffer; created: boolean } {
  if (fromConfig) return { key: Buffer.from(fromConfig, 'base64'), created: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} must hold the base64 of 32 bytes`);
    return { key, created: false };
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key, created: true };
}

export interface TlsMaterial {
  cert: string;
  key: string;
  generated: boolean;
}

/** A development certificate for localhost, 127.0.0.1 and ::1, made once in the data dir. */
export async function loadTls(
  dataDir: string,
  certPath: string | null,
  keyPath: string | null,
  hostnames: string[] = [],
): Promise<TlsMaterial> {
  if (certPath && keyPath)
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), generated: false };
  const dir = join(dataDir, 'tls');
  const certFile = join(dir, 'dev-cert.pem');
  const keyFile = join(dir, 'dev-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), generated: false };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { cert, key } = await makeDevCertificate(hostnames);
  writeFileSync(keyFile, key, { mode: 0o600 });
  writeFileSync(certFile, cert);
  return { cert, key, generated: true };
}

export async function makeDevCertificate(extraHosts: string[] = []): Promise<{ cert: string; key: string }> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const dns = ['localhost', ...extraHosts.filter((h) => !/^[\d.:]+$/.test(h))];
  const x509 = await loadX509();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '7'),
    name: 'CN=localhost, O=Ward development certificate',
    notBefore: new Date(Date.now() - 3600_000),
    notAfter: new Date(Date.now() + 825 * 24 * 3600_000),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...dns.map((value) => ({ type: 'dns' as const, value })),
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { cert: cert.toString('pem'), key };
}

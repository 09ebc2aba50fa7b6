import { generateKeyPair, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { selfSignedCertificate, serialNumberFrom } from '../lib/self-signed.js';

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
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
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
  const { privateKey } = await promisify(generateKeyPair)('ec', { namedCurve: 'P-256' });
  const dns = ['localhost', ...extraHosts.filter((h) => !/^[\d.:]+$/.test(h))];
  const der = await selfSignedCertificate({
    privateKey,
    serialNumber: serialNumberFrom(randomBytes(8)),
    name: { CN: 'localhost', O: 'Ward development certificate' },
    notBefore: new Date(Date.now() - 3600_000),
    notAfter: new Date(Date.now() + 825 * 24 * 3600_000),
    usage: ['digitalSignature', 'keyCertSign'],
    ca: true,
    server: { dns, ip: ['127.0.0.1', '::1'] },
  });
  // PEM from node:crypto (the key) and OpenSSL (the certificate, read back from its DER).
  return {
    cert: new X509Certificate(der).toString(),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import type { Clock } from '../lib/clock.js';
import { unseal } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';
import type { SigningKeyRow } from '../storage/sql/keys.js';
import { generateSigningKey, keyAad } from './generate.js';

export const GLOBAL_SET = 'global';
export const clientSet = (clientId: string): string => `client:${clientId}`;

interface LiveKey {
  row: SigningKeyRow;
  jwk: Record<string, unknown>;
  privateKey?: KeyObject;
}

export interface JwksView {
  body: string;
  etag: string;
}

/**
 * The signing keys in memory: the current key of each set, every live public key, and the JWK Sets
 * pre-serialised (rebuilt on each change, never per request).
 */
export class KeyStore {
  private keys = new Map<string, LiveKey>();
  private all: JwksView = { body: '{"keys":[]}', etag: '' };
  private perSet = new Map<string, JwksView>();

  constructor(
    private readonly storage: Storage,
    private readonly masterKey: Buffer,
    private readonly clock: Clock,
  ) {}

  /** Creates the global pair on first start. */
  async ensureGlobalKey(): Promise<void> {
    const existing = await this.storage.keys.listSet(GLOBAL_SET);
    if (!existing.some((k) => k.status === 'current')) {
      await this.storage.keys.insert(await generateSigningKey(this.masterKey, GLOBAL_SET, this.clock.now()));
    }
    await this.reload();
  }

  /** Re-reads the live keys from storage and rebuilds the pre-serialised views. */
  async reload(): Promise<void> {
    const rows = await this.storage.keys.listLive();
    const next = new Map<string, LiveKey>();
    for (const row of rows) {
      const prev = this.keys.get(row.kid);
      const pub = JSON.parse(row.public_jwk) as { n: string; e: string };
      const cert = Buffer.from(row.cert_der, 'base64');
      next.set(row.kid, {
        row,
        privateKey: prev?.privateKey,
        jwk: {
          kty: 'RSA',
          use: 'sig',
          alg: row.alg,
          kid: row.kid,
          n: pub.n,
          e: pub.e,
          x5c: [row.cert_der],
          x5t: createHash('sha1').update(cert).digest('base64url'),
          'x5t#S256': createHash('sha256').update(cert).digest('base64url'),
        },
      });
    }
    this.keys = next;
    this.all = view([...next.values()]);
    this.perSet = new Map();
    const sets = new Set([...next.values()].map((k) => k.row.key_set));
    for (const set of sets) this.perSet.set(set, view([...next.values()].filter((k) => k.row.key_set === set)));
  }

  /** The JWK Set of every live key. */
  jwks(): JwksView {
    return this.all;
  }

  /** The keys that can sign tokens of one key set (a client's own, or the global set). */
  jwksOfSet(keySet: string): JwksView {
    return this.perSet.get(keySet) ?? view([]);
  }

  /** The current signing key of a set, with its private key unsealed once and cached. */
  current(keySet: string): { kid: string; key: KeyObject } {
    let found: LiveKey | undefined;
    for (const k of this.keys.values()) if (k.row.key_set === keySet && k.row.status === 'current') found = k;
    if (!found) throw new Error(`no current signing key in set ${keySet}`);
    if (!found.privateKey) {
      const der = unseal(this.masterKey, found.row.private_sealed, keyAad(found.row.kid));
      found.privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    }
    return { kid: found.row.kid, key: found.privateKey };
  }

  /** The public JWK of a live key, or undefined (unknown or revoked kid). The kid is an opaque map key. */
  publicJwk(kid: string): Record<string, unknown> | undefined {
    return this.keys.get(kid)?.jwk;
  }
}

function view(keys: LiveKey[]): JwksView {
  const body = JSON.stringify({ keys: keys.map((k) => k.jwk) });
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import type { Clock } from '../lib/clock.js';
import { latestRead } from '../lib/latest-read.js';
import { unseal } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { SigningKeyRow } from '../storage/sql/keys.js';
import type { SigningAlg } from './families.js';
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
 * The signing keys in memory: the current key of each set and algorithm family, every published public key, and the JWK
 * Sets pre-serialised (rebuilt on each change, never per request). A retired (previous) key stays
 * published until every token it signed has expired: `graceMs` after its retirement, the longest
 * token lifetime. A revoked key is gone at once.
 */
export class KeyStore {
  private keys = new Map<string, LiveKey>();
  private all: JwksView = view([]);
  private perSet = new Map<string, JwksView>();
  /** When the next previous key leaves the JWKS (the views are rebuilt then). */
  private nextExpiry = Infinity;
  private rows: SigningKeyRow[] = [];
  /** Reads may overlap (a change notice and a key operation's own reload): the latest-started wins. */
  private readonly reader = latestRead(
    () => this.storage.keys.listLive(),
    (rows) => {
      this.rows = rows;
      this.rebuild();
    },
  );

  constructor(
    private readonly storage: Storage,
    private readonly masterKey: Buffer,
    private readonly clock: Clock,
    private readonly graceMs: () => number,
  ) {}

  /**
   * Creates the global key of each of these families that has none, then reloads: the RSA pair on
   * first start; an EC P-256 or Ed25519 pair when a client first uses ES256 or EdDSA (at start, when
   * a client is defined, or at its first signature). The insert bumps the `keys` version, so every
   * process publishes the new key; two processes racing: the loser keeps the winner's.
   */
  async ensureGlobalKeys(algs: readonly SigningAlg[] = ['RS256']): Promise<void> {
    const existing = await this.storage.keys.listSet(GLOBAL_SET);
    for (const alg of algs) {
      if (existing.some((k) => k.status === 'current' && k.alg === alg)) continue;
      const fresh = await generateSigningKey(this.masterKey, GLOBAL_SET, this.clock.now(), alg);
      try {
        await this.storage.transaction(async (tx) => {
          await tx.versions.bump('keys');
          await tx.keys.insert(fresh);
        });
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
      }
    }
    await this.reload();
  }

  /** Re-reads the keys from storage and rebuilds the pre-serialised views. */
  reload(): Promise<void> {
    return this.reader.reload();
  }

  private rebuild(): void {
    const now = this.clock.now();
    const grace = this.graceMs();
    const next = new Map<string, LiveKey>();
    let nextExpiry = Infinity;
    for (const row of this.rows) {
      if (row.status === 'previous') {
        const until = (row.retired_at ?? 0) + grace;
        if (until <= now) continue;
        nextExpiry = Math.min(nextExpiry, until);
      }
      const prev = this.keys.get(row.kid);
      next.set(row.kid, { row, privateKey: prev?.privateKey, jwk: prev?.jwk ?? publicJwk(row) });
    }
    this.keys = next;
    this.nextExpiry = nextExpiry;
    const published = [...next.values()];
    this.all = view(published);
    this.perSet = new Map();
    for (const set of new Set(published.map((k) => k.row.key_set)))
      this.perSet.set(set, view(published.filter((k) => k.row.key_set === set)));
  }

  private fresh(): void {
    if (this.clock.now() >= this.nextExpiry) this.rebuild();
  }

  /** The JWK Set of every published key. */
  jwks(): JwksView {
    this.fresh();
    return this.all;
  }

  /**
   * The published keys that can have signed a client's live tokens: a client-specific client's own
   * keys only (so none verifies another client's tokens); a client synced with the global pair, the
   * global keys plus its own retired keys still in their grace period (tokens they signed still live).
   */
  jwksOfClient(clientId: string, mode: 'global' | 'client', alg: string): JwksView {
    this.fresh();
    const own = clientSet(clientId);
    if (this.signingSet(clientId, mode, alg) === own) return this.perSet.get(own) ?? view([]);
    const retiredOwn = this.perSet.has(own);
    if (!retiredOwn) return this.perSet.get(GLOBAL_SET) ?? view([]);
    const cacheKey = `synced:${clientId}`;
    let v = this.perSet.get(cacheKey);
    if (!v) {
      v = view([...this.keys.values()].filter((k) => k.row.key_set === GLOBAL_SET || k.row.key_set === own));
      this.perSet.set(cacheKey, v);
    }
    return v;
  }

  private currentOf(keySet: string, alg: string): LiveKey | undefined {
    let found: LiveKey | undefined;
    for (const k of this.keys.values())
      if (k.row.key_set === keySet && k.row.alg === alg && k.row.status === 'current') found = k;
    return found;
  }

  /** Whether a set has a current key of this algorithm loaded (readiness). */
  hasCurrent(keySet: string, alg: SigningAlg): boolean {
    return this.currentOf(keySet, alg) !== undefined;
  }

  /**
   * The set a client's tokens of algorithm `alg` are signed with: its own set when it is
   * client-specific and its set holds a current key of that family, else the global set (a client
   * whose algorithm changed in the configuration file signs with the global key of the new family
   * until it is rotated; its JWKS view follows, through jwksOfClient).
   */
  signingSet(clientId: string, mode: 'global' | 'client', alg: string): string {
    const own = clientSet(clientId);
    return mode === 'client' && this.currentOf(own, alg) ? own : GLOBAL_SET;
  }

  /** The current signing key of a set and family, with its private key unsealed once and cached. */
  current(keySet: string, alg: SigningAlg = 'RS256'): { kid: string; key: KeyObject } {
    const found = this.currentOf(keySet, alg);
    if (!found) throw new Error(`no current ${alg} signing key in set ${keySet}`);
    if (!found.privateKey) {
      const der = unseal(this.masterKey, found.row.private_sealed, keyAad(found.row.kid));
      found.privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    }
    return { kid: found.row.kid, key: found.privateKey };
  }

  /**
   * A published key by kid, with its key set, or undefined (unknown, revoked, or past its grace).
   * The kid is only ever an exact key into this map.
   */
  published(kid: string): { keySet: string; jwk: Record<string, unknown> } | undefined {
    this.fresh();
    const k = typeof kid === 'string' && kid.length <= 128 ? this.keys.get(kid) : undefined;
    return k && { keySet: k.row.key_set, jwk: k.jwk };
  }
}

/** The published JWK: the stored public members (kty, n/e or crv/x/y), use, alg, kid and the certificate. */
function publicJwk(row: SigningKeyRow): Record<string, unknown> {
  const { kty, ...members } = JSON.parse(row.public_jwk) as Record<string, string>;
  const cert = Buffer.from(row.cert_der, 'base64');
  return {
    kty,
    use: 'sig',
    alg: row.alg,
    kid: row.kid,
    ...members,
    x5c: [row.cert_der],
    x5t: createHash('sha1').update(cert).digest('base64url'),
    'x5t#S256': createHash('sha256').update(cert).digest('base64url'),
  };
}

function view(keys: LiveKey[]): JwksView {
  const body = JSON.stringify({ keys: keys.map((k) => k.jwk) });
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

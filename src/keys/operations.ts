import type { Client } from '../clients/service.js';
import { WardError } from '../errors/ward-error.js';
import { notFound } from '../errors/refusals.js';
import type { Actor } from '../audit/record.js';
import { recordAudit } from '../audit/record.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import type { SigningKeyRow } from '../storage/sql/keys.js';
import { isSigningAlg, type SigningAlg } from './families.js';
import { generateSigningKey } from './generate.js';
import { GLOBAL_SET, clientSet, type KeyStore } from './key-store.js';

export interface KeyView {
  kid: string;
  key_set: string;
  alg: string;
  status: string;
  created_at: string;
  retired_at: string | null;
  revoked_at: string | null;
  public_jwk: Record<string, unknown>;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export function keyView(k: SigningKeyRow): KeyView {
  const { kty, ...members } = JSON.parse(k.public_jwk) as Record<string, string>;
  return {
    kid: k.kid,
    key_set: k.key_set,
    alg: k.alg,
    status: k.status,
    created_at: iso(k.created_at)!,
    retired_at: iso(k.retired_at),
    revoked_at: iso(k.revoked_at),
    public_jwk: { kty, use: 'sig', alg: k.alg, kid: k.kid, ...members },
  };
}

/**
 * The key-set transitions of the product specification, each one transaction (a crash leaves the
 * old state or the new one, never a client without a usable key): rotate the global pair, give a
 * client its own pair, sync it back to the global pair, revoke a key. Each applies per algorithm
 * family: the global set has a current key per family (rotating one leaves the others); a client's
 * own set has one current key, of the family of the client's jwt_algorithm. New pairs are generated before
 * the transaction so it stays short. Each transaction first bumps the `keys` version: that row lock
 * serialises key changes across processes on PostgreSQL (SQLite serialises writers anyway).
 */
export function createKeyOperations(deps: {
  storage: Storage;
  keys: KeyStore;
  masterKey: Buffer;
  clock: Clock;
  findClient: (id: string) => Promise<Client | undefined>;
  onClientsChanged: () => void;
}) {
  const { storage, keys, masterKey, clock } = deps;

  /** A client that signs with a key pair (RS256, ES256 or EdDSA), and that pair's algorithm. */
  async function keyPairClient(clientId: string): Promise<{ client: Client; alg: SigningAlg }> {
    const client = await deps.findClient(clientId);
    if (!client) throw notFound(`No client ${clientId.slice(0, 128)}`);
    const alg = client.jwt_algorithm;
    if (!isSigningAlg(alg)) throw new WardError('clientNotRs256');
    return { client, alg };
  }

  async function after(clientsChanged: boolean): Promise<void> {
    await keys.reload();
    if (clientsChanged) deps.onClientsChanged();
  }

  return {
    async listSet(keySet: string): Promise<KeyView[]> {
      return (await storage.keys.listSet(keySet)).map(keyView);
    },

    async clientKeys(clientId: string): Promise<{
      client_id: string;
      jwt_algorithm: string;
      state: 'synced_with_global' | 'client_specific';
      keys: KeyView[];
    }> {
      const client = await deps.findClient(clientId);
      if (!client) throw notFound(`No client ${clientId.slice(0, 128)}`);
      return {
        client_id: client.client_id,
        jwt_algorithm: client.jwt_algorithm,
        state: client.key_mode === 'client' ? 'client_specific' : 'synced_with_global',
        keys: (await storage.keys.listSet(clientSet(client.client_id))).map(keyView),
      };
    },

    /** A new global key of one family (RS256 unless told), the family's current one becoming previous. */
    async rotateGlobal(actor: Actor, alg: SigningAlg = 'RS256'): Promise<KeyView> {
      const now = clock.now();
      const fresh = await generateSigningKey(masterKey, GLOBAL_SET, now, alg);
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        await tx.keys.retireCurrent(GLOBAL_SET, now, alg);
        await tx.keys.insert(fresh);
        await recordAudit(tx, now, actor, 'key.rotated', 'site', 'success', { kid: fresh.kid });
      });
      await after(false);
      return keyView(fresh);
    },

    /** A new pair of the client's family in its own set (every current key of the set becomes previous). */
    async rotateClient(clientId: string, actor: Actor): Promise<KeyView> {
      const { client, alg } = await keyPairClient(clientId);
      const now = clock.now();
      const fresh = await generateSigningKey(masterKey, clientSet(client.client_id), now, alg);
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        await tx.keys.retireCurrent(clientSet(client.client_id), now);
        await tx.keys.insert(fresh);
        await tx.clients.setKeyMode(client.client_id, 'client', now);
        await tx.versions.bump('clients');
        await recordAudit(tx, now, actor, 'key.rotated', `client:${client.client_id}`, 'success', { kid: fresh.kid });
      });
      await after(true);
      return keyView(fresh);
    },

    async syncClient(clientId: string, actor: Actor): Promise<void> {
      const { client } = await keyPairClient(clientId);
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        // The client's pair stays published (previous) for the grace period, then leaves the JWKS.
        await tx.keys.retireCurrent(clientSet(client.client_id), now);
        await tx.clients.setKeyMode(client.client_id, 'global', now);
        await tx.versions.bump('clients');
        await recordAudit(tx, now, actor, 'key.synced', `client:${client.client_id}`, 'success');
      });
      await after(true);
    },

    /**
     * Revokes a key of a client's own set: gone from the JWKS at once and never used again. Revoking
     * the client's current key sends the client back to the global pair (it can always sign).
     */
    async revokeClientKey(clientId: string, kid: string, actor: Actor): Promise<void> {
      const client = await deps.findClient(clientId);
      if (!client) throw notFound(`No client ${clientId.slice(0, 128)}`);
      const key = kid.length <= 128 ? await storage.keys.find(kid) : undefined;
      if (!key || key.key_set !== clientSet(client.client_id)) throw notFound('This client has no key with this kid');
      if (key.status === 'revoked') throw new WardError('keyAlreadyRevoked');
      const now = clock.now();
      const wasCurrent = key.status === 'current';
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        await tx.keys.revoke(kid, now);
        if (wasCurrent) await tx.clients.setKeyMode(client.client_id, 'global', now);
        if (wasCurrent) await tx.versions.bump('clients');
        await recordAudit(tx, now, actor, 'key.revoked', `client:${client.client_id}`, 'success', {
          kid,
          was_current: wasCurrent,
        });
      });
      await after(wasCurrent);
    },

    /** Revokes a global key; revoking the current one puts a fresh global pair of its family in its place. */
    async revokeGlobalKey(kid: string, actor: Actor): Promise<void> {
      const key = kid.length <= 128 ? await storage.keys.find(kid) : undefined;
      if (!key || key.key_set !== GLOBAL_SET) throw notFound('No global key with this kid');
      if (key.status === 'revoked') throw new WardError('keyAlreadyRevoked');
      const now = clock.now();
      const fresh =
        key.status === 'current' && isSigningAlg(key.alg)
          ? await generateSigningKey(masterKey, GLOBAL_SET, now, key.alg)
          : null;
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        await tx.keys.revoke(kid, now);
        if (fresh) await tx.keys.insert(fresh);
        await recordAudit(tx, now, actor, 'key.revoked', 'site', 'success', { kid, replaced_by: fresh?.kid });
      });
      await after(false);
    },
  };
}

export type KeyOperations = ReturnType<typeof createKeyOperations>;

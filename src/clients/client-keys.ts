// A private_key_jwt client's public keys (RFC 7523, OpenID Connect Core 9 and 10.1.1): the JWK Set it
// registered (`jwks`), or the one at its `jwks_uri`, fetched through the guarded outbound client
// (lib/outbound/: no private address unless the operator allowed it, a 64 KiB and 5 s cap, no redirect
// followed) and kept for a while. A key id the kept set does not hold means the client rotated its
// keys: the set is fetched again, at most once per REFETCH_COOLDOWN_S per URL, so a stream of bad
// assertions cannot turn Ward into a fetcher of the client's site. jose's createRemoteJWKSet is not
// used because it would fetch around the guard.
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { ClientJwks } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ClientKeysDeps {
  outbound: Pick<Outbound, 'fetch'>;
  clock: Clock;
}

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5000;
/** A fetched set is used this long before it is asked again. */
const TTL_S = 600;
/** A set is fetched again for an unknown kid no sooner than this after the last fetch. */
const REFETCH_COOLDOWN_S = 30;
const MAX_CACHED = 1000;

/** Why a client's keys could not be had (told to the client as the reason of invalid_client). */
export class ClientKeysUnavailable extends Error {
  override name = 'ClientKeysUnavailable';
}

interface Kept {
  keys: JWTVerifyGetKey;
  fetchedAt: number;
}

export interface KeyedClient {
  client_id: string;
  jwks: ClientJwks | null;
  jwks_uri: string | null;
}

export function createClientKeys(deps: ClientKeysDeps) {
  const cache = new Map<string, Kept>();
  const pending = new Map<string, Promise<Kept>>();

  async function fetchSet(uri: string): Promise<Kept> {
    let res: Awaited<ReturnType<Outbound['fetch']>>;
    try {
      res = await deps.outbound.fetch(uri, {
        headers: { accept: 'application/jwk-set+json, application/json' },
        maxBytes: MAX_BYTES,
        timeoutMs: TIMEOUT_MS,
      });
    } catch (e) {
      throw new ClientKeysUnavailable(`its jwks_uri could not be fetched (${(e as Error).message})`);
    }
    if (res.status !== 200) throw new ClientKeysUnavailable(`its jwks_uri answered ${res.status}`);
    let set: unknown;
    try {
      set = JSON.parse(await res.text());
    } catch {
      throw new ClientKeysUnavailable('its jwks_uri did not answer JSON');
    }
    if (!Array.isArray((set as { keys?: unknown } | null)?.keys))
      throw new ClientKeysUnavailable('its jwks_uri did not answer a JWK Set');
    return { keys: createLocalJWKSet(set as JSONWebKeySet), fetchedAt: deps.clock.now() };
  }

  /** The set at a URL: the kept one unless it is stale or `again` (an unknown kid) and the cooldown passed. */
  function load(uri: string, again: boolean): Promise<Kept> {
    const now = deps.clock.now();
    const kept = cache.get(uri);
    if (kept) {
      const age = now - kept.fetchedAt;
      if (age < TTL_S * 1000 && (!again || age < REFETCH_COOLDOWN_S * 1000)) return Promise.resolve(kept);
    }
    // One fetch per URL at a time; whoever asks meanwhile waits for it.
    let loading = pending.get(uri);
    if (!loading) {
      loading = fetchSet(uri).then((fresh) => {
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(uri, fresh);
        return fresh;
      });
      loading.finally(() => pending.delete(uri)).catch(() => {});
      pending.set(uri, loading);
    }
    return loading;
  }

  return {
    /**
     * Runs `verify` with the client's keys; when the kept set of its jwks_uri has no key that
     * matches (rotated keys), runs it once more with the set fetched again. Throws
     * ClientKeysUnavailable when the client has no keys or they cannot be fetched.
     */
    async verifyWith<T>(client: KeyedClient, verify: (keys: JWTVerifyGetKey) => Promise<T>): Promise<T> {
      if (client.jwks) return verify(createLocalJWKSet(client.jwks as JSONWebKeySet));
      if (!client.jwks_uri) throw new ClientKeysUnavailable('it has no registered keys (jwks or jwks_uri)');
      const first = await load(client.jwks_uri, false);
      try {
        return await verify(first.keys);
      } catch (e) {
        if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
        const again = await load(client.jwks_uri, true);
        if (again === first) throw e;
        return verify(again.keys);
      }
    },
  };
}

export type ClientKeys = ReturnType<typeof createClientKeys>;

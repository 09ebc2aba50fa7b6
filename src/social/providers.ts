// The social providers of this Ward: from the config file (applied at each start) and the
// management API, kept in the store with the client secret sealed; each process holds one upstream
// client per provider and reloads when the `social` version moves.
import type { SocialProviderConfig } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { latestRead } from '../lib/latest-read.js';
import { seal, unseal } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';
import { createUpstream, type Upstream } from './upstream.js';

const aad = (name: string) => `social-provider:${name}`;

export function createSocialProviders(deps: {
  storage: Storage;
  masterKey: Buffer;
  clock: Clock;
  issuer: string;
  /** The guarded client every provider request goes through. */
  outbound: Pick<Outbound, 'fetch'>;
}) {
  let upstreams = new Map<string, Upstream>();
  const callback = (name: string) => `${deps.issuer}/identity/v1/oauth/callback/${name}`;

  /** Rebuilds the clients from the stored rows, keeping each one (and its caches) that did not change. */
  function apply(rows: Awaited<ReturnType<Storage['socialProviders']['list']>>): void {
    const next = new Map<string, Upstream>();
    for (const row of rows) {
      const def = JSON.parse(row.definition) as Omit<SocialProviderConfig, 'client_secret'>;
      const secret = unseal(deps.masterKey, row.secret_sealed, aad(row.name)).toString('utf8');
      const prev = upstreams.get(row.name);
      const same =
        prev &&
        JSON.stringify({ ...prev.provider, client_secret: undefined }) ===
          JSON.stringify({ ...def, client_secret: undefined }) &&
        prev.provider.client_secret === secret;
      next.set(
        row.name,
        same ? prev : createUpstream({ ...def, client_secret: secret }, callback(row.name), deps.clock, deps.outbound),
      );
    }
    upstreams = next;
  }
  // A change notice's reload and the management API's own may overlap: the latest-started wins.
  const { reload } = latestRead(() => deps.storage.socialProviders.list(), apply);

  return {
    reload,
    get: (name: string) => upstreams.get(name),
    list: () => [...upstreams.values()].map((u) => u.provider),
    /** Stores a validated provider (create or replace); the caller bumps the `social` version. */
    async save(p: SocialProviderConfig, source: 'config' | 'api'): Promise<void> {
      const { client_secret, ...def } = p;
      const now = deps.clock.now();
      const existing = await deps.storage.socialProviders.find(p.name);
      const unchanged =
        existing &&
        existing.definition === JSON.stringify(def) &&
        unseal(deps.masterKey, existing.secret_sealed, aad(p.name)).toString('utf8') === client_secret;
      if (unchanged) return;
      await deps.storage.socialProviders.upsert({
        name: p.name,
        definition: JSON.stringify(def),
        secret_sealed: seal(deps.masterKey, client_secret, aad(p.name)),
        source,
        created_at: existing?.created_at ?? now,
        updated_at: now,
      });
    },
  };
}

export type SocialProviders = ReturnType<typeof createSocialProviders>;

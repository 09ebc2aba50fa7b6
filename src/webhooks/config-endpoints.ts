// The config file's `webhooks`, applied at every start: each entry is the endpoint `cfg_<name>`,
// created or updated to match (a changed secret replaces the stored one; the previous one still signs
// for a day, the overlap of a rotation). An endpoint of the file no longer listed is disabled, kept
// with its deliveries (listed again, it is enabled). The management API refuses to change them.
import { seal, unseal } from '../lib/secrets.js';
import type { Repos } from '../storage/storage.js';
import { checkEvents, checkUrl, DEFAULT_OVERLAP_SECONDS, newEndpointRow } from './endpoints.js';

type EndpointRepos = Pick<Repos, 'webhookEndpoints' | 'versions'>;

export interface ConfigEndpoint {
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string;
  secret: string;
}

/** The id prefix of the endpoints the config file declares. */
export const CONFIG_PREFIX = 'cfg_';
export const isConfigEndpoint = (id: string): boolean => id.startsWith(CONFIG_PREFIX);

/** Applies the list; answers the ids created, updated and disabled. Bad url or events throw (the start stops). */
export async function applyConfigEndpoints(
  repos: EndpointRepos,
  masterKey: Buffer,
  now: number,
  list: readonly ConfigEndpoint[],
  allowPrivate: boolean,
): Promise<{ created: string[]; updated: string[]; disabled: string[] }> {
  const out = { created: [] as string[], updated: [] as string[], disabled: [] as string[] };
  for (const e of list) {
    const id = CONFIG_PREFIX + e.name;
    const aad = `webhook:${id}`;
    const fields = {
      url: checkUrl(e.url, allowPrivate),
      events: JSON.stringify(checkEvents(e.events)),
      description: e.description,
    };
    const row = await repos.webhookEndpoints.find(id);
    if (!row) {
      await repos.webhookEndpoints.insert(
        newEndpointRow(masterKey, now, id, e.secret, { ...fields, enabled: e.enabled ? 1 : 0 }),
      );
      out.created.push(id);
      continue;
    }
    const secretChanged = unseal(masterKey, row.secret_sealed, aad).toString('utf8') !== e.secret;
    // Ward's own disabling of a failing endpoint stands until the file's entry changes.
    const sameAsBefore =
      row.url === fields.url &&
      row.events === fields.events &&
      row.description === fields.description &&
      !secretChanged;
    const enabled = e.enabled ? (row.enabled === 0 && row.disabled_reason === 'failing' && sameAsBefore ? 0 : 1) : 0;
    if (sameAsBefore && enabled === row.enabled) continue;
    await repos.webhookEndpoints.update(id, {
      ...fields,
      enabled,
      ...(enabled === 1 ? { disabled_reason: null, disabled_at: null } : {}),
      ...(secretChanged
        ? {
            secret_sealed: seal(masterKey, e.secret, aad),
            previous_secret_sealed: row.secret_sealed,
            previous_secret_until: now + DEFAULT_OVERLAP_SECONDS * 1000,
          }
        : {}),
      updated_at: now,
    });
    out.updated.push(id);
  }
  const listed = new Set(list.map((e) => CONFIG_PREFIX + e.name));
  for (const row of await repos.webhookEndpoints.list())
    if (isConfigEndpoint(row.id) && !listed.has(row.id) && row.enabled === 1) {
      await repos.webhookEndpoints.update(row.id, {
        enabled: 0,
        disabled_reason: 'config',
        disabled_at: now,
        updated_at: now,
      });
      out.disabled.push(row.id);
    }
  if (out.created.length || out.updated.length || out.disabled.length) await repos.versions.bump('webhooks');
  return out;
}

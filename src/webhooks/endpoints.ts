// The webhook endpoints: their rules (https, or http to loopback only; known event types), their
// signing secrets (generated here, sealed with the master key, shown once) and rotation with an
// overlap during which the previous secret still signs. The functions take the repositories they
// write, so the management API runs them in the transaction that also writes the audit row.
import { isIP } from 'node:net';
import { WardError } from '../errors/ward-error.js';
import { addressPolicy, parseCidrList, PRIVATE_TARGET_CIDRS } from '../lib/outbound/ranges.js';
import { randomId } from '../lib/random.js';
import { seal, unseal } from '../lib/secrets.js';
import type { Repos } from '../storage/storage.js';
import type { WebhookEndpointRow } from '../storage/sql/webhook-endpoints.js';
import { isEventType } from './catalog.js';
import { newSigningSecret } from './signing.js';

// `versions`: each change bumps the `webhooks` counter, so every process's sender learns whether to poll.
type EndpointRepos = Pick<Repos, 'webhookEndpoints' | 'webhookDeliveries' | 'versions'>;

export interface EndpointInput {
  /** Checked with checkUrl (the account's allow_private_webhook_targets decides private addresses). */
  url: string;
  events: string[];
  enabled?: boolean;
  description?: string;
}

/** The default overlap of a rotation: a day, in which receivers move to the new secret. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 3600;

const invalid = (field: string, message: string) =>
  new WardError('invalidParameter', { description: message, details: [{ field, message, code: 'invalid' }] });

const isLoopback = (host: string): boolean => {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
};

/** Every refused range (lib/outbound/ranges.ts), and those left when private targets are allowed. */
const strict = addressPolicy([]);
const privateAllowed = addressPolicy(parseCidrList(PRIVATE_TARGET_CIDRS, () => {}));

/**
 * An endpoint URL: https, or http to a loopback address (a receiver on the same machine). A loopback
 * or private address (a literal IP, or localhost) only when the account's
 * `allow_private_webhook_targets` is set; a host name is checked again, resolved, at each send.
 */
export function checkUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', 'url must be an absolute URL');
  }
  if (url.username || url.password) throw invalid('url', 'url must not carry credentials');
  if (url.hash) throw invalid('url', 'url must not have a fragment');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const why = isLoopback(host) && !isIP(host) ? 'a loopback address' : isIP(host) ? strict.refusal(host) : null;
  if (why && !(allowPrivate && (!isIP(host) || privateAllowed.refusal(host) === null)))
    throw invalid(
      'url',
      allowPrivate
        ? `url must not point at ${why}`
        : `url must not point at ${why} (allow_private_webhook_targets is not set)`,
    );
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url.toString();
  throw invalid('url', 'url must use https (http only to a loopback address)');
}

/** A list of event types of the catalog, or ["*"] for all. */
export function checkEvents(events: readonly string[]): string[] {
  if (!events.length) throw invalid('events', 'events must name at least one event type, or "*"');
  const unknown = events.filter((e) => e !== '*' && !isEventType(e));
  if (unknown.length) throw invalid('events', `Unknown event types: ${unknown.join(', ')}`);
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

const aad = (id: string) => `webhook:${id}`;

/** An endpoint as the API shows it: never a secret. */
export function endpointView(row: WebhookEndpointRow, now: number) {
  return {
    id: row.id,
    /** `config`: declared in the config file (cfg_<name>), changed only there. */
    managed_by: row.id.startsWith('cfg_') ? 'config' : 'api',
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    description: row.description,
    previous_secret_expires_at:
      row.previous_secret_until !== null && row.previous_secret_until > now
        ? new Date(row.previous_secret_until).toISOString()
        : null,
    /** `failing` when Ward disabled it after a day of failures; null otherwise. */
    disabled_reason: row.enabled === 1 ? null : row.disabled_reason,
    disabled_at: row.enabled === 1 ? null : iso(row.disabled_at),
    consecutive_failures: row.consecutive_failures,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(masterKey: Buffer, row: WebhookEndpointRow, now: number): string[] {
  const out = [unseal(masterKey, row.secret_sealed, aad(row.id)).toString('utf8')];
  if (row.previous_secret_sealed && row.previous_secret_until !== null && row.previous_secret_until > now)
    out.push(unseal(masterKey, row.previous_secret_sealed, aad(row.id)).toString('utf8'));
  return out;
}

/** A new endpoint's row: its checked fields, its secret sealed, no delivery history yet. */
export function newEndpointRow(
  masterKey: Buffer,
  now: number,
  id: string,
  secret: string,
  fields: Pick<WebhookEndpointRow, 'url' | 'events' | 'enabled' | 'description'>,
): WebhookEndpointRow {
  return {
    id,
    ...fields,
    secret_sealed: seal(masterKey, secret, aad(id)),
    previous_secret_sealed: null,
    previous_secret_until: null,
    created_at: now,
    updated_at: now,
    consecutive_failures: 0,
    failing_since: null,
    last_success_at: null,
    last_failure_at: null,
    disabled_reason: null,
    disabled_at: null,
  };
}

export async function createEndpoint(
  repos: EndpointRepos,
  masterKey: Buffer,
  now: number,
  input: EndpointInput,
  allowPrivate: boolean,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const id = `ep_${randomId()}`;
  const secret = newSigningSecret();
  const row = newEndpointRow(masterKey, now, id, secret, {
    url: checkUrl(input.url, allowPrivate),
    events: JSON.stringify(checkEvents(input.events)),
    enabled: input.enabled === false ? 0 : 1,
    description: input.description ?? '',
  });
  await repos.webhookEndpoints.insert(row);
  await repos.versions.bump('webhooks');
  return { row, secret };
}

export async function updateEndpoint(
  repos: EndpointRepos,
  id: string,
  now: number,
  patch: Partial<EndpointInput>,
  allowPrivate: boolean,
): Promise<WebhookEndpointRow | undefined> {
  const set = {
    ...(patch.url !== undefined ? { url: checkUrl(patch.url, allowPrivate) } : {}),
    ...(patch.events !== undefined ? { events: JSON.stringify(checkEvents(patch.events)) } : {}),
    // Enabled again by an operator: Ward's own disabling and the failure streak are forgotten.
    ...(patch.enabled === true
      ? { enabled: 1, disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null }
      : patch.enabled === false
        ? { enabled: 0 }
        : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    updated_at: now,
  };
  if (!(await repos.webhookEndpoints.update(id, set))) return undefined;
  await repos.versions.bump('webhooks');
  return repos.webhookEndpoints.find(id);
}

/** An endpoint and its deliveries go. */
export async function removeEndpoint(repos: EndpointRepos, id: string): Promise<boolean> {
  await repos.webhookDeliveries.removeOfEndpoint(id);
  const removed = await repos.webhookEndpoints.remove(id);
  if (removed) await repos.versions.bump('webhooks');
  return removed;
}

/** A new secret; the current one keeps signing for `overlapSeconds` (0: stops at once). */
export async function rotateSecret(
  repos: EndpointRepos,
  masterKey: Buffer,
  id: string,
  now: number,
  overlapSeconds: number,
): Promise<{ row: WebhookEndpointRow; secret: string } | undefined> {
  const current = await repos.webhookEndpoints.find(id);
  if (!current) return undefined;
  const secret = newSigningSecret();
  await repos.webhookEndpoints.update(id, {
    secret_sealed: seal(masterKey, secret, aad(id)),
    previous_secret_sealed: overlapSeconds > 0 ? current.secret_sealed : null,
    previous_secret_until: overlapSeconds > 0 ? now + overlapSeconds * 1000 : null,
    updated_at: now,
  });
  const row = await repos.webhookEndpoints.find(id);
  return row && { row, secret };
}

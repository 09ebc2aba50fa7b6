// The blocking hooks a site registers: their rules (the URL as for webhook endpoints, a known event,
// a timeout of at most 10 s, a failure policy), their signing secret (generated here, sealed with the
// master key, shown once). The functions take the repositories they write, so the management API runs
// them in the transaction that also writes the audit row.
import { WardError } from '../errors/ward-error.js';
import { randomId } from '../lib/random.js';
import { seal, unseal } from '../lib/secrets.js';
import type { Repos } from '../storage/storage.js';
import type { HookRow } from '../storage/sql/hooks.js';
import { checkUrl } from '../webhooks/endpoints.js';
import { newSigningSecret } from '../webhooks/signing.js';
import { isHookEvent } from './events.js';

// `versions`: each change bumps the `hooks` counter, so every process's hook caller reads the list again.
type HookRepos = Pick<Repos, 'hooks' | 'hookCalls' | 'versions'>;

export const DEFAULT_TIMEOUT_MS = 2000;
export const MAX_TIMEOUT_MS = 10_000;
export const FAILURE_POLICIES = ['open', 'closed'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

export interface HookInput {
  url: string;
  event: string;
  timeout_ms?: number;
  failure_policy?: FailurePolicy;
  enabled?: boolean;
  description?: string;
}

const invalid = (field: string, message: string) =>
  new WardError('invalidParameter', { description: message, details: [{ field, message, code: 'invalid' }] });

function checkEvent(event: string): string {
  if (!isHookEvent(event)) throw invalid('event', 'event must be before.signup, before.login or before.token');
  return event;
}

function checkTimeout(ms: number): number {
  if (!Number.isInteger(ms) || ms < 100 || ms > MAX_TIMEOUT_MS)
    throw invalid('timeout_ms', `timeout_ms must be an integer from 100 to ${MAX_TIMEOUT_MS}`);
  return ms;
}

const aad = (id: string) => `hook:${id}`;

/** A hook as the API shows it: never its secret. */
export function hookView(row: HookRow) {
  return {
    id: row.id,
    url: row.url,
    event: row.event,
    timeout_ms: row.timeout_ms,
    failure_policy: row.failure_policy as FailurePolicy,
    enabled: row.enabled === 1,
    description: row.description,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The secret that signs a hook's calls. */
export const hookSecret = (masterKey: Buffer, row: HookRow): string =>
  unseal(masterKey, row.secret_sealed, aad(row.id)).toString('utf8');

export async function createHook(
  repos: HookRepos,
  masterKey: Buffer,
  now: number,
  input: HookInput,
  /** allow_private_webhook_targets: a loopback or private URL is refused unless it is set. */
  allowPrivate: boolean,
): Promise<{ row: HookRow; secret: string }> {
  const id = `hk_${randomId()}`;
  const secret = newSigningSecret();
  const row: HookRow = {
    id,
    url: checkUrl(input.url, allowPrivate),
    event: checkEvent(input.event),
    timeout_ms: checkTimeout(input.timeout_ms ?? DEFAULT_TIMEOUT_MS),
    failure_policy: input.failure_policy ?? 'closed',
    enabled: input.enabled === false ? 0 : 1,
    description: input.description ?? '',
    secret_sealed: seal(masterKey, secret, aad(id)),
    created_at: now,
    updated_at: now,
  };
  await repos.hooks.insert(row);
  await repos.versions.bump('hooks');
  return { row, secret };
}

export async function updateHook(
  repos: HookRepos,
  id: string,
  now: number,
  patch: Partial<HookInput>,
  allowPrivate: boolean,
): Promise<HookRow | undefined> {
  const set = {
    ...(patch.url !== undefined ? { url: checkUrl(patch.url, allowPrivate) } : {}),
    ...(patch.event !== undefined ? { event: checkEvent(patch.event) } : {}),
    ...(patch.timeout_ms !== undefined ? { timeout_ms: checkTimeout(patch.timeout_ms) } : {}),
    ...(patch.failure_policy !== undefined ? { failure_policy: patch.failure_policy } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    updated_at: now,
  };
  if (!(await repos.hooks.update(id, set))) return undefined;
  await repos.versions.bump('hooks');
  return repos.hooks.find(id);
}

/** A hook and the record of its calls go. */
export async function removeHook(repos: HookRepos, id: string): Promise<boolean> {
  await repos.hookCalls.removeOfHook(id);
  const removed = await repos.hooks.remove(id);
  if (removed) await repos.versions.bump('hooks');
  return removed;
}

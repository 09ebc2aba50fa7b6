// The outbox: audit rows -> webhook events -> one delivery per enabled endpoint that wants the type,
// written with the caller's repositories, so inside the transaction of the change they report (the
// management API's recordAudit, a security event's stage), or of the audit batch for the events
// without a change of their own (login.failed, login.succeeded). Nothing is written when no endpoint wants
// the event: a site without webhooks pays one small read per audited change.
import { userView } from '../accounts/user-view.js';
import { randomId } from '../lib/random.js';
import type { Repos } from '../storage/storage.js';
import type { AuditRow } from '../storage/sql/audit.js';
import type { WebhookDeliveryRow, WebhookEventRow } from '../storage/sql/webhook-deliveries.js';
import { carriesProfile, detailFieldsOf, subjectOf, TYPE_OF_ACTION, type WebhookEventType } from './catalog.js';

export type OutboxRepos = Pick<Repos, 'webhookEndpoints' | 'webhookDeliveries' | 'users'>;

export interface DerivedEvent {
  type: WebhookEventType;
  at: number;
  data: Record<string, unknown>;
}

const after = (target: string | null, prefix: string) =>
  target?.startsWith(prefix) ? target.slice(prefix.length) : undefined;

/** The webhook event an audit row stands for, or null (an action outside the catalog, a refusal). */
export function eventOfAudit(row: AuditRow): DerivedEvent | null {
  const type = TYPE_OF_ACTION.get(row.action);
  // login.failed is an event in itself; any other action counts only when it succeeded.
  if (!type || (row.outcome !== 'success' && type !== 'login.failed')) return null;
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(row.details) as Record<string, unknown>;
  } catch {
    // Details are written by Ward as JSON; an unreadable row still gives its ids.
  }
  const data: Record<string, unknown> = {};
  const subject = subjectOf(type);
  const user =
    after(row.target, 'user:') ?? (subject === 'user' && row.actor_type === 'user' ? row.actor_id : undefined);
  if (user && subject === 'user') data.user_id = user;
  const client = after(row.target, 'client:');
  if (client) data.client_id = client;
  for (const field of detailFieldsOf(type)) if (details[field] !== undefined) data[field] = details[field];
  return { type, at: row.at, data };
}

/** Whether an endpoint's `events` (a JSON list) takes a type. */
export function wants(events: string, type: string): boolean {
  try {
    const list = JSON.parse(events) as unknown;
    return Array.isArray(list) && (list.includes('*') || list.includes(type));
  } catch {
    return false;
  }
}

let counter = 0;
/**
 * A delivery's place in its endpoint's order: the time in milliseconds, times 1000, plus a counter of
 * this process, so the events of one transaction (and of one millisecond) keep their order.
 */
export function nextSeq(now: number): number {
  counter = (counter + 1) % 1000;
  return now * 1000 + counter;
}

const deliveryOf = (endpointId: string, eventId: string, now: number): WebhookDeliveryRow => ({
  id: `dlv_${randomId()}`,
  endpoint_id: endpointId,
  event_id: eventId,
  seq: nextSeq(now),
  status: 'pending',
  attempts: 0,
  next_attempt_at: now,
  last_error: null,
  created_at: now,
  finished_at: null,
});

/**
 * A user.* event's data with `user`: the user's management view, read with the caller's repositories
 * (so in the change's transaction, as the change left it). Without the row (erased), the ids only.
 */
async function withProfileOf(repos: OutboxRepos, e: DerivedEvent): Promise<Record<string, unknown>> {
  if (!carriesProfile(e.type) || typeof e.data.user_id !== 'string') return e.data;
  const user = await repos.users.findById(e.data.user_id);
  return user ? { ...e.data, user: userView(user) } : e.data;
}

/**
 * The outbox rows of some events for the enabled endpoints that want them, or for one endpoint
 * whatever it wants (`only`: a test event). Answers how many deliveries were written.
 */
export async function writeEvents(
  repos: OutboxRepos,
  events: DerivedEvent[],
  now: number,
  only?: string,
): Promise<number> {
  if (!events.length) return 0;
  const enabled = await repos.webhookEndpoints.enabled();
  const endpoints = only ? enabled.filter((ep) => ep.id === only).map((ep) => ({ ...ep, events: '["*"]' })) : enabled;
  if (!endpoints.length) return 0;
  const eventRows: WebhookEventRow[] = [];
  const deliveries: WebhookDeliveryRow[] = [];
  for (const e of events) {
    const targets = endpoints.filter((ep) => wants(ep.events, e.type));
    if (!targets.length) continue;
    const id = `evt_${randomId()}`;
    const data = await withProfileOf(repos, e);
    eventRows.push({ id, type: e.type, at: e.at, data: JSON.stringify(data) });
    for (const ep of targets) deliveries.push(deliveryOf(ep.id, id, now));
  }
  await repos.webhookDeliveries.enqueue(eventRows, deliveries);
  return deliveries.length;
}

/** The outbox rows of the webhook events some audit rows stand for. Answers how many deliveries. */
export function writeOutbox(repos: OutboxRepos, rows: readonly AuditRow[], now: number): Promise<number> {
  const events = rows.map(eventOfAudit).filter((e): e is DerivedEvent => e !== null);
  return writeEvents(repos, events, now);
}

/** A delivery sent again: a new delivery of the same event (same webhook-id), at the end of its endpoint's queue. */
export async function resend(repos: OutboxRepos, endpointId: string, eventId: string, now: number) {
  const row = deliveryOf(endpointId, eventId, now);
  await repos.webhookDeliveries.enqueue([], [row]);
  return row;
}

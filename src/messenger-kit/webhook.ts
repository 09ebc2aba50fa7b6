// Messenger webhook kit: createMessengerWebhook, the framework-agnostic core.
// handleVerification answers the GET handshake. handleEvent checks the signature over the raw bytes,
// splits an `object: "page"` delivery into its entry[].messaging[] items, writes them to the durable
// queue (synchronously) and only then answers 200; a worker processes the queue afterwards:
//   linked   -> exchange the code at Ward, verify the id_token, onLinked(profile, psid)
//   unlinked -> onUnlinked(psid);  anything else -> onMessage(event)
// A permanent failure (invalid_grant, a bad id_token, a nonce mismatch) is recorded, never retried;
// transient ones (network, timeout, 5xx, 429, a throwing callback) are retried with backoff up to
// maxAttempts. Items of one PSID run in arrival order; different PSIDs run concurrently.
// A delivery whose `object` is not "page" is ignored with 200 (a non-200 makes Meta retry and, in
// the end, unsubscribe the app); nothing of it is stored.
import { WardClient, LinkError } from './exchange.js';
import { DurableQueue, type QueueItem } from './queue.js';
import { signatureMatches, textResult, verifyHandshake } from './security.js';
import type { HandlerResult, HeadersLike, MessagingEvent, MessengerWebhook, MessengerWebhookOptions } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messaging items of a delivery, or a reason to refuse it with 400. */
function itemsOf(payload: Record<string, unknown>): Array<{ pageId: string; event: MessagingEvent }> | string {
  if (!Array.isArray(payload.entry)) return 'entry must be an array';
  const out: Array<{ pageId: string; event: MessagingEvent }> = [];
  for (const entry of payload.entry) {
    if (!isObject(entry)) return 'entry items must be objects';
    const messaging = entry.messaging ?? [];
    if (!Array.isArray(messaging)) return 'entry[].messaging must be an array';
    for (const event of messaging) {
      if (!isObject(event) || !isObject(event.sender) || typeof event.sender.id !== 'string' || !event.sender.id) {
        return 'each messaging item needs sender.id';
      }
      out.push({ pageId: String(entry.id ?? ''), event: event as unknown as MessagingEvent });
    }
  }
  return out;
}

export function createMessengerWebhook(options: MessengerWebhookOptions): MessengerWebhook {
  if (!options.appSecret) throw new Error('messenger-kit: appSecret is required');
  if (!options.verifyToken) throw new Error('messenger-kit: verifyToken is required');
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const retentionMs = options.retentionMs ?? 7 * 24 * 3600 * 1000;
  const log = options.log ?? ((m: string) => console.error(m));
  const ward = new WardClient(options.ward, {
    now,
    timeoutMs: options.exchangeTimeoutMs ?? 10_000,
    jwksCooldownMs: options.jwksCooldownMs ?? 5000,
  });
  const queue = new DurableQueue(options.queuePath, now);

  const busy = new Map<string, Promise<void>>(); // psid -> in-flight item
  const stop = new AbortController();
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let idleWaiters: Array<() => void> = [];

  async function runItem(item: QueueItem): Promise<void> {
    queue.markAttempt(item.id);
    const attempts = item.attempts + 1;
    try {
      if (item.kind === 'linked') {
        let result = item.result;
        if (!result) {
          const code = item.event.account_linking?.authorization_code;
          if (typeof code !== 'string' || !code) throw new LinkError('linked event without authorization_code', true);
          const nonce = options.nonceFor ? ((await options.nonceFor(item.psid)) ?? null) : undefined;
          result = await ward.link(code, stop.signal, nonce);
          // The code is spent now: keep the verified profile so a failing onLinked is retried alone.
          queue.saveResult(item.id, result);
        }
        await options.onLinked(result.profile, item.psid, { claims: result.claims, event: item.event });
      } else if (item.kind === 'unlinked') {
        await options.onUnlinked?.(item.psid, item.event);
      } else {
        await options.onMessage?.(item.event);
      }
      queue.finish(item);
    } catch (e) {
      if (closed || stop.signal.aborted) return; // stays pending: resumed at the next start
      const permanent = e instanceof LinkError && e.permanent;
      const message = e instanceof Error ? e.message : String(e);
      if (permanent || attempts >= maxAttempts) {
        queue.fail(item, message);
        log(`messenger-kit: ${item.kind} event for PSID ${item.psid} failed: ${message}`);
        try {
          await options.onLinkFailed?.({ psid: item.psid, kind: item.kind, error: message, attempts });
        } catch (err) {
          log(`messenger-kit: onLinkFailed threw: ${(err as Error).message}`);
        }
      } else {
        queue.retryLater(item.id, now() + Math.min(60_000, retryBaseMs * 2 ** (attempts - 1)), message);
      }
    }
  }

  /** Starts every item due now (within the concurrency), then arms a timer for the next one. */
  function pump(): void {
    if (!started || closed) return;
    const items = queue.due(concurrency - busy.size, new Set(busy.keys()));
    for (const item of items) {
      const run = runItem(item)
        .catch((e) => log(`messenger-kit: ${(e as Error).message}`))
        .finally(() => {
          busy.delete(item.psid);
          pump();
        });
      busy.set(item.psid, run);
    }
    if (timer) clearTimeout(timer);
    timer = null;
    if (busy.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((w) => w());
    }
    const next = queue.nextRetryAt();
    if (next !== null) {
      timer = setTimeout(pump, Math.max(1, Math.min(next - now(), 60_000)));
      timer.unref();
    }
  }

  const webhook: MessengerWebhook = {
    handleVerification(query) {
      return verifyHandshake(query, options.verifyToken);
    },

    handleEvent(rawBody: Buffer, headers: HeadersLike): HandlerResult {
      if (!Buffer.isBuffer(rawBody)) return textResult(500, 'the raw body (a Buffer) is required');
      if (rawBody.length > maxBodyBytes) return textResult(413, 'Payload Too Large');
      if (!signatureMatches(rawBody, headers, options.appSecret)) return textResult(403, 'Forbidden');
      if (closed) return textResult(503, 'Service Unavailable');
      let payload: unknown;
      try {
        payload = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return textResult(400, 'invalid JSON');
      }
      if (!isObject(payload)) return textResult(400, 'invalid payload');
      if (payload.object !== 'page') return textResult(200, 'IGNORED');
      const items = itemsOf(payload);
      if (typeof items === 'string') return textResult(400, items);
      try {
        queue.enqueue(items);
      } catch (e) {
        log(`messenger-kit: enqueue failed: ${(e as Error).message}`);
        return textResult(500, 'Internal Server Error'); // not stored: Meta will redeliver
      }
      setImmediate(pump);
      return textResult(200, 'EVENT_RECEIVED');
    },

    start() {
      if (started || closed) return;
      started = true;
      queue.purge(retentionMs);
      pump();
    },

    async drain() {
      if (!started) throw new Error('messenger-kit: drain() before start()');
      for (;;) {
        pump();
        if (busy.size === 0) return;
        await new Promise<void>((resolve) => idleWaiters.push(resolve));
      }
    },

    stats: () => queue.stats(),
    failures: () => queue.failures(),

    async close() {
      if (closed) return;
      closed = true;
      stop.abort();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...busy.values()]);
      queue.close();
    },
  };
  if (options.autoStart !== false) webhook.start();
  return webhook;
}

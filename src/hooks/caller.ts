// Calls the enabled hooks of an event, one after the other, and waits for each: POSTs the signed
// envelope {id, type, timestamp, data} (Standard Webhooks headers, as webhook deliveries are signed)
// through the guarded client within the hook's timeout, reads its answer (answer.ts) and records the
// call (outcome, status, latency, first kilobyte of the answer). A denial ends the event with the
// hook's message; a timeout, an error or a malformed answer apply the hook's failure policy: `open`
// goes on as if the hook had allowed (changing nothing), `closed` refuses (`hookUnavailable`).
import type { Logger } from 'pino';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { randomId } from '../lib/random.js';
import type { Storage } from '../storage/storage.js';
import type { HookRow } from '../storage/sql/hooks.js';
import { nextSeq } from '../webhooks/outbox.js';
import { signedHeaders } from '../webhooks/signing.js';
import { MalformedAnswer, readAnswer, type HookAnswer } from './answer.js';
import { HookDenied } from './denied.js';
import type { HookEvent } from './events.js';
import { hookSecret } from './hooks.js';

const EXCERPT_BYTES = 1024;
/** An answer larger than this is refused (a malformed answer). */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface HookCallerDeps {
  storage: Pick<Storage, 'hooks' | 'hookCalls'>;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  masterKey: Buffer;
  /** The guarded client (lib/outbound/), as webhook delivery uses. */
  outbound: Pick<Outbound, 'fetch'>;
}

/** What the allowing hooks of one event changed, merged in their order. */
export interface Allowed {
  custom_fields: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/**
 * Checks what an allowing answer asks for (a signup's custom fields against the account's rules):
 * throws to refuse it, which counts as a malformed answer.
 */
export type AnswerCheck = (answer: Extract<HookAnswer, { decision: 'allow' }>) => void;

export function createHookCaller(deps: HookCallerDeps) {
  const { storage, clock, log } = deps;
  // The enabled hooks of each event (read on every signup and token), kept until a change: this
  // process's management API forgets them at once, and the change poller when the `hooks` counter
  // moves (any process or the CLI: every change bumps it in its transaction), within 250 ms.
  const cached = new Map<HookEvent, Promise<HookRow[]>>();

  function enabledFor(event: HookEvent): Promise<HookRow[]> {
    let hooks = cached.get(event);
    if (!hooks) {
      hooks = storage.hooks.enabledFor(event);
      cached.set(event, hooks);
      // A failed read is not kept: the next call reads again.
      hooks.catch(() => cached.get(event) === hooks && cached.delete(event));
    }
    return hooks;
  }

  async function callOne(hook: HookRow, event: HookEvent, data: unknown, check?: AnswerCheck): Promise<HookAnswer> {
    const id = `call_${randomId()}`;
    const at = clock.now();
    const body = JSON.stringify({ id, type: event, timestamp: new Date(at).toISOString(), data });
    const started = performance.now();
    let status: number | null = null;
    let response = '';
    let answer: HookAnswer | undefined;
    let problem: string | null = null;
    try {
      const res = await deps.outbound.fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Ward-Hooks',
          ...signedHeaders([hookSecret(deps.masterKey, hook)], id, at, body),
        },
        body,
        timeoutMs: hook.timeout_ms,
        maxBytes: MAX_ANSWER_BYTES,
      });
      status = res.status;
      const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
      response = Buffer.from(text).subarray(0, EXCERPT_BYTES).toString('utf8');
      if (status < 200 || status >= 300) throw new MalformedAnswer(`HTTP ${status}`);
      const read = readAnswer(event, text);
      if (read.decision === 'allow') check?.(read);
      answer = read;
    } catch (e) {
      problem =
        e instanceof MalformedAnswer || e instanceof WardError
          ? `malformed answer: ${e instanceof WardError ? e.description : e.message}`
          : e instanceof Error
            ? `${e.name}: ${(e.cause as Error | undefined)?.message ?? e.message}`
            : String(e);
    }
    const outcome = answer
      ? answer.decision === 'allow'
        ? 'allowed'
        : 'denied'
      : hook.failure_policy === 'open'
        ? 'failed_open'
        : 'failed_closed';
    const latency = Math.round(performance.now() - started);
    await storage.hookCalls.record({
      id,
      hook_id: hook.id,
      event,
      at,
      seq: nextSeq(at),
      outcome,
      status,
      latency_ms: latency,
      error: problem,
      response,
    });
    const fields = { event: 'hook.call', hook_id: hook.id, hook_event: event, call_id: id, outcome, status, latency };
    if (problem) log.warn({ ...fields, problem }, 'hook failed');
    else log.info(fields, 'hook answered');
    if (answer) return answer;
    if (hook.failure_policy === 'open') return { decision: 'allow' };
    throw new WardError('hookUnavailable');
  }

  return {
    /**
     * Runs the enabled hooks of `event` in order with `data` as the context: what they allowed, merged,
     * or a throw (HookDenied: a hook refused; hookUnavailable: a closed hook failed).
     */
    async run(event: HookEvent, data: unknown, check?: AnswerCheck): Promise<Allowed> {
      const out: Allowed = { custom_fields: {}, claims: {} };
      const hooks = await enabledFor(event);
      for (const hook of hooks) {
        const answer = await callOne(hook, event, data, check);
        if (answer.decision === 'deny') throw new HookDenied(answer.message_key, answer.message);
        Object.assign(out.custom_fields, answer.custom_fields);
        Object.assign(out.claims, answer.claims);
      }
      return out;
    },
    /** Whether an enabled hook of `event` exists (so a caller skips building its context when none does). */
    async has(event: HookEvent): Promise<boolean> {
      return (await enabledFor(event)).length > 0;
    },
    /** Forgets the cached hook lists (after a change through the management API). */
    invalidate(): void {
      cached.clear();
    },
  };
}

export type HookCaller = ReturnType<typeof createHookCaller>;

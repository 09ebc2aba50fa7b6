// A scripted flow is a list of HTTP steps over one context. The same definition runs once through
// fetch (setup and a smoke check before each load) and as an autocannon request chain, where each
// connection loops over the steps; a flow counts only when every step answered as expected.
import { normHeaders, send, type Req, type Res } from './http.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Ctx = Record<string, any>;

export interface Step {
  name: string;
  build(ctx: Ctx): Req | null;
  expect: number[];
  /** Reads what the next steps need; false fails the flow. */
  after?(res: Res, ctx: Ctx): boolean;
}

export interface Flow {
  name: string;
  steps: Step[];
  /** Takes what the flow needs (a user, a refresh token); false: nothing free (counted as starved). */
  begin?(ctx: Ctx): boolean;
  end?(ctx: Ctx, ok: boolean): void;
}

export interface FlowStats {
  flows: number;
  latencies: number[];
  failures: Record<string, number>;
  starved: number;
}

export const newStats = (): FlowStats => ({ flows: 0, latencies: [], failures: {}, starved: 0 });

/** Runs a flow once; throws with the step, status and body on the first unexpected answer. */
export async function runOnce(base: string, flow: Flow, ctx: Ctx = {}): Promise<Ctx> {
  if (flow.begin && !flow.begin(ctx)) throw new Error(`${flow.name}: nothing free to run with`);
  for (const step of flow.steps) {
    const req = step.build(ctx);
    if (!req) throw new Error(`${flow.name}/${step.name}: could not build the request`);
    const t0 = performance.now();
    const res = await send(base, req);
    ctx.lastMs = performance.now() - t0;
    if (!step.expect.includes(res.status) || (step.after && !step.after(res, ctx))) {
      flow.end?.(ctx, false);
      throw new Error(
        `${flow.name}/${step.name}: ${req.method} ${req.path.slice(0, 80)} answered ${res.status} after ${ctx.lastMs.toFixed(0)} ms ${String(res.headers.location ?? '')} ${res.body.slice(0, 300)}`,
      );
    }
  }
  flow.end?.(ctx, true);
  return ctx;
}

const STARVED: Req = { method: 'GET', path: '/__bench_starved', headers: {} };

/** The flow as autocannon `requests`: per-flow latency and failures are recorded in `stats`. */
export function toAutocannon(flow: Flow, stats: FlowStats): object[] {
  const last = flow.steps.length - 1;
  const fail = (ctx: Ctx, key: string) => {
    ctx.failed = true;
    stats.failures[key] = (stats.failures[key] ?? 0) + 1;
    flow.end?.(ctx, false);
  };
  return flow.steps.map((step, i) => ({
    setupRequest(defaults: Ctx, ctx: Ctx) {
      let req: Req | null = null;
      if (i === 0) {
        for (const k of Object.keys(ctx)) delete ctx[k];
        ctx.t0 = performance.now();
        if (flow.begin && !flow.begin(ctx)) {
          stats.starved++;
          ctx.failed = true;
          ctx.starved = true;
          req = STARVED;
        } else {
          req = step.build(ctx);
          // The first request of a chain must exist: send a harmless one and drop the flow.
          if (!req) {
            fail(ctx, `${step.name}:build`);
            req = STARVED;
          }
        }
      } else {
        if (ctx.failed) return null;
        req = step.build(ctx);
        if (!req) {
          fail(ctx, `${step.name}:build`);
          return null;
        }
      }
      // A copy of the headers: autocannon writes Content-Length into the object it is given.
      return { ...defaults, method: req.method, path: req.path, headers: { ...req.headers }, body: req.body ?? '' };
    },
    onResponse(status: number, body: string, ctx: Ctx, headers: Record<string, unknown>) {
      if (ctx.failed) return;
      const res: Res = { status, body, headers: normHeaders(headers ?? {}) };
      if (!step.expect.includes(status)) return fail(ctx, `${step.name}:${status}`);
      if (step.after && !step.after(res, ctx)) return fail(ctx, `${step.name}:content`);
      if (i === last) {
        stats.flows++;
        if (stats.latencies.length < 500_000) stats.latencies.push(performance.now() - ctx.t0);
        flow.end?.(ctx, true);
      }
    },
  }));
}

/** Values handed out to one flow at a time (users, refresh tokens). */
export class Pool<T> {
  free: T[];
  busy = new Set<T>();
  constructor(items: T[] = []) {
    this.free = [...items];
  }
  reset(items: T[]): void {
    this.free = [...items];
    this.busy.clear();
  }
  acquire(): T | undefined {
    const t = this.free.shift();
    if (t !== undefined) this.busy.add(t);
    return t;
  }
  release(t: T): void {
    if (this.busy.delete(t)) this.free.push(t);
  }
  drop(t: T): void {
    this.busy.delete(t);
  }
  /** After a run: what was in flight when the load stopped goes back (reusable) or is dropped. */
  settle(reusable: boolean): void {
    if (reusable) this.free.push(...this.busy);
    this.busy.clear();
  }
}

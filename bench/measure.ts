// One scenario on one server: a smoke check (one flow through fetch, failing loudly) and a measured
// run (autocannon through load.ts), each between the scenario's beforeRun and settle hooks. Shared by
// the main run (run.ts) and the scale run (scale.ts).
import { runOnce } from './flow.js';
import { send } from './http.js';
import { run, type RunResult } from './load.js';
import type { Child } from './proc.js';
import type { Prepared } from './scenarios.js';

export async function smokeCheck(url: string, p: Prepared): Promise<void> {
  await p.beforeRun?.();
  if (p.plan.kind === 'flow') await runOnce(url, p.plan.flow);
  else {
    const r = await send(url, p.plan.req);
    if (r.status !== p.plan.expect) throw new Error(`${p.plan.req.path}: ${r.status} ${r.body.slice(0, 200)}`);
  }
  p.settle?.();
}

export async function measureRun(
  child: Child,
  p: Prepared,
  opts: { seconds: number; connections: number; profileFile?: string },
): Promise<RunResult> {
  await p.beforeRun?.();
  const r = await run(child, p.plan, opts);
  p.settle?.();
  return r;
}

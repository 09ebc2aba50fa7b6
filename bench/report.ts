// The table of a run (Markdown, pasted as is into bench/README.md) from the per-round results:
// medians over rounds, the ratio to the peer as the median of per-round ratios, and the ratio to
// the ceiling model of performance.md.
import type { Ceilings } from './ceilings.js';
import type { RunResult } from './load.js';
import { median } from './load.js';
import type { Scenario } from './scenarios.js';

export interface ScenarioResult {
  engine: string;
  scenario: Scenario;
  ward: RunResult[];
  peer: RunResult[];
}

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const sum = (rs: RunResult[]) => {
  const out: Record<string, number> = {};
  for (const r of rs) for (const [k, v] of Object.entries(r.failures)) out[k] = (out[k] ?? 0) + v;
  const good = rs.reduce((a, r) => a + r.good, 0);
  const text = Object.entries(out)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  return text ? `${text} (${good} ok)` : '';
};

export function row(r: RunResult[]) {
  return {
    rate: median(r.map((x) => x.rate)),
    p50: median(r.map((x) => x.p50)),
    p99: median(r.map((x) => x.p99)),
    cpu: median(r.map((x) => x.cpuMsPerUnit)),
    perCore: median(r.map((x) => x.perCoreSecond)),
    rss: Math.max(...r.map((x) => x.peakRssMB)),
    elu: median(r.map((x) => x.elu)),
    other: median(r.map((x) => x.otherCores)),
  };
}

export function table(results: ScenarioResult[], c: Ceilings): string {
  const head =
    '| engine | id | scenario | server | rate | p50 ms | p99 ms | CPU ms/unit | units/core-s | peak RSS MB | loop busy | other load | vs peer | vs model (value) | goal | failures |';
  const lines = [head, '|' + '---|'.repeat(16)];
  for (const s of results) {
    const model = s.scenario.model(c);
    for (const side of ['ward', 'peer'] as const) {
      const runs = s[side];
      if (!runs.length) continue;
      const x = row(runs);
      const ratios = s.peer.length ? s.ward.map((w, i) => w.rate / (s.peer[i]?.rate || NaN)) : [];
      const vsPeer = side === 'ward' && ratios.length ? `${f(median(ratios), 2)}x` : '';
      const vsModel =
        side === 'ward'
          ? `${f(x.rate / model.value, 2)} (${model.label} ${f(model.value)})`
          : `${f(x.rate / model.value, 2)}`;
      lines.push(
        `| ${s.engine} | ${s.scenario.id} | ${s.scenario.title} | ${side === 'ward' ? 'Ward' : 'oidc-provider'} | ${f(x.rate)} ${s.scenario.unit} | ${f(x.p50, 1)} | ${f(x.p99, 1)} | ${f(x.cpu, 3)} | ${f(x.perCore)} | ${f(x.rss)} | ${f(100 * x.elu)}% | ${f(x.other, 1)} | ${vsPeer} | ${vsModel} | ${side === 'ward' ? s.scenario.goal : ''} | ${sum(runs)} |`,
      );
    }
  }
  return lines.join('\n');
}

export function ceilingsTable(c: Ceilings): string {
  return [
    '| id | what | measured |',
    '|---|---|---|',
    `| L1 | RS256 signatures/s, node:crypto: 1 thread / 64 in flight (libuv pool) | ${f(c.L1_1)} / ${f(c.L1_2)} |`,
    `| L2 | HS256 JWT/s with createHmac | ${f(c.L2)} |`,
    `| L3 | argon2id verify/s m=19456 t=2 p=1 (@node-rs/argon2): 1 / 2 in flight | ${f(c.L3_1)} / ${f(c.L3_2)} |`,
    `| L4a | node:http GET, pre-serialised 1.2 KB (autocannon, same connections) | ${f(c.L4a)} |`,
    `| L4b | node:http form POST → 1.2 KB JSON | ${f(c.L4b)} |`,
  ].join('\n');
}

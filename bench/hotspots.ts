// `node --import tsx bench/hotspots.ts <file.cpuprofile> [--callers fnA,fnB]`: the full hot-spot
// lists of a profile written by `npm run bench -- --profile`, and, for the named functions, the
// nearest module frames that lead to them (share of the busy samples), to see who pays for a hot
// spot. Frames stop at an await: SQL run from Kysely shows its driver, not the Ward caller.
import { readFileSync } from 'node:fs';
import { hotSpots, moduleOf } from './profile.js';

interface Node {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [file, flag, names] = process.argv.slice(2);
if (!file) throw new Error('usage: hotspots.ts <file.cpuprofile> [--callers fnA,fnB]');
const h = hotSpots(file, 30);
console.log(`${file}: ${h.samples} busy samples`);
for (const s of h.self) console.log(`  self ${s.pct.toFixed(1).padStart(5)}%  ${s.fn}`);
for (const s of h.inclusive) console.log(`  incl ${s.pct.toFixed(1).padStart(5)}%  ${s.module}`);

if (flag === '--callers' && names) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const busy = p.samples.filter((id) => byId.get(id)!.callFrame.functionName !== '(idle)').length;
  for (const name of names.split(',')) {
    const chains = new Map<string, number>();
    for (const id of p.samples) {
      const n = byId.get(id)!;
      if (n.callFrame.functionName !== name) continue;
      const frames: string[] = [];
      for (
        let cur = n.parent === undefined ? undefined : byId.get(n.parent);
        cur && frames.length < 4;
        cur = cur.parent === undefined ? undefined : byId.get(cur.parent)
      ) {
        const m = moduleOf(cur.callFrame.url);
        if (m && !m.startsWith('node:'))
          frames.push(`${cur.callFrame.functionName || '(anonymous)'} ${m}:${cur.callFrame.lineNumber + 1}`);
      }
      const key = frames.join(' < ') || '(no module frame)';
      chains.set(key, (chains.get(key) ?? 0) + 1);
    }
    console.log(`\n${name}: nearest callers (Ward modules and packages)`);
    for (const [k, v] of [...chains.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`  ${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`);
  }
}

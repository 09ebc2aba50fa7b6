// Reads a V8 .cpuprofile (written by bench/hook.mjs during an extra, unmeasured run) and names the
// hot spots: self time per function, and inclusive time per Ward module or package (a sample counts
// once for every module on its stack).
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface HotSpots {
  samples: number;
  self: Array<{ fn: string; pct: number }>;
  inclusive: Array<{ module: string; pct: number }>;
}

export function moduleOf(url: string): string | null {
  if (!url) return null;
  const w = /\/bench\/\.build\/(?:refs\/\w+\/)?ward\//.exec(url); // the work tree's build or a commit's
  if (w) return `ward:${url.slice(w.index + w[0].length)}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:'))
    return url
      .replace(/^node:(internal\/)?/, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  return null;
}

// Every async continuation runs under these: they say nothing about where the time goes.
const GENERIC = new Set([
  'node:process/task_queues',
  'node:timers',
  'node:events',
  'node:streams/readable',
  'node:streams/writable',
]);

const where = (n: Node) => {
  const m = moduleOf(n.callFrame.url);
  return `${n.callFrame.functionName || '(anonymous)'} ${m ? `${m}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};

export function hotSpots(file: string, top = 12): HotSpots {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map<number, Node>();
  for (const n of p.nodes) byId.set(n.id, n);
  for (const n of p.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (const id of p.samples) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    total++;
    const key = where(n);
    self.set(key, (self.get(key) ?? 0) + 1);
    const seen = new Set<string>();
    for (let cur: Node | undefined = n; cur; cur = cur.parent === undefined ? undefined : byId.get(cur.parent)) {
      const m = moduleOf(cur.callFrame.url);
      if (m) seen.add(m);
    }
    for (const m of seen) if (!GENERIC.has(m)) incl.set(m, (incl.get(m) ?? 0) + 1);
  }
  const rank = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    samples: total,
    self: rank(self).map(([fn, n]) => ({ fn, pct: (100 * n) / Math.max(1, total) })),
    inclusive: rank(incl).map(([module, n]) => ({ module, pct: (100 * n) / Math.max(1, total) })),
  };
}

export function formatHotSpots(id: string, h: HotSpots): string {
  const lines = [
    `${id}: ${h.samples} busy samples (0.5 ms)`,
    '  self:      ' +
      h.self
        .slice(0, 8)
        .map((s) => `${s.fn} ${s.pct.toFixed(1)}%`)
        .join(' | '),
  ];
  lines.push(
    '  inclusive: ' +
      h.inclusive
        .slice(0, 10)
        .map((s) => `${s.module} ${s.pct.toFixed(0)}%`)
        .join(' | '),
  );
  return lines.join('\n');
}

// A small in-process metrics store with Prometheus text exposition (format 0.0.4): counters and
// histograms keyed by their label set. Kept lean on purpose: one Map lookup and a few additions per
// observation on the request path. A snapshot is plain JSON so the workers of `ward start --workers N`
// can send theirs to the primary, which sums them (mergeSnapshots) into one exposition.

export type Labels = Record<string, string>;

interface HistogramSeries {
  counts: number[];
  sum: number;
  count: number;
}

export interface Snapshot {
  counters: Record<string, { help: string; values: Record<string, number> }>;
  gauges: Record<string, { help: string; values: Record<string, number> }>;
  histograms: Record<string, { help: string; buckets: number[]; values: Record<string, HistogramSeries> }>;
}

/** `a="x",b="y"` with the exposition format's escapes; the series key and the printed label set. */
export function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  let out = '';
  for (const k of Object.keys(labels).sort()) {
    const v = labels[k]!.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
    out += `${out ? ',' : ''}${k}="${v}"`;
  }
  return out;
}

export class Counter {
  readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels?: Labels, by = 1): void {
    this.incKey(labelKey(labels), by);
  }
  /** For hot paths that already hold the label key. */
  incKey(key: string, by = 1): void {
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
}

export class Histogram {
  readonly values = new Map<string, HistogramSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observeKey(key: string, value: number): void {
    let s = this.values.get(key);
    if (!s) this.values.set(key, (s = { counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 }));
    // Non-cumulative counts per bucket here; render() accumulates.
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    if (i < this.buckets.length) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }
}

export class MetricsRegistry {
  private readonly counters: Counter[] = [];
  private readonly histograms: Histogram[] = [];
  private readonly gauges: Array<{ name: string; help: string; read: () => Record<string, number> }> = [];

  counter(name: string, help: string): Counter {
    const c = new Counter(name, help);
    this.counters.push(c);
    return c;
  }
  histogram(name: string, help: string, buckets: number[]): Histogram {
    const h = new Histogram(
      name,
      help,
      [...buckets].sort((a, b) => a - b),
    );
    this.histograms.push(h);
    return h;
  }
  /** A value read when the metrics are collected (memory, uptime): summed across workers. */
  gauge(name: string, help: string, read: () => Record<string, number>): void {
    this.gauges.push({ name, help, read });
  }

  snapshot(): Snapshot {
    const out: Snapshot = { counters: {}, gauges: {}, histograms: {} };
    for (const c of this.counters) out.counters[c.name] = { help: c.help, values: Object.fromEntries(c.values) };
    for (const g of this.gauges) out.gauges[g.name] = { help: g.help, values: g.read() };
    for (const h of this.histograms) {
      const values: Record<string, HistogramSeries> = {};
      for (const [k, s] of h.values) values[k] = { counts: [...s.counts], sum: s.sum, count: s.count };
      out.histograms[h.name] = { help: h.help, buckets: h.buckets, values };
    }
    return out;
  }
}

function addValues(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** The sum of several processes' snapshots (counters, gauges and histogram buckets add up). */
export function mergeSnapshots(list: Snapshot[]): Snapshot {
  const out: Snapshot = { counters: {}, gauges: {}, histograms: {} };
  for (const s of list) {
    for (const [name, c] of Object.entries(s.counters))
      addValues((out.counters[name] ??= { help: c.help, values: {} }).values, c.values);
    for (const [name, g] of Object.entries(s.gauges))
      addValues((out.gauges[name] ??= { help: g.help, values: {} }).values, g.values);
    for (const [name, h] of Object.entries(s.histograms)) {
      const target = (out.histograms[name] ??= { help: h.help, buckets: h.buckets, values: {} });
      for (const [k, series] of Object.entries(h.values)) {
        const t = (target.values[k] ??= { counts: new Array<number>(h.buckets.length).fill(0), sum: 0, count: 0 });
        series.counts.forEach((n, i) => (t.counts[i]! += n));
        t.sum += series.sum;
        t.count += series.count;
      }
    }
  }
  return out;
}

const series = (name: string, key: string, extra = '') => {
  const labels = key && extra ? `${key},${extra}` : key || extra;
  return labels ? `${name}{${labels}}` : name;
};

/** Prometheus text exposition of a snapshot. */
export function renderSnapshot(s: Snapshot): string {
  const lines: string[] = [];
  for (const [name, c] of Object.entries(s.counters)) {
    lines.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
    for (const [k, v] of Object.entries(c.values)) lines.push(`${series(name, k)} ${v}`);
  }
  for (const [name, g] of Object.entries(s.gauges)) {
    lines.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`);
    for (const [k, v] of Object.entries(g.values)) lines.push(`${series(name, k)} ${v}`);
  }
  for (const [name, h] of Object.entries(s.histograms)) {
    lines.push(`# HELP ${name} ${h.help}`, `# TYPE ${name} histogram`);
    for (const [k, v] of Object.entries(h.values)) {
      let cumulative = 0;
      h.buckets.forEach((le, i) => {
        cumulative += v.counts[i]!;
        lines.push(`${series(`${name}_bucket`, k, `le="${le}"`)} ${cumulative}`);
      });
      lines.push(`${series(`${name}_bucket`, k, 'le="+Inf"')} ${v.count}`);
      lines.push(`${series(`${name}_sum`, k)} ${v.sum}`, `${series(`${name}_count`, k)} ${v.count}`);
    }
  }
  return lines.join('\n') + '\n';
}

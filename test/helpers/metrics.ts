/** A series `name{a="x",b="y"}` as its name and label set (the exposition format's escapes undone). */
function parseSeries(series: string): { name: string; labels: Map<string, string> } | null {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?$/.exec(series);
  if (!m) return null;
  const labels = new Map<string, string>();
  for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
    labels.set(l[1]!, l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1'));
  return { name: m[1]!, labels };
}

const sameSeries = (a: ReturnType<typeof parseSeries>, b: ReturnType<typeof parseSeries>) =>
  !!a &&
  !!b &&
  a.name === b.name &&
  a.labels.size === b.labels.size &&
  [...a.labels].every(([k, v]) => b.labels.get(k) === v);

/** The value of one series in a Prometheus exposition, whatever the order of its labels (0 when absent). */
export function metricValue(text: string, series: string): number {
  const wanted = parseSeries(series);
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    if (sameSeries(parseSeries(line.slice(0, space)), wanted)) return Number(line.slice(space + 1));
  }
  return 0;
}

/** Every series of a metric family in an exposition, with its labels and value. */
export function seriesOf(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const s = parseSeries(line.slice(0, space));
    if (s?.name === name) out.push({ labels: Object.fromEntries(s.labels), value: Number(line.slice(space + 1)) });
  }
  return out;
}

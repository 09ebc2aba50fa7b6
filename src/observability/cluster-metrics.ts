// Metrics of a `ward start --workers N` cluster: a scrape reaches one worker (the port is shared), so
// that worker asks the primary, which asks every worker for its snapshot over the cluster's IPC
// channel and sends back their sum. A single process answers with its own snapshot.
import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { mergeSnapshots, type Snapshot } from './metrics.js';

const GATHER = 'ward:metrics:gather';
const GATHERED = 'ward:metrics:gathered';
const COLLECT = 'ward:metrics:collect';
const SNAPSHOT = 'ward:metrics:snapshot';
const WAIT_MS = 1500;

interface Message {
  type: string;
  id: string;
  snapshot?: Snapshot;
}
const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as Message).type === 'string' &&
  typeof (m as Message).id === 'string';

/** In a worker: answers the primary's collection requests with this process's snapshot. */
export function answerClusterCollection(local: () => Snapshot): () => void {
  if (!cluster.isWorker) return () => {};
  const onMessage = (m: unknown) => {
    if (isMessage(m) && m.type === COLLECT) process.send?.({ type: SNAPSHOT, id: m.id, snapshot: local() });
  };
  process.on('message', onMessage);
  return () => process.off('message', onMessage);
}

/** The metrics to expose: the whole cluster's when this is a worker, else this process's. */
export function gatherMetrics(local: () => Snapshot): Promise<Snapshot> {
  if (!cluster.isWorker || !process.send) return Promise.resolve(local());
  const id = randomUUID();
  return new Promise((resolve) => {
    const done = (s: Snapshot) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(s);
    };
    // A primary that does not answer (being replaced, overloaded): this worker's own figures.
    const timer = setTimeout(() => done(local()), WAIT_MS + 500);
    const onMessage = (m: unknown) => {
      if (isMessage(m) && m.type === GATHERED && m.id === id && m.snapshot) done(m.snapshot);
    };
    process.on('message', onMessage);
    process.send!({ type: GATHER, id });
  });
}

/** In the primary: serves the workers' gather requests by collecting from all of them. */
export function serveClusterMetrics(): void {
  const pending = new Map<string, { snapshots: Snapshot[]; expected: number; finish: () => void }>();
  cluster.on('message', (worker: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    if (m.type === SNAPSHOT && m.snapshot) {
      const p = pending.get(m.id);
      if (p) {
        p.snapshots.push(m.snapshot);
        if (p.snapshots.length >= p.expected) p.finish();
      }
      return;
    }
    if (m.type !== GATHER) return;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    const collectId = randomUUID();
    const entry = {
      snapshots: [] as Snapshot[],
      expected: workers.length,
      finish: () => {
        clearTimeout(timer);
        pending.delete(collectId);
        if (worker.isConnected()) worker.send({ type: GATHERED, id: m.id, snapshot: mergeSnapshots(entry.snapshots) });
      },
    };
    const timer = setTimeout(entry.finish, WAIT_MS);
    pending.set(collectId, entry);
    for (const w of workers) w.send({ type: COLLECT, id: collectId });
  });
}

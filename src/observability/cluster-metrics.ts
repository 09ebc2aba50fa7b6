// Metrics of a `ward start --workers N` cluster: a scrape reaches one worker (the port is shared), so
// that worker asks the primary, whose prom-client AggregatorRegistry asks every worker for its
// registries over the cluster's IPC channel and aggregates them (counters and histograms summed,
// the rest as each metric's `aggregator` says). A single process answers with its own metrics.
import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

const GATHER = 'ward:metrics:gather';
const GATHERED = 'ward:metrics:gathered';
/** prom-client's own wait for the workers is 5 s; past that a worker answers with its own figures. */
const WAIT_MS = 6000;

interface Message {
  type: string;
  id: string;
  text?: string;
}
const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' &&
  m !== null &&
  typeof (m as Message).type === 'string' &&
  typeof (m as Message).id === 'string';

/** In a worker: the registries the primary's collection requests get (prom-client answers them). */
export function answerClusterCollection(registries: Registry[]): () => void {
  if (!cluster.isWorker) return () => {};
  AggregatorRegistry.setRegistries(registries);
  // Constructing one installs prom-client's listener of the primary's requests (once per process).
  new AggregatorRegistry();
  return () => AggregatorRegistry.setRegistries([]);
}

/** The Prometheus text to expose: the whole cluster's when this is a worker, else this process's. */
export function gatherMetrics(local: () => Promise<string>): Promise<string> {
  if (!cluster.isWorker || !process.send) return local();
  const id = randomUUID();
  return new Promise((resolve) => {
    const done = (text: string | Promise<string>) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(text);
    };
    // A primary that does not answer (being replaced, overloaded): this worker's own figures.
    const timer = setTimeout(() => done(local()), WAIT_MS);
    const onMessage = (m: unknown) => {
      if (isMessage(m) && m.type === GATHERED && m.id === id) done(typeof m.text === 'string' ? m.text : local());
    };
    process.on('message', onMessage);
    process.send!({ type: GATHER, id });
  });
}

/** In the primary: serves the workers' gather requests with the aggregate of every worker's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, m: unknown) => {
    if (!isMessage(m) || m.type !== GATHER) return;
    const answer = (text?: string) => {
      if (worker.isConnected()) worker.send({ type: GATHERED, id: m.id, ...(text === undefined ? {} : { text }) });
    };
    // A worker that did not answer in time: the asking worker falls back to its own figures.
    aggregator.clusterMetrics().then(answer, () => answer());
  });
}

// The sending loop of a durable queue (back-channel logout tokens, webhook deliveries): each process
// polls the queue every `intervalMs`, and at once after a kick; a pass claims due rows (the storage
// leases them), tries them together, and claims again while a full batch came back. Stopping aborts
// what is in flight (the attempt sees `signal`) and waits for the pass, so a shutdown never waits for
// a slow receiver: the attempt hands its row back. A queue that knows it has nothing to send (no
// webhook endpoint) pauses the timer's polls with `paused`.

export interface QueueLoopOptions<T> {
  /** Claims up to `batch` due rows (leased to this process). */
  claim(batch: number): Promise<T[]>;
  /** Tries one row; `signal` aborts when the loop stops. An error it throws is passed to `failed`. */
  attempt(row: T, signal: AbortSignal): Promise<void>;
  /** A claim or an attempt threw (logged by the caller; the row's lease brings it back). */
  failed(e: unknown, row?: T): void;
  batch: number;
  intervalMs: number;
  /** While it answers true the timer does not poll (a kick or tick still runs a pass). */
  paused?: () => boolean;
}

export function startQueueLoop<T>(opts: QueueLoopOptions<T>) {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      if (stopping.signal.aborted) return;
      let rows: T[];
      try {
        rows = await opts.claim(opts.batch);
      } catch (e) {
        opts.failed(e);
        return;
      }
      await Promise.all(
        rows.map((row) => opts.attempt(row, stopping.signal).catch((e: unknown) => opts.failed(e, row))),
      );
      if (rows.length === opts.batch) again = true;
    } while (again);
  }

  /** Runs a pass now (or right after the one running). Resolves when the queue's due rows were tried. */
  function tick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    if (!opts.paused?.()) void tick();
  }, opts.intervalMs);
  timer.unref();
  return {
    tick,
    kick: () => void tick(),
    /** Stops the loop; what is in flight is aborted and handed back. Resolves once it has. */
    async stop(): Promise<void> {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}

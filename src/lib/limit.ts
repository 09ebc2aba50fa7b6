/**
 * At most `max` of the tasks given to `run` at once; the others wait their turn, first come first
 * served. For work that is bound by the cores and holds memory while it runs (argon2: 19 MiB per
 * hash): running more at once than there are cores only adds memory and latency, and leaves fewer
 * libuv threads for everything else (RS256 signatures, files).
 */
export function concurrencyLimit(max: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < max) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    /** Tasks running now, and waiting. */
    stats: () => ({ running, waiting: waiting.length }),
  };
}

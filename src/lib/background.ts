/**
 * Work that leaves the request (a message, a notice): started at once, never awaited by the answer,
 * every failure reported to `onError` (the work logs its own details); `drain()` waits for what is
 * still on its way (shutdown, tests).
 */
export function createBackground(onError: (e: unknown) => void) {
  const inFlight = new Set<Promise<void>>();
  return {
    run(work: () => Promise<unknown>): void {
      const p: Promise<void> = Promise.resolve()
        .then(work)
        .then(
          () => undefined,
          (e) => onError(e),
        )
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async drain(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}

export type Background = ReturnType<typeof createBackground>;

/**
 * Schedules work to start once the answer of the current request has been handed to the network
 * (http/after-answer.ts), so nothing of it (a lookup, a write, a message) counts in the answer's time.
 */
export type AfterAnswer = (work: () => Promise<unknown>) => void;

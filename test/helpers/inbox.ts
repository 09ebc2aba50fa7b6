// A list of received messages that a test can wait on: next(to) resolves with the oldest message to
// that address not yet taken by an earlier next(), at once if it is already there, or when it
// arrives; it rejects after timeoutMs so a test that waits for a message that never comes fails.
export interface Inbox<T extends { to: string }> {
  messages: T[];
  add(message: T): void;
  next(to: string, timeoutMs?: number): Promise<T>;
}

export function createInbox<T extends { to: string }>(what: string): Inbox<T> {
  const messages: T[] = [];
  const taken = new Set<T>();
  const waiters: { to: string; resolve: (m: T) => void }[] = [];
  const matches = (m: T, to: string): boolean => m.to.toLowerCase() === to.toLowerCase();

  return {
    messages,
    add(message) {
      messages.push(message);
      const i = waiters.findIndex((w) => matches(message, w.to));
      if (i >= 0) {
        taken.add(message);
        waiters.splice(i, 1)[0].resolve(message);
      }
    },
    next(to, timeoutMs = 5000) {
      const ready = messages.find((m) => !taken.has(m) && matches(m, to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise<T>((resolve, reject) => {
        const waiter = {
          to,
          resolve: (m: T) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${what} to ${to} within ${timeoutMs} ms (received: ${messages.length})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}

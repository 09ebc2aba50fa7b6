/**
 * A value kept in memory and re-read from storage, where reads may overlap: a change notice's reload
 * and the writer's own reload after its commit. A read applies only if no read started after it has
 * applied already, so a slow read begun before a commit never puts back what the commit replaced.
 * `set` applies a value known to be current (the writer's own, after its commit) the same way.
 */
export function latestRead<T>(read: () => Promise<T>, apply: (value: T) => void) {
  let started = 0;
  let applied = 0;
  return {
    async reload(): Promise<void> {
      const mine = ++started;
      const value = await read();
      if (mine < applied) return;
      applied = mine;
      apply(value);
    },
    set(value: T): void {
      applied = ++started;
      apply(value);
    },
  };
}

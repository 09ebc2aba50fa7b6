// V8 heap settings for a Ward server process, given on the node command line (`npm start`) and to
// every `--workers` process. Measured with `npm run bench` (bench/README.md, "Ninth session"): under
// load the young generation grows to two 16 MB semi-spaces and the old generation to about twice
// what is live before a full collection; with these two, peak RSS in B3-B9 is 13-16 MB lower (under
// 150 MB but with argon2 hashes in flight) for up to 5% more CPU per request, 5-10% per step-up flow.
// - A semi-space of 8 MB: the young generation commits 16 MB instead of 32.
// - The old generation may grow by 30% over what the last full collection kept, not up to 4x.

export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=30'];

/** `execArgv` with each server flag added unless the operator set that option already (theirs wins). */
export function withServerNodeFlags(execArgv: readonly string[]): string[] {
  const named = (flag: string) => flag.split('=')[0]!.replace(/_/g, '-');
  const given = new Set(execArgv.map(named));
  return [...execArgv, ...SERVER_NODE_FLAGS.filter((f) => !given.has(named(f)))];
}

// Speed-up `heap_flags` (docs/performance.md; plain path: V8's default heap sizing).
// V8 heap settings for a Ward server process. Measured with `npm run bench` (docs/performance.md,
// run C; the first measurement is in `git log -p bench/README.md`): under load the young generation
// grows to two 16 MB semi-spaces and the old generation to about twice what is live before a full
// collection; with these two, peak RSS in B3-B9 is 13-16 MB lower (under 150 MB but with argon2
// hashes in flight) for up to 5% more CPU per request, 5-10% per step-up flow.
// - A semi-space of 8 MB: the young generation commits 16 MB instead of 32. V8 sizes it when the
//   process starts, so it is a command-line flag: `npm start` gives it, and so does `--workers` to
//   each worker.
// - The old generation may grow by 30% over what the last full collection kept, not up to 4x. V8
//   reads this one whenever it sets the next limit, so every server process sets it itself.
import { setFlagsFromString } from 'node:v8';

export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
const RUNTIME_HEAP_FLAG = '--heap-growing-percent=30';

const optionOf = (flag: string) => flag.split('=')[0]!.replace(/_/g, '-');
const optionsIn = (execArgv: readonly string[]) => new Set(execArgv.map(optionOf));

/** `execArgv` with each server flag added unless the operator set that option already (theirs wins). */
export function withServerNodeFlags(execArgv: readonly string[]): string[] {
  const given = optionsIn(execArgv);
  return [...execArgv, ...SERVER_NODE_FLAGS.filter((f) => !given.has(optionOf(f)))];
}

/** Sets the old generation's growth in this process, unless its command line set it. */
export function applyRuntimeHeapSetting(execArgv: readonly string[] = process.execArgv): void {
  if (!optionsIn(execArgv).has(optionOf(RUNTIME_HEAP_FLAG))) setFlagsFromString(RUNTIME_HEAP_FLAG);
}

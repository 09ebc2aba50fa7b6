// Speed-up `heap_flags` (docs/performance.md; plain path: V8's default heap sizing and glibc's
// default malloc arenas). V8 heap settings for a Ward server process, and one for its C library.
// Measured with `npm run bench` (docs/performance.md, run C and "Peak RSS"; the first measurement is
// in `git log -p bench/README.md`): under load the young generation grows to two 16 MB semi-spaces
// and the old generation to about twice what is live before a full collection; with the two flags,
// peak RSS in B1-B5 stays near 150 MB for up to 5% more CPU per request, 5-10% per step-up flow.
// - A semi-space of 8 MB: the young generation commits 16 MB instead of 32.
// - The old generation may grow by 30% over what the last full collection kept, not up to 4x.
// Both are command-line flags: `npm start` gives them, and so does `--workers` to each worker. V8 sizes
// the young generation when the process starts; the growth it also reads later, but set at run time
// it does not undo a limit set before (test/scale/server-node-flags.test.ts: the old space of a process
// that set it after its heap had grown peaked at twice that of one started with it), so a process
// started without the flags sets it itself as soon as it has read its settings: the best it can do.
// - glibc's malloc gives threads arenas of their own, up to eight per core, and keeps what a thread
//   freed in its arena after the thread ends (the password estimator's, libuv's, V8's helpers): two
//   arenas, the main one and one the other threads share, kept peak RSS in B1-B5 12-20 MB lower
//   at the same rate. glibc reads it when the process starts, so it is an environment variable that
//   `npm start`, the Dockerfile and `--workers` set (the operator's own value wins).
import { setFlagsFromString } from 'node:v8';

const GROWTH_FLAG = '--heap-growing-percent=30';
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', GROWTH_FLAG];

const optionOf = (flag: string) => flag.split('=')[0]!.replace(/_/g, '-');
const optionsIn = (execArgv: readonly string[]) => new Set(execArgv.map(optionOf));

/** `execArgv` with each server flag added unless the operator set that option already (theirs wins). */
export function withServerNodeFlags(execArgv: readonly string[]): string[] {
  const given = optionsIn(execArgv);
  return [...execArgv, ...SERVER_NODE_FLAGS.filter((f) => !given.has(optionOf(f)))];
}

/** Sets the old generation's growth in this process, unless its command line set it. */
export function applyRuntimeHeapSetting(execArgv: readonly string[] = process.execArgv): void {
  if (!optionsIn(execArgv).has(optionOf(GROWTH_FLAG))) setFlagsFromString(GROWTH_FLAG);
}

/** The environment a server process starts with: glibc's malloc arenas bounded. */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The server variables `env` does not set already (an operator's own value wins). */
export function missingServerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(SERVER_ENV).filter(([name]) => env[name] === undefined));
}

// zxcvbn on a worker thread of its own. Its estimator, once built, is ~30 MB of live heap (the
// common, English and French dictionaries and their ranked maps): on the server's main thread every
// full collection walked it (a JWK Set request cost 25% more CPU once the first password had been
// checked, docs/performance.md), and each check held the event loop for tens of milliseconds. The
// thread starts at the first check (or just before, when one is known to come: `warm`), does not keep
// the process alive, and is stopped once no check has come for a while (about 70 MB of RSS given
// back, docs/performance.md); the next check starts another.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** The settings of the estimator (password-policy.ts says why). */
export interface EstimatorSettings {
  maxLength: number;
  l33tMaxSubstitutions: number;
}

/** zxcvbn's packages, by the name the estimator gives each. */
const PACKAGES = {
  core: '@zxcvbn-ts/core',
  common: '@zxcvbn-ts/language-common',
  en: '@zxcvbn-ts/language-en',
  fr: '@zxcvbn-ts/language-fr',
} as const;
type ZxcvbnPackage = keyof typeof PACKAGES;
/**
 * The language packages whose word lists the estimator ranks, merged in this order (a later list of
 * the same name replaces an earlier one); the keyboard graphs come from the first, the texts from the
 * second.
 */
export const RANKED_FROM = ['common', 'en', 'fr'] as const;
/** What separates the words of a list in the prepared dictionaries' file (no word of zxcvbn's lists holds one). */
export const WORD_SEPARATOR = '\n';
/** Finds a package's file (require.resolve: by default from here; the build gives the project's). */
export type Resolve = (id: string) => string;
const resolveHere: Resolve = createRequire(import.meta.url).resolve;

/** Where each of zxcvbn's packages is (its main file). */
export const zxcvbnPaths = (resolve: Resolve = resolveHere): Record<ZxcvbnPackage, string> =>
  Object.fromEntries(Object.entries(PACKAGES).map(([k, name]) => [k, resolve(name)])) as Record<ZxcvbnPackage, string>;

/** The installed version of each of zxcvbn's packages. */
export const zxcvbnVersions = (resolve: Resolve = resolveHere): Record<ZxcvbnPackage, string> =>
  Object.fromEntries(
    Object.entries(PACKAGES).map(([k, name]) => [
      k,
      (JSON.parse(readFileSync(resolve(`${name}/package.json`), 'utf8')) as { version: string }).version,
    ]),
  ) as Record<ZxcvbnPackage, string>;

/**
 * A prepared list as the estimator reads a ranked dictionary (`dictionary[word]`: the word's rank, 1
 * for the first, a word listed twice keeping its last; for any other name what a plain object has
 * under it, as for the objects the estimator ranks itself). The ranks are a Map: building it takes a
 * third of the time an object of as many properties takes. The estimator only reads words from it (its
 * Levenshtein matching, which would list them, is off). It runs in the thread (WORKER holds its
 * source: it uses nothing but the language's globals).
 */
export function rankedView(words: readonly string[]): Record<string, number> {
  const ranks = new Map<string, number>();
  for (let i = 0; i < words.length; i++) ranks.set(words[i] as string, i + 1);
  return new Proxy({} as Record<string, number>, {
    get(target, key, receiver) {
      const rank = typeof key === 'string' ? ranks.get(key) : undefined;
      return rank !== undefined ? rank : Reflect.get(target, key, receiver);
    },
  });
}

// Plain CommonJS, run with `eval`: it needs nothing of Ward, only zxcvbn's packages (resolved here).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let common = null;
let estimator = null;
let madeFrom = null;
let commonPasswords = null;
// The prepared file's common passwords, when the estimator was made from it.
let preparedCommon = null;
// From the prepared dictionaries when there are some, so that the language package is not loaded
// beside them; else from the package.
function commonList() {
  if (commonPasswords) return commonPasswords;
  if (workerData.prepared) zxcvbn();
  const list =
    madeFrom === 'prepared'
      ? preparedCommon
      : (common ??= require(workerData.paths.common)).dictionary['passwords-common'];
  commonPasswords = new Set(list.map((p) => String(p).toLowerCase()));
  return commonPasswords;
}
const rankedView = ${rankedView.toString()};
// The prepared word lists, when made from the packages installed: ranked here, they take the place
// of the ranking the estimator does when it is given the word lists (its 'rankedDictionaries' and
// their longest words, as Options.setRankedDictionaries leaves them).
// Anything else (no file, a file made from other packages or lists, one that cannot be read or
// parsed, a zxcvbn that keeps them elsewhere) gives null: the thread ranks the lists itself.
function fromPrepared(ZxcvbnFactory) {
  const prepared = workerData.prepared;
  if (!prepared) return null;
  try {
    const data = JSON.parse(require('node:fs').readFileSync(prepared.file, 'utf8'));
    const isObject = (v) => typeof v === 'object' && v !== null;
    if (!isObject(data) || !isObject(data.versions) || !isObject(data.lists) || !isObject(data.maxWordSize)) return null;
    if (Object.keys(prepared.versions).some((k) => data.versions[k] !== prepared.versions[k])) return null;
    if (JSON.stringify(data.rankedFrom) !== JSON.stringify(workerData.rankedFrom)) return null;
    const names = Object.keys(data.lists);
    if (names.some((n) => typeof data.lists[n] !== 'string' || typeof data.maxWordSize[n] !== 'number')) return null;
    const made = new ZxcvbnFactory({
      graphs: data.graphs,
      translations: data.translations,
      maxLength: workerData.settings.maxLength,
      l33tMaxSubstitutions: workerData.settings.l33tMaxSubstitutions,
    });
    if (!isObject(made.options) || !isObject(made.options.rankedDictionaries)) return null;
    if (!names.includes('passwords-common')) return null;
    const ranked = {};
    for (const n of names) {
      const words = data.lists[n] === '' ? [] : data.lists[n].split(prepared.separator);
      ranked[n] = rankedView(words);
      if (n === 'passwords-common') preparedCommon = words;
    }
    made.options.rankedDictionaries = ranked;
    made.options.rankedDictionariesMaxWordSize = data.maxWordSize;
    return made;
  } catch {
    return null;
  }
}
function zxcvbn() {
  if (estimator) return estimator;
  const { ZxcvbnFactory } = require(workerData.paths.core);
  estimator = fromPrepared(ZxcvbnFactory);
  madeFrom = estimator ? 'prepared' : 'lists';
  if (estimator) return estimator;
  const packages = workerData.rankedFrom.map((k) => require(workerData.paths[k]));
  estimator = new ZxcvbnFactory({
    dictionary: Object.assign({}, ...packages.map((p) => p.dictionary)),
    graphs: packages[0].adjacencyGraphs,
    translations: packages[1].translations,
    maxLength: workerData.settings.maxLength,
    l33tMaxSubstitutions: workerData.settings.l33tMaxSubstitutions,
  });
  return estimator;
}
parentPort.on('message', ({ id, kind, password, userInputs }) => {
  try {
    if (kind === 'common') parentPort.postMessage({ id, value: commonList().has(password.toLowerCase()) });
    else if (kind === 'warm-common') parentPort.postMessage({ id, value: Boolean(commonList()) });
    else if (kind === 'warm-score') parentPort.postMessage({ id, value: Boolean(zxcvbn()), madeFrom });
    else parentPort.postMessage({ id, value: zxcvbn().check(password, userInputs).score, madeFrom });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

/** How long the thread may sit unused before it is stopped. */
export const STRENGTH_IDLE_MS = 60_000;

interface Waiting {
  resolve(value: unknown): void;
  reject(e: Error): void;
}

/** The estimator thread: `score` and `isCommon` answer from it; it stops after `idleMs` unused. */
export function createStrengthEstimator(settings: EstimatorSettings, initialIdleMs = STRENGTH_IDLE_MS) {
  let idleMs = initialIdleMs;
  /** The file of the dictionaries ranked ahead (speed-up `prepared_dictionaries`), or null. */
  let prepared: string | null = null;
  let worker: Worker | null = null;
  const waiting = new Map<number, Waiting>();
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  const counts = { started: 0, exited: 0 };
  /** What the last estimator built was made from: the word lists, or the prepared dictionaries. */
  let madeFrom: 'lists' | 'prepared' | null = null;

  function stopIdleTimer(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
  }

  /** Stops the thread once it has had nothing to do for idleMs (a check in between cancels this). */
  function stopWhenIdle(w: Worker): void {
    stopIdleTimer();
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (worker !== w || waiting.size > 0) return;
      worker = null;
      void w.terminate();
    }, idleMs);
    idleTimer.unref();
  }

  function failAll(e: Error): void {
    worker = null;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  }

  function thread(): Worker {
    if (worker) return worker;
    const paths = zxcvbnPaths();
    // execArgv: none of the server's preloads or flags (the thread runs plain CommonJS).
    const w = new Worker(WORKER, {
      eval: true,
      // The installed versions, read when a thread starts: the file is used only if made from them.
      workerData: {
        paths,
        settings,
        prepared: prepared === null ? null : { file: prepared, versions: zxcvbnVersions(), separator: WORD_SEPARATOR },
        rankedFrom: RANKED_FROM,
      },
      execArgv: [],
    });
    w.on('message', (m: { id: number; value?: unknown; error?: string; madeFrom?: 'lists' | 'prepared' | null }) => {
      if (m.madeFrom) madeFrom = m.madeFrom;
      const waiter = waiting.get(m.id);
      if (!waiter) return;
      waiting.delete(m.id);
      if (waiting.size === 0) {
        w.unref();
        stopWhenIdle(w);
      }
      if (m.error !== undefined) waiter.reject(new Error(`password strength: ${m.error}`));
      else waiter.resolve(m.value);
    });
    w.on('error', (e) => failAll(e));
    w.on('exit', (code) => {
      counts.exited++;
      if (worker === w) failAll(new Error(`password strength: the estimator thread exited (${code})`));
    });
    w.unref();
    worker = w;
    counts.started++;
    return w;
  }

  function ask(
    kind: 'score' | 'common' | `warm-${'score' | 'common'}`,
    password: string,
    userInputs: string[] = [],
  ): Promise<unknown> {
    stopIdleTimer();
    const w = thread();
    const id = nextId++;
    // Kept alive while a check is waiting (the caller awaits it), not otherwise.
    if (waiting.size === 0) w.ref();
    return new Promise((res, rej) => {
      waiting.set(id, { resolve: res, reject: rej });
      w.postMessage({ id, kind, password, userInputs });
    });
  }

  return {
    /** zxcvbn's score, 0 (guessable) to 4 (very unguessable), with these words as known to the guesser. */
    score: async (password: string, userInputs: string[]): Promise<StrengthScore> =>
      (await ask('score', password, userInputs)) as StrengthScore,
    /** Whether the password is one of zxcvbn's most common passwords (any case). */
    isCommon: async (password: string): Promise<boolean> => (await ask('common', password)) as boolean,
    /**
     * Starts the thread and builds what a check known to come will use (the estimator for `score`,
     * the list for `common`) ahead of it: it loads beside other work instead of in the check's way.
     */
    warm: async (check: 'score' | 'common'): Promise<void> => {
      await ask(`warm-${check}`, '');
    },
    /** Changes the idle period (from the next time the thread falls idle). */
    setIdle(ms: number): void {
      idleMs = ms;
    },
    /** Whether a thread is up, and how many have started and exited so far. */
    threads: () => ({ running: worker !== null, ...counts }),
    /** What the last estimator built was made from (null: none built yet). */
    madeFrom: () => madeFrom,
    /** The file of the dictionaries ranked ahead, for the threads started from now on (null: rank the word lists). */
    usePrepared(next: string | null): void {
      prepared = next;
    },
    /** Stops the thread (a later check starts another). */
    async close(): Promise<void> {
      stopIdleTimer();
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}

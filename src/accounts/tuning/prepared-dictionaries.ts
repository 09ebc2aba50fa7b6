// Speed-up `prepared_dictionaries` (docs/performance.md; plain path: the password estimator's thread
// ranks zxcvbn's word lists each time it starts, password-strength.ts). The estimator ranks about
// 316,000 words into one object per list when it is built: with the packages' load, 300-450 ms of its
// thread at every start, and the thread starts again at the first check after each idle period.
// `npm run build` writes the lists once, in the order zxcvbn ranks them, as JSON beside the built
// server (scripts/build.mjs); a thread that finds them ranks each into a Map (a word's rank is its
// place in the list), which takes a third of the time the objects take, and gives zxcvbn a view of it
// (password-strength.ts). They are used only with the versions of zxcvbn's packages they were made
// from (else the thread ranks the lists itself); test/accounts/prepared-dictionaries.test.ts holds the
// scores of both paths equal.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { RANKED_FROM, type Resolve, WORD_SEPARATOR, zxcvbnPaths, zxcvbnVersions } from '../password-strength.js';

/** The file's name, beside the built server. */
export const PREPARED_DICTIONARIES_FILE = 'password-dictionaries.json';

type WordList = Array<string | number>;
interface LanguagePackage {
  dictionary: Record<string, WordList>;
  adjacencyGraphs?: unknown;
  translations?: unknown;
}

/**
 * The estimator's word lists as it ranks them (merged in RANKED_FROM's order; rank 1 for a list's
 * first word, a word listed twice keeping its last rank), each one string of its words, with each
 * list's longest word, the graphs and texts it is given, and the packages' versions: the file's JSON
 * text. `resolve` finds the packages (the build's: the project's node_modules, wherever this module
 * was compiled to).
 */
export function prepareDictionaries(resolve?: Resolve): string {
  const load = createRequire(import.meta.url);
  const paths = zxcvbnPaths(resolve);
  // The same lists, in the same order, as the thread gives the estimator (password-strength.ts).
  const packages = RANKED_FROM.map((k) => load(paths[k]) as LanguagePackage);
  const dictionary: Record<string, WordList> = Object.assign({}, ...packages.map((p) => p.dictionary));
  const lists: Record<string, string> = {};
  const maxWordSize: Record<string, number> = {};
  for (const [name, list] of Object.entries(dictionary)) {
    const words = list.map(String);
    const joined = words.find((word) => word.includes(WORD_SEPARATOR));
    if (joined !== undefined)
      throw new Error(`zxcvbn's list ${name} has a word the file cannot hold: ${JSON.stringify(joined)}`);
    lists[name] = words.join(WORD_SEPARATOR);
    maxWordSize[name] = words.reduce((longest, word) => Math.max(longest, word.length), 0);
  }
  return JSON.stringify({
    versions: zxcvbnVersions(resolve),
    rankedFrom: RANKED_FROM,
    lists,
    maxWordSize,
    graphs: packages[0]!.adjacencyGraphs,
    translations: packages[1]!.translations,
  });
}

/** The prepared dictionaries' file in the directory `dir` (the built server's), or null when none was written there. */
export function preparedDictionariesIn(dir: URL): string | null {
  const file = fileURLToPath(new URL(PREPARED_DICTIONARIES_FILE, dir));
  return existsSync(file) ? file : null;
}

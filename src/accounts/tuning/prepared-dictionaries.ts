// Speed-up `prepared_dictionaries` (docs/performance.md; plain path: the password estimator's thread
// ranks zxcvbn's word lists each time it starts, password-strength.ts). The estimator ranks about
// 316,000 words into one object per list when it is built: with the packages' load, 300-450 ms of its
// thread at every start, and the thread starts again at the first check after each idle period.
// `npm run build` writes the ranked lists once, as JSON beside the built server (scripts/build.mjs),
// and a thread that finds them parses them instead. They are used only with the versions of zxcvbn's
// packages they were made from (else the thread ranks the lists itself);
// test/accounts/prepared-dictionaries.test.ts holds the scores of both paths equal.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { RANKED_FROM, type Resolve, zxcvbnPaths, zxcvbnVersions } from '../password-strength.js';

/** The file's name, beside the built server. */
export const PREPARED_DICTIONARIES_FILE = 'password-dictionaries.json';

type WordList = Array<string | number>;
interface LanguagePackage {
  dictionary: Record<string, WordList>;
  adjacencyGraphs?: unknown;
  translations?: unknown;
}

/**
 * The estimator's dictionaries ranked as it ranks them (rank 1 for a list's first word; a word listed
 * twice keeps its last rank; the longest word of each list), with the graphs and texts it is given,
 * and the packages' versions: the file's JSON text. `resolve` finds the packages (the build's: the
 * project's node_modules, wherever this module was compiled to).
 */
export function prepareDictionaries(resolve?: Resolve): string {
  const load = createRequire(import.meta.url);
  const paths = zxcvbnPaths(resolve);
  // The same lists, in the same order, as the thread gives the estimator (password-strength.ts).
  const packages = RANKED_FROM.map((k) => load(paths[k]) as LanguagePackage);
  const dictionary: Record<string, WordList> = Object.assign({}, ...packages.map((p) => p.dictionary));
  const ranked: Record<string, Record<string, number>> = {};
  const maxWordSize: Record<string, number> = {};
  for (const [name, list] of Object.entries(dictionary)) {
    const ranks: Record<string, number> = {};
    list.forEach((word, i) => {
      ranks[String(word)] = i + 1;
    });
    ranked[name] = ranks;
    maxWordSize[name] = list.reduce<number>((longest, word) => Math.max(longest, String(word).length), 0);
  }
  return JSON.stringify({
    versions: zxcvbnVersions(resolve),
    rankedFrom: RANKED_FROM,
    ranked,
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

// `node --import tsx bench/strength-start.ts [--starts 9]`: how long the password estimator's thread
// takes from its start to its first check under the default policy (the common-password list, then
// the score; src/accounts/password-strength.ts), with zxcvbn's word
// lists ranked by the thread (plain) and with the dictionaries `npm run build` prepares (speed-up
// `prepared_dictionaries`). The thread starts at a first start's administrator check and at the first
// check after each idle period. Starts interleaved; prints the medians and their ratio.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStrengthEstimator } from '../src/accounts/password-strength.js';
import { PREPARED_DICTIONARIES_FILE, prepareDictionaries } from '../src/accounts/tuning/prepared-dictionaries.js';

const argv = process.argv.slice(2);
const starts = Number(argv.includes('--starts') ? argv[argv.indexOf('--starts') + 1] : 9);
const dir = mkdtempSync(join(tmpdir(), 'ward-strength-start-'));
const file = join(dir, PREPARED_DICTIONARIES_FILE);
writeFileSync(file, prepareDictionaries());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** One thread's start to its first score, in ms. */
async function firstScore(prepared: boolean): Promise<number> {
  const estimator = createStrengthEstimator({ maxLength: 64, l33tMaxSubstitutions: 8 });
  if (prepared) estimator.usePrepared(file);
  const t = performance.now();
  // The default policy's check: the common-password list, then the score.
  await estimator.isCommon('Sunflower-Garden-1987');
  await estimator.score('Sunflower-Garden-1987', ['alice.martin@example.com']);
  const ms = performance.now() - t;
  if (estimator.madeFrom() !== (prepared ? 'prepared' : 'lists')) throw new Error('the estimator took the other path');
  await estimator.close();
  return ms;
}

const times = { plain: [] as number[], prepared: [] as number[] };
try {
  for (let i = 0; i < starts; i++) {
    times.plain.push(await firstScore(false));
    times.prepared.push(await firstScore(true));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const show = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
console.log(`plain (lists ranked by the thread): median ${median(times.plain).toFixed(0)} ms (${show(times.plain)})`);
console.log(
  `prepared_dictionaries: median ${median(times.prepared).toFixed(0)} ms (${show(times.prepared)}), ` +
    `${(median(times.prepared) / median(times.plain)).toFixed(2)}x the plain path's time`,
);

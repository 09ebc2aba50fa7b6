// `node --import tsx bench/cold-start.ts [--tuning on,no:lazy_validation] [--starts 5] [--first]`:
// Ward's restart time (process start to the first answered request, bench/proc.ts) per WARD_TUNING
// variant, the variants' starts interleaved (A B A B ...) on one migrated SQLite store each; with
// `--first`, the first start instead (a new empty store each time: migrations, keys, the
// administrator). Prints the median per variant and its ratio to the first. For the start-up's work.
import { buildWard, sqliteDb, startWard, tuningEnv } from './ward.js';
import { stopAll } from './proc.js';

const argv = process.argv.slice(2);
const opt = (name: string) => argv[argv.indexOf(`--${name}`) + 1];
const variants = (argv.includes('--tuning') ? opt('tuning')! : 'on,no:lazy_validation').split(',');
const starts = Number(argv.includes('--starts') ? opt('starts') : 5);
const first = argv.includes('--first');
for (const v of variants) tuningEnv(v);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const cli = await buildWard();
const dbs = await Promise.all(variants.map(() => sqliteDb()));
const times: number[][] = variants.map(() => []);
try {
  if (!first)
    for (const [i, v] of variants.entries())
      await (await startWard(cli, dbs[i]!, 'smtp://127.0.0.1:9', '', 1, [], v)).stop();
  for (let s = 0; s < starts; s++)
    for (const [i, v] of variants.entries()) {
      const db = first ? await sqliteDb() : dbs[i]!;
      const ward = await startWard(cli, db, 'smtp://127.0.0.1:9', '', 1, [], v);
      times[i]!.push(ward.coldStartMs);
      await ward.stop();
      if (first) await db.drop();
    }
} finally {
  await stopAll();
  for (const db of dbs) await db.drop();
}
const base = median(times[0]!);
for (const [i, v] of variants.entries())
  process.stdout.write(
    `${v}: median ${median(times[i]!).toFixed(0)} ms (${times[i]!.map((t) => t.toFixed(0)).join(', ')}), ` +
      `${(median(times[i]!) / base).toFixed(2)}x the first\n`,
  );
process.exit(0);

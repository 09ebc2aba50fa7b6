// I1: the bulk import and export of users (issue 36), Ward only (the peer, oidc-provider, has no
// import). `npm run bench -- --only I1 [--engines sqlite,postgres] [--import-users 100000] [--tuning on,off]`
// or `node --import tsx bench/import-export.ts` with the same options. Per engine (and --tuning
// variant), a fresh store: Ward started as in the main run (bench/ward.ts), then
// `POST /api/v1/users/import` with an NDJSON body of N users generated as it is sent (10 fields each
// and a bcrypt hash: a handful of hashes made once at cost 10 and reused, since the import only reads
// a hash's format and hashing 100,000 would take hours), then `GET /api/v1/users/export` read to the
// end. Prints lines per second of each, and Ward's peak RSS (sampled every 200 ms through hook.mjs,
// and the kernel's VmHWM for the whole life of the process).
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import bcrypt from 'bcryptjs';
import { send } from './http.js';
import { stopAll, type Child } from './proc.js';
import { parseCount } from './seed-users.js';
import { buildWard, postgresDb, sqliteDb, startWard, USERS_SECRET, type WardDb } from './ward.js';

export interface ImportExportOptions {
  engines: string[];
  count: number;
  tunings: string[];
  ref?: string;
  /** Writes CPU profiles of Ward during the import and the export to this directory (`--profile`). */
  profileDir?: string;
  log: (s: string) => void;
}

interface Row {
  engine: string;
  tuning: string;
  importLinesPerS: number;
  importS: number;
  created: number;
  refused: number;
  exportLinesPerS: number;
  exportS: number;
  exported: number;
  peakRssMB: number;
  hwmMB: number;
}

/** The bcrypt hashes every line reuses (cost 10, made once: the import checks a hash's format, not its work). */
const HASHES = ['one', 'two', 'three', 'four'].map((p) => bcrypt.hashSync(`bench password ${p}`, 10));

/** The i-th user: 10 fields (and the hash with its algorithm). */
function lineOf(i: number, run: string): string {
  return `${JSON.stringify({
    external_id: `bench-${run}-${i}`,
    email: `user${i}-${run}@import.example`,
    email_verified: i % 3 !== 0,
    phone_number: `+3361${String(i).padStart(7, '0')}`,
    given_name: `Given${i}`,
    family_name: `Family${i}`,
    nickname: `nick${i}`,
    locale: i % 2 ? 'en-GB' : 'fr-FR',
    zoneinfo: 'Europe/Paris',
    created_at: new Date(1_600_000_000_000 + i * 1000).toISOString(),
    password_hash: HASHES[i % HASHES.length],
    password_hash_algorithm: 'bcrypt',
  })}\n`;
}

async function* body(count: number, run: string): AsyncGenerator<string> {
  // A few hundred lines per chunk, as a file read would give them.
  for (let i = 0; i < count; i += 200) {
    let chunk = '';
    for (let j = i; j < Math.min(count, i + 200); j++) chunk += lineOf(j, run);
    yield chunk;
  }
}

const hwmMB = (pid: number) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

/** Samples the child's RSS every 200 ms until stopped: the peak in MB. */
function sampleRss(ward: Child) {
  let peak = 0;
  const timer = setInterval(() => {
    ward
      .stats()
      .then((s) => (peak = Math.max(peak, s.rss)))
      .catch(() => undefined);
  }, 200);
  return () => {
    clearInterval(timer);
    return peak / 2 ** 20;
  };
}

async function token(url: string): Promise<string> {
  const res = await send(url, {
    method: 'POST',
    path: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`bench-users:${USERS_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'manage:users read:users' }).toString(),
  });
  if (res.status !== 200) throw new Error(`I1: management token ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { access_token: string }).access_token;
}

async function measure(ward: Child, engine: string, tuning: string, count: number, profile?: string): Promise<Row> {
  const bearer = await token(ward.url);
  const run = Math.random().toString(36).slice(2, 8);
  const stopRss = sampleRss(ward);
  if (profile) await ward.profileStart();
  let t = performance.now();
  const res = await fetch(`${ward.url}/api/v1/users/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/x-ndjson' },
    body: Readable.from(body(count, run)) as never,
    duplex: 'half',
  } as RequestInit);
  const report = (await res.json()) as { created: number; refused: number; results: unknown[] };
  const importS = (performance.now() - t) / 1000;
  if (profile) await ward.profileStop(profile);
  if (res.status !== 200 || report.created !== count)
    throw new Error(`I1 import: ${res.status} ${JSON.stringify(report).slice(0, 500)}`);
  if (profile) await ward.profileStart();
  t = performance.now();
  const out = await fetch(`${ward.url}/api/v1/users/export`, { headers: { authorization: `Bearer ${bearer}` } });
  if (out.status !== 200) throw new Error(`I1 export: ${out.status} ${await out.text()}`);
  let exported = 0;
  // Newlines counted with indexOf (native): a byte loop here took CPU from Ward on the same cores.
  for await (const chunk of out.body as unknown as AsyncIterable<Uint8Array>)
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) exported++;
  const exportS = (performance.now() - t) / 1000;
  if (profile) await ward.profileStop(profile.replace(/-I1\.cpuprofile$/, '-I1-export.cpuprofile'));
  // The store also holds the operator made at first start (WARD_ADMIN_PASSWORD).
  if (exported < count) throw new Error(`I1 export: ${exported} lines for ${count} users`);
  return {
    engine,
    tuning,
    importLinesPerS: count / importS,
    importS,
    created: report.created,
    refused: report.refused,
    exportLinesPerS: exported / exportS,
    exportS,
    exported,
    peakRssMB: stopRss(),
    hwmMB: hwmMB(ward.proc.pid!),
  };
}

/** Runs I1 on each engine and variant, each on a fresh store; the table as text. */
export async function runImportExport(o: ImportExportOptions): Promise<string> {
  const cli = await buildWard(o.ref);
  if (o.profileDir) mkdirSync(o.profileDir, { recursive: true });
  const rows: Row[] = [];
  for (const engine of o.engines)
    for (const tuning of o.tunings) {
      const db: WardDb | null = engine === 'postgres' ? await postgresDb() : await sqliteDb();
      if (!db) {
        o.log('I1: PostgreSQL unreachable, skipped');
        continue;
      }
      try {
        const ward = await startWard(cli, db, 'smtp://127.0.0.1:9', '', 1, [], tuning);
        try {
          const profile = o.profileDir && `${o.profileDir}/${engine}-${tuning}-I1.cpuprofile`;
          const row = await measure(ward, engine, tuning, o.count, profile);
          rows.push(row);
          o.log(
            `  I1 ${engine} ${tuning}: import ${row.importLinesPerS.toFixed(0)} lines/s (${row.importS.toFixed(1)} s), ` +
              `export ${row.exportLinesPerS.toFixed(0)} lines/s (${row.exportS.toFixed(1)} s), peak RSS ${row.peakRssMB.toFixed(0)} MB`,
          );
        } finally {
          await ward.stop();
        }
      } finally {
        await db.drop();
      }
    }
  return [
    `I1: import then export of ${o.count} users (10 fields and a bcrypt hash each), Ward only`,
    '',
    '| engine | tuning | import lines/s | import s | export lines/s | export s | peak RSS MB (sampled) | VmHWM MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.tuning} | ${r.importLinesPerS.toFixed(0)} | ${r.importS.toFixed(1)} | ${r.exportLinesPerS.toFixed(0)} | ${r.exportS.toFixed(1)} | ${r.peakRssMB.toFixed(0)} | ${r.hwmMB.toFixed(0)} |`,
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  runImportExport({
    engines: (opt('engines') ?? 'sqlite,postgres').split(','),
    count: parseCount(opt('import-users') ?? '100k'),
    tunings: (opt('tuning') ?? 'on').split(','),
    ref: opt('ref'),
    profileDir: argv.includes('--profile') ? fileURLToPath(new URL('./profiles', import.meta.url)) : undefined,
    log: (s) => process.stdout.write(`${s}\n`),
  }).then(
    (out) => {
      process.stdout.write(`\n${out}\n`);
      process.exit(0);
    },
    async (e: unknown) => {
      process.stderr.write(`I1: ${(e as Error).stack ?? String(e)}\n`);
      await stopAll();
      process.exit(1);
    },
  );
}

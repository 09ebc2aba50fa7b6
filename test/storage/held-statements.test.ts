// Issue 40: on Node 24 a better-sqlite3 statement or database collected by a garbage collection that
// an allocation in JavaScript started aborted the process (`RemoveEnvironmentCleanupHook ... (env) !=
// nullptr`). Ward's SQLite connections now hold theirs until exit (src/storage/engine/held-statements.ts).
// A child process runs many queries on the plain and tuned paths, opens and closes connections, and
// allocates between them; it must end normally. On Node 20 and 22 it passes either way; CI runs this
// file on Node 24 as well (.ci/run).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

const CHILD = `
const { connect, migrate } = await import('./src/storage/connect.ts');
const { PLAIN, TUNED } = await import('./src/config/tuning.ts');
const { sql } = await import('kysely');
let junk = [];
const churn = () => { junk = []; for (let i = 0; i < 20000; i++) junk.push({ i, s: 'x' + i }); };
for (let round = 0; round < 6; round++) {
  const d = connect({ sqlitePath: ':memory:', postgresUrl: null, tuning: round % 2 ? TUNED : PLAIN });
  await migrate(d);
  for (let i = 0; i < 400; i++) {
    await sql\`select \${i} as x, \${'k' + i} as k\`.execute(d.db);
    await d.db.selectFrom('users').select('id').where('email', '=', 'a' + i).execute();
    if (i % 20 === 0) churn();
  }
  await d.close();
  churn();
}
for (let i = 0; i < 30; i++) churn();
process.stdout.write('ok');
`;

describe('SQLite connections and the garbage collector', () => {
  it('a process that runs and drops many queries and connections ends normally', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const said = `status ${child.status}, signal ${child.signal}\n${child.stderr.slice(0, 2000)}`;
    assert.equal(child.signal, null, said);
    assert.equal(child.status, 0, said);
    assert.equal(child.stdout, 'ok');
  });
});

// SQLite settings that the benchmark measured (src/storage/connect.ts, SQLITE_TUNING): statement
// journals stay in memory, and the WAL is checkpointed every 16,000 pages, not 1,000.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { connect, migrate, type Db } from '../../src/storage/connect.js';

/** SQLite's temporary files open in this process (named etilqs_*, unlinked as soon as opened). */
const sqliteTempFiles = () =>
  readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('etilqs_'));

/** A migrated Ward SQLite store in a new directory, given to `use` and closed after. */
async function withStore(use: (d: Db, path: string) => Promise<void>): Promise<void> {
  const path = join(mkdtempSync(join(tmpdir(), 'ward-tuning-')), 'ward.db');
  const d = connect({ sqlitePath: path, postgresUrl: null });
  try {
    await migrate(d);
    await d.settled?.();
    await use(d, path);
  } finally {
    await d.close();
  }
}

describe("SQLite tuning of Ward's storage", () => {
  it('a large statement inside the group commit keeps its statement journal in memory, not in a temporary file', () =>
    withStore(async (d) => {
      // One turn of the event loop: every write joins the same (group commit) transaction. The
      // update may fail half-way on the primary key, so SQLite journals the pages it changes, and
      // those pages were already changed in this transaction: over 64 KiB of statement journal.
      for (let i = 0; i < 400; i++)
        await sql`insert into settings (key, value, updated_at) values (${`k${i}`}, ${'v'.repeat(300)}, 1)`.execute(
          d.db,
        );
      await sql`update settings set key = key || '-renamed', value = value || 'w'`.execute(d.db);
      assert.deepEqual(sqliteTempFiles(), []);
      await d.settled?.();
      const n = await sql<{ n: number }>`select count(*) as n from settings where key like '%-renamed'`.execute(d.db);
      assert.equal(n.rows[0]!.n, 400);
    }));

  it('the WAL is not checkpointed into the database file before it holds 16,000 pages', () =>
    withStore(async (d, path) => {
      const before = statSync(path).size;
      // ~2,000 pages in 20 commits: SQLite's default (1,000) would have copied them back already.
      for (let i = 0; i < 20; i++) {
        await sql`insert into settings (key, value, updated_at) values (${`big${i}`}, ${'z'.repeat(400_000)}, 1)`.execute(
          d.db,
        );
        await d.settled?.();
      }
      assert.ok(statSync(`${path}-wal`).size > 1900 * 4096, 'the pages are in the WAL');
      assert.equal(statSync(path).size, before, 'the database file is untouched so far');
    }));
});

// Migrations merged side by side (docs/operations.md#upgrades, rule 4): a database migrated by a release
// that had every migration but one from the middle (its branch merged later) takes the missing one at the
// next `migrate`, though newer ones already ran. Kysely refuses that unless told; on both engines.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Migration } from 'kysely';
import { describe, it } from 'node:test';
import { connect, migrate, MIGRATION_LIST } from '../../src/storage/connect.js';
import { engines, freshPgSchema } from '../helpers/databases.js';

async function database(engine: 'sqlite' | 'postgres') {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ward-unordered-'));
    return {
      db: connect({ sqlitePath: join(dir, 'ward.db'), postgresUrl: null }),
      schema: undefined,
      drop: async () => {},
    };
  }
  const s = await freshPgSchema();
  return { db: connect({ sqlitePath: '', postgresUrl: s.url, pgSchema: s.schema }), schema: s.schema, drop: s.drop };
}

for (const engine of engines()) {
  describe(`migrations merged side by side (${engine})`, () => {
    it('applies a missing middle migration after newer ones ran', async () => {
      const d = await database(engine);
      try {
        const middle = MIGRATION_LIST[MIGRATION_LIST.length - 3]![0];
        const earlier: Record<string, Migration> = Object.fromEntries(MIGRATION_LIST.filter(([n]) => n !== middle));
        // The previous release's migrator, on `sessions` (one connection per session), as `migrate` runs it.
        const previous = new Migrator({
          db: d.db.sessions,
          provider: { getMigrations: async () => earlier },
          ...(d.schema ? { migrationTableSchema: d.schema } : {}),
        });
        const first = await previous.migrateToLatest();
        assert.equal(first.error, undefined);
        assert.equal(first.results?.length, MIGRATION_LIST.length - 1);

        assert.deepEqual(await migrate(d.db), [middle]);
        const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(d.db.db);
        assert.deepEqual(
          rows.map((r) => r.name),
          MIGRATION_LIST.map(([n]) => n),
        );
        assert.deepEqual(await migrate(d.db), []);
      } finally {
        await d.db.close();
        await d.drop();
      }
    });
  });
}

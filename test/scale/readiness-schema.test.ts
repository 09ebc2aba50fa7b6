// /readyz and the schema (issue 40, item 3): a process whose code is older than the schema needs (a
// newer release's contract migration, `NNN-contract-...`, has run) answers not ready, so the
// balancer drains it; a newer release's expand migration (any other name) leaves it serving, and the
// check passes again once the contract is gone (a rollback). On both engines.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { contractsBeyond } from '../../src/storage/connect.js';
import { engines } from '../helpers/databases.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('which applied migrations this code cannot run against', () => {
  it('is the unknown ones named as contract migrations', () => {
    assert.deepEqual(contractsBeyond(['001-initial', '016-client-token-rules']), []);
    assert.deepEqual(contractsBeyond(['001-initial', '017-add-consents', '018-contract-drop-old']), [
      '018-contract-drop-old',
    ]);
  });
});

for (const engine of engines()) {
  describe(`/readyz and the schema (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine });
    });
    after(() => ward.close());

    const migrationRow = (name: string) =>
      sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        ward.registry.db.db,
      );
    const removeRow = (name: string) =>
      sql`delete from kysely_migration where name = ${name}`.execute(ward.registry.db.db);
    const readiness = async () => {
      const r = await ward.fetch('/readyz');
      return { status: r.status, body: (await r.json()) as { status: string; checks: Record<string, boolean> } };
    };

    it('stays ready after a newer expand migration, turns not ready after a newer contract migration', async () => {
      assert.equal((await readiness()).status, 200);
      await migrationRow('900-add-something-new');
      const expanded = await readiness();
      assert.equal(expanded.status, 200);
      assert.equal(expanded.body.checks.schema, true);
      await migrationRow('901-contract-drop-something-old');
      const contracted = await readiness();
      assert.equal(contracted.status, 503);
      assert.deepEqual(contracted.body, {
        status: 'not_ready',
        checks: { database: true, keys: true, accepting: true, schema: false },
      });
      // A rollback of the contract (its row gone): ready again.
      await removeRow('901-contract-drop-something-old');
      await removeRow('900-add-something-new');
      assert.equal((await readiness()).status, 200);
    });
  });
}

// Deleting a user leaves no row with their id, in any table the database has (found by reading the
// database's own catalog, so a table added later with a user_id column fails here until it is erased
// too), on SQLite and PostgreSQL; other users' rows and the audit trail stay.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../src/storage/connect.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { USER_TABLES } from '../../src/storage/sql/user-erasure.js';
import { engines, freshDb } from '../helpers/databases.js';

interface Column {
  name: string;
  dataType: string;
}

/** The tables of this database (its own schema on PostgreSQL) and their columns. */
async function tablesOf(d: Db): Promise<Map<string, Column[]>> {
  const schema =
    d.engine === 'postgres'
      ? ((await sql<{ s: string }>`select current_schema() as s`.execute(d.db)).rows[0]?.s ?? null)
      : null;
  const out = new Map<string, Column[]>();
  for (const t of await d.db.introspection.getTables()) {
    if (t.name.startsWith('kysely_') || (schema && t.schema !== schema)) continue;
    out.set(t.name, t.columns);
  }
  return out;
}

const numeric = (type: string) => /int|numeric|real|double|serial/i.test(type);

/** A row of `table` with every column filled (numbers 1, strings random) and the user ids given. */
function rowFor(columns: Column[], ids: Record<string, string>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of columns) {
    if (ids[c.name] !== undefined) row[c.name] = ids[c.name];
    else row[c.name] = numeric(c.dataType) ? 1 : randomBytes(3).toString('hex');
  }
  return row;
}

for (const engine of engines()) {
  describe(`deleting a user on ${engine}`, () => {
    let d: Db;
    let s: Storage;
    before(async () => {
      d = await freshDb(engine);
      s = createStorage(d);
    });
    after(async () => s.close());

    it('removes every row with the user id and their sign-in failures, and nothing of anyone else', async () => {
      const db = d.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const tables = await tablesOf(d);
      const withUser = [...tables].filter(([, cols]) => cols.some((c) => c.name === 'user_id')).map(([n]) => n);
      // The erasure's list is every table that has a user_id column: none forgotten, none invented.
      assert.deepEqual([...withUser].sort(), [...USER_TABLES].sort());
      assert.ok(withUser.length >= 13);

      for (const who of ['victim', 'bystander']) {
        await db
          .insertInto('users')
          .values(rowFor(tables.get('users')!, { id: who, email: `${who}@example.com` }))
          .execute();
        for (const t of withUser)
          await db
            .insertInto(t)
            .values(rowFor(tables.get(t)!, { user_id: who }))
            .execute();
        await db
          .insertInto('sign_in_failures')
          .values(rowFor(tables.get('sign_in_failures')!, { key: `key-of-${who}` }))
          .execute();
      }
      await s.audit.insert({
        id: 'a1',
        at: 1,
        actor_type: 'user',
        actor_id: 'admin',
        action: 'user.updated',
        target: 'user:victim',
        ip: null,
        outcome: 'success',
        details: '{}',
      });

      const counts = await s.transaction((tx) => tx.userErasure.erase('victim', ['key-of-victim']));
      for (const t of withUser) assert.equal(counts[t as keyof typeof counts], 1, t);
      assert.equal(counts.users, 1);
      assert.equal(counts.sign_in_failures, 1);

      const left = async (t: string, column: string, value: string) =>
        Number(
          (
            await db
              .selectFrom(t)
              .select((eb) => eb.fn.countAll().as('n'))
              .where(column, '=', value)
              .executeTakeFirstOrThrow()
          ).n,
        );
      for (const t of withUser) {
        assert.equal(await left(t, 'user_id', 'victim'), 0, `${t} still holds the user's rows`);
        assert.equal(await left(t, 'user_id', 'bystander'), 1, `${t} lost another user's row`);
      }
      assert.equal(await left('users', 'id', 'victim'), 0);
      assert.equal(await left('users', 'id', 'bystander'), 1);
      assert.equal(await left('sign_in_failures', 'key', 'key-of-victim'), 0);
      assert.equal(await left('sign_in_failures', 'key', 'key-of-bystander'), 1);
      // The audit trail stays.
      assert.equal(await left('audit_events', 'target', 'user:victim'), 1);
    });

    it('rolls back with the transaction that made it', async () => {
      await s.users.create(
        {
          id: 'kept',
          email: 'kept@example.com',
          phone_number: null,
          password_hash: null,
          given_name: null,
          family_name: null,
          email_verified: false,
          phone_number_verified: false,
          role: null,
          disabled: false,
        },
        1,
      );
      await assert.rejects(
        s.transaction(async (tx) => {
          await tx.userErasure.erase('kept', []);
          throw new Error('abort');
        }),
        /abort/,
      );
      assert.equal((await s.users.findById('kept'))?.id, 'kept');
    });
  });
}

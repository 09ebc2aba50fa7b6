// A user created through the management API is written in one transaction with its audit row and its
// webhook event (issue #35, item 3): a failure forced after the user's insert (a trigger refusing the
// event row, in that same transaction) leaves neither the user, nor its audit row, nor an event; the
// same call once the trigger is gone writes all three. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken, verify } from './manager.js';
import { Receiver } from './receiver.js';

/** A trigger that refuses a user.created event row: the last write of the user's transaction fails. */
async function refuseUserCreatedEvents(ward: TestWard, engine: 'sqlite' | 'postgres'): Promise<() => Promise<void>> {
  const db = ward.registry.db.db;
  if (engine === 'sqlite') {
    await sql`create trigger refuse_user_created before insert on webhook_events when new.type = 'user.created'
      begin select raise(abort, 'forced failure'); end`.execute(db);
    return async () => void (await sql`drop trigger refuse_user_created`.execute(db));
  }
  await sql`create function refuse_user_created() returns trigger language plpgsql as $$
    begin if new.type = 'user.created' then raise exception 'forced failure'; end if; return new; end $$`.execute(db);
  await sql`create trigger refuse_user_created before insert on webhook_events
    for each row execute function refuse_user_created()`.execute(db);
  return async () => {
    await sql`drop trigger refuse_user_created on webhook_events`.execute(db);
    await sql`drop function refuse_user_created()`.execute(db);
  };
}

for (const engine of engines()) {
  describe(`management API: a user and its event in one transaction (${engine})`, () => {
    let ward: TestWard;
    const receiver = new Receiver();
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER] });
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await ward.close();
    });

    it('a failure after the insert writes neither the user nor the event; a success writes both', async () => {
      const admin = api(ward, await managerToken(ward));
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['user.created'] });
      assert.equal(made.status, 201);
      const email = `tx-${engine}@example.com`;
      const body = { email, password: 'a long good password', email_verified: true };
      const allow = await refuseUserCreatedEvents(ward, engine);
      const failed = await admin.post('/api/v1/users', body);
      assert.equal(failed.status, 500, JSON.stringify(failed.body));
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, 'no user');
      const db = ward.registry.db.db;
      const count = async (table: 'webhook_events' | 'webhook_deliveries') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((e) => e.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.equal(await count('webhook_events'), 0, 'no event');
      assert.equal(await count('webhook_deliveries'), 0, 'no delivery');
      const created = await ward.registry.storage.audit.list({ action: 'user.created', limit: 10 });
      assert.deepEqual(
        created.filter((a) => a.outcome === 'success'),
        [],
        'no audit row of a creation',
      );

      await allow();
      const ok = await admin.post('/api/v1/users', body);
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(ok.body.email_verified, true, 'the flags written in the same transaction');
      assert.equal(await count('webhook_events'), 1);
      await deliverUntil(ward, () => receiver.delivered().length === 1);
      const event = verify(made.body.secret as string, receiver.received[0]!) as {
        type: string;
        data: { user_id: string; user: { email: string; email_verified: boolean } };
      };
      assert.equal(event.type, 'user.created');
      assert.equal(event.data.user_id, ok.body.id);
      assert.deepEqual(
        { email: event.data.user.email, verified: event.data.user.email_verified },
        { email, verified: true },
        'the profile as the transaction left it',
      );
    });
  });
}

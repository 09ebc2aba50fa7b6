// A change and its webhook event are written in one transaction (issue #35, item 3): a failure forced
// after the change (a trigger refusing the event row, in that same transaction) leaves neither the
// change nor an event; the same call once the trigger is gone writes both. A user created through the
// management API (with its audit row), and the security events that report a change (a Core SDK
// signup, a password change), whose audit rows are still buffered; and login.succeeded, whose event is
// written before the answer. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { postJson } from '../helpers/mfa.js';
import { authorizeUrl, location, passwordLogin, pkcePair, PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { Browser } from '../helpers/browser.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken, verify } from './manager.js';
import { Receiver } from './receiver.js';

/** A trigger that refuses the event rows of a type: the last write of the change's transaction fails. */
async function refuseEvents(ward: TestWard, engine: 'sqlite' | 'postgres', type: string): Promise<() => Promise<void>> {
  const db = ward.registry.db.db;
  if (engine === 'sqlite') {
    await sql`create trigger refuse_event before insert on webhook_events when new.type = ${sql.lit(type)}
      begin select raise(abort, 'forced failure'); end`.execute(db);
    return async () => void (await sql`drop trigger refuse_event`.execute(db));
  }
  await sql`create function refuse_event() returns trigger language plpgsql as $$
    begin if new.type = ${sql.lit(type)} then raise exception 'forced failure'; end if; return new; end $$`.execute(db);
  await sql`create trigger refuse_event before insert on webhook_events
    for each row execute function refuse_event()`.execute(db);
  return async () => {
    await sql`drop trigger refuse_event on webhook_events`.execute(db);
    await sql`drop function refuse_event()`.execute(db);
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

    /** A code for the tkn of a password login (the Core SDK's path). */
    async function codeWithTkn(tkn: string): Promise<{ code: string; verifier: string }> {
      const pkce = pkcePair();
      const res = await new Browser(ward).get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          tkn,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      return { code: location(res).searchParams.get('code')!, verifier: pkce.verifier };
    }

    it('a failure after the insert writes neither the user nor the event; a success writes both', async () => {
      const admin = api(ward, await managerToken(ward));
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['*'] });
      assert.equal(made.status, 201);
      const email = `tx-${engine}@example.com`;
      const body = { email, password: 'a long good password', email_verified: true };
      const allow = await refuseEvents(ward, engine, 'user.created');
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

    it('a security event that reports a change: a Core SDK signup and a password change', async () => {
      const before = receiver.delivered().length;
      const email = `sdk-${engine}@example.com`;
      const signup = () =>
        postJson(ward, '/identity/v1/signup', {
          client_id: 'spa',
          data: { email, password: 'correct horse battery' },
        });
      let allow = await refuseEvents(ward, engine, 'user.created');
      assert.equal((await signup()).status, 500);
      await ward.registry.events.flush();
      assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, 'no user');
      assert.deepEqual(await ward.registry.storage.audit.list({ action: 'account.signup', limit: 5 }), [], 'no audit');
      await allow();
      const made = await signup();
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const user = await ward.registry.storage.users.findByEmail(email);
      assert.ok(user);

      // A password change refused by its event's row: the password stays, and no event.
      const tkn = await passwordLogin(ward, email, 'correct horse battery');
      assert.ok(tkn);
      const { code, verifier } = await codeWithTkn(tkn);
      const { body: tokens } = await redeem(ward, code, verifier);
      const change = (password: string) =>
        postJson(
          ward,
          '/identity/v1/update-password',
          { old_password: 'correct horse battery', password },
          { authorization: `Bearer ${tokens.access_token as string}` },
        );
      allow = await refuseEvents(ward, engine, 'user.password_changed');
      assert.equal((await change('a first new long password')).status, 500);
      await allow();
      assert.ok(await passwordLogin(ward, email, 'correct horse battery'), 'the old password still signs in');
      assert.equal((await change('a second new long password')).status, 204);

      const types = () =>
        receiver
          .delivered()
          .slice(before)
          .map((e) => `${e.type}:${e.data.user_id as string}`);
      await deliverUntil(ward, () => types().includes(`user.password_changed:${user.id}`));
      await ward.registry.webhookDelivery.tick();
      const mine = types().filter((t) => t.endsWith(user.id) && !t.startsWith('login.'));
      assert.deepEqual(mine, [`user.created:${user.id}`, `user.password_changed:${user.id}`], 'one of each');
    });

    it('a sign-in: its login.succeeded event is written before the answer, not with the audit batch', async () => {
      // The endpoint of the first case takes every event.
      const email = `signin-${engine}@example.com`;
      const made = await postJson(ward, '/identity/v1/signup', {
        client_id: 'spa',
        data: { email, password: 'correct horse battery' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const user = (await ward.registry.storage.users.findByEmail(email))!;
      await ward.registry.events.flush();
      assert.ok(await passwordLogin(ward, email, 'correct horse battery'));
      // At once, before the next audit batch (100 ms): the event row is there.
      const events = await ward.registry.db.db
        .selectFrom('webhook_events')
        .select('data')
        .where('type', '=', 'login.succeeded')
        .execute();
      assert.ok(
        events.some((e) => (JSON.parse(e.data) as { user_id?: string }).user_id === user.id),
        'written before the answer',
      );
      await ward.registry.events.flush();
      const audited = await ward.registry.storage.audit.list({ action: 'login.succeeded', limit: 50 });
      assert.equal(audited.filter((a) => a.actor_id === user.id).length, 1, 'and its audit row, once');
    });
  });
}

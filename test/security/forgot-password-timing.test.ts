// Issue 33, item 10 (SS-08's promise for forgot-password and account recovery): the answer does not
// tell by its time whether an account has the address, because nothing that depends on the account
// runs before the answer has left. Checked as an order, not as a time (the distribution is measured
// by bench/forgot-password-timing.ts): every storage call a request makes is recorded, with the
// moment its answer was handed to the network (the response's 'finish' on the real HTTPS server);
// before it, a known and an unknown address make the same calls, and the account's lookup and its
// code come after it. The message still arrives, with a code that works.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { NO_RATE_LIMITS } from './support.js';

/**
 * Storage calls of Ward's own timers (janitor, change poller, audit batches with their webhook outbox,
 * back-channel logouts, the webhook sender's polls and checks of its endpoints): not the request's. No
 * forgot-password or recovery request reads or writes a webhook table itself.
 */
const TIMERS = /^versions\.|\.deleteExpired|^audit\.|^logoutDeliveries\.|^webhook(Deliveries|Endpoints)\./;
const WATCHED = /^\/identity\/v1\/(forgot-password|account-recovery|password\/forgot)/;

for (const engine of engines()) {
  describe(`SS-08: forgot-password and account recovery answer before touching the account (${engine})`, () => {
    let w: MfaWard;
    let user: { id: string; email: string; password: string };
    /** The storage calls and the answer of the request under watch, in order. */
    const log: string[] = [];
    /** The transactions not yet ended: whose they are shows only once they have run. */
    const inFlight = new Set<Promise<unknown>>();
    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...NO_RATE_LIMITS, self_service: { requests_per_address: { limit: 1000, window_seconds: 60 } } },
      });
      user = await signup(w.ward);
      const storage = w.ward.registry.storage as unknown as Record<string, Record<string, unknown>>;
      const transaction = storage.transaction as unknown as (fn: (tx: unknown) => Promise<unknown>) => unknown;
      let opened = 0;
      (storage as Record<string, unknown>).transaction = (fn: (tx: unknown) => Promise<unknown>) => {
        // A transaction is the request's unless its calls are a timer's (the audit batch writes its rows
        // and their webhook outbox in one): it is logged when it opens and dropped once a timer's call shows.
        const mark = `transaction#${++opened}`;
        log.push(mark);
        const done = transaction.call(storage, (tx: unknown) => fn(timersShow(tx, mark))) as Promise<unknown>;
        inFlight.add(done);
        void done.finally(() => inFlight.delete(done)).catch(() => {});
        return done;
      };
      for (const [repo, methods] of Object.entries(storage)) {
        if (typeof methods !== 'object' || methods === null) continue;
        for (const [name, fn] of Object.entries(methods)) {
          if (typeof fn !== 'function') continue;
          const call = `${repo}.${name}`;
          methods[name] = (...args: unknown[]) => {
            if (!TIMERS.test(call)) log.push(call);
            return (fn as (...a: unknown[]) => unknown).apply(methods, args);
          };
        }
      }
      w.ward.server.on('request', (req, res) => {
        if (WATCHED.test(req.url ?? '')) res.once('finish', () => log.push('ANSWERED'));
      });
    });
    after(() => w.close());

    /** The transaction's repositories, which drop its mark from the log on a timer's call. */
    function timersShow(tx: unknown, mark: string): unknown {
      const drop = () => {
        const i = log.indexOf(mark);
        if (i >= 0) log.splice(i, 1);
      };
      return new Proxy(tx as object, {
        get(target, repo, receiver) {
          const methods = Reflect.get(target, repo, receiver) as unknown;
          if (typeof repo !== 'string' || typeof methods !== 'object' || methods === null) return methods;
          return new Proxy(methods, {
            get(m, name, r) {
              const fn = Reflect.get(m, name, r) as unknown;
              if (typeof fn !== 'function' || typeof name !== 'string') return fn;
              return (...args: unknown[]) => {
                if (TIMERS.test(`${repo}.${name}`)) drop();
                return (fn as (...a: unknown[]) => unknown).apply(m, args);
              };
            },
          });
        },
      });
    }

    /** One request: the calls before its answer and after it (until its background work is done). */
    async function watch(send: () => Promise<number>, expected: number) {
      log.length = 0;
      assert.equal(await send(), expected);
      while (!log.includes('ANSWERED')) await new Promise((r) => setImmediate(r));
      await w.ward.registry.background.drain();
      await Promise.allSettled([...inFlight]);
      const calls = log.map((c) => (c.startsWith('transaction#') ? 'transaction' : c));
      const i = calls.indexOf('ANSWERED');
      return { before: calls.slice(0, i), after: calls.slice(i + 1) };
    }

    const json = (path: string, email: string) => () =>
      postJson(w.ward, `/identity/v1/${path}`, { client_id: 'spa', email }).then((r) => r.status);
    const form = (email: string) => () =>
      w.ward
        .fetch('/identity/v1/password/forgot', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: 'spa', email }).toString(),
        })
        .then(async (r) => {
          await r.text();
          return r.status;
        });

    for (const [what, path, send, status] of [
      ['forgot-password', 'forgot-password', (e: string) => json('forgot-password', e), 204],
      ['account-recovery', 'account-recovery', (e: string) => json('account-recovery', e), 204],
      ['the hosted form', 'forgot-password', form, 200],
    ] as const) {
      it(`${what}: the same calls before the answer, the account's lookup and code after it`, async () => {
        const unknown = `nobody-${what.length}-${engine}@example.com`;
        // Once each first, so caches (the client, prepared statements) are as warm for both.
        await watch(send(unknown), status);
        await watch(send(user.email), status);
        await w.smtp.next(user.email);

        const known = await watch(send(user.email), status);
        const mail = await w.smtp.next(user.email);
        const none = await watch(send(unknown), status);

        assert.deepEqual(known.before, none.before, 'a known and an unknown address do the same before the answer');
        assert.ok(!known.before.some((c) => c.startsWith('users.')), `no lookup before the answer: ${known.before}`);
        assert.ok(known.after.includes('users.findByEmail'), `the lookup after the answer: ${known.after}`);
        assert.ok(
          known.after.includes('transaction'),
          `the code (written in a transaction) after the answer: ${known.after}`,
        );
        assert.ok(none.after.includes('users.findByEmail'), 'an unknown address is looked up too, after the answer');

        // The work still happened: the message carries a code that works.
        if (path === 'forgot-password') {
          const reset = await postJson(w.ward, '/identity/v1/update-password', {
            client_id: 'spa',
            email: user.email,
            verification_code: codeIn(mail.text),
            password: `${user.password} ${what}`,
          });
          assert.equal(reset.status, 204, JSON.stringify(reset.body));
          user.password = `${user.password} ${what}`;
          assert.match((await w.smtp.next(user.email)).subject, /password was changed/);
        } else {
          assert.match(mail.subject, /^Recover your .* account/);
          codeIn(mail.text);
        }
      });
    }
  });
}

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
 * Storage calls of Ward's own timers (janitor, change poller, audit batches, back-channel logouts, the
 * webhook sender's poll of due deliveries, every second): not the request's.
 */
const TIMERS = /^versions\.|\.deleteExpired|^audit\.|^logoutDeliveries\.|^webhookDeliveries\.claimDue$/;
const WATCHED = /^\/identity\/v1\/(forgot-password|account-recovery|password\/forgot)/;

for (const engine of engines()) {
  describe(`SS-08: forgot-password and account recovery answer before touching the account (${engine})`, () => {
    let w: MfaWard;
    let user: { id: string; email: string; password: string };
    /** The storage calls and the answer of the request under watch, in order. */
    const log: string[] = [];
    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...NO_RATE_LIMITS, self_service: { requests_per_address: { limit: 1000, window_seconds: 60 } } },
      });
      user = await signup(w.ward);
      const storage = w.ward.registry.storage as unknown as Record<string, Record<string, unknown>>;
      const transaction = storage.transaction as unknown as (...a: unknown[]) => unknown;
      (storage as Record<string, unknown>).transaction = (...args: unknown[]) => {
        log.push('transaction');
        return transaction.apply(storage, args);
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

    /** One request: the calls before its answer and after it (until its background work is done). */
    async function watch(send: () => Promise<number>, expected: number) {
      log.length = 0;
      assert.equal(await send(), expected);
      while (!log.includes('ANSWERED')) await new Promise((r) => setImmediate(r));
      await w.ward.registry.background.drain();
      const i = log.indexOf('ANSWERED');
      return { before: log.slice(0, i), after: log.slice(i + 1) };
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

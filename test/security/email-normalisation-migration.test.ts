// Issue 33, item 11 (stored addresses): emails stored before normalisation (trimmed and lower-cased
// only) that have non-ASCII characters or a trailing dot were no longer found under their address.
// At start, Ward rewrites them to the normalised form (bootstrap/stored-emails.ts): their users sign in
// with the address again, under any look-alike. An address whose normalised form is another account's
// (one made since, or an older look-alike rewritten first), or no address, is left as it is, logged at
// warn with user ids only and audited once, never merged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { normaliseStoredEmails } from '../../src/bootstrap/stored-emails.js';
import { FakeClock } from '../../src/lib/clock.js';
import { engines } from '../helpers/databases.js';
import { postJson } from '../helpers/mfa.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_RATE_LIMITS } from './support.js';

const PASSWORD = 'correct horse battery';
const OTHER_PASSWORD = 'another horse battery';

for (const engine of engines()) {
  describe(`stored addresses are rewritten to the normalised form at start (${engine})`, () => {
    let ward: TestWard;
    const ids: Record<string, string> = {};
    const clock = new FakeClock();

    before(async () => {
      ward = await startWard({
        engine,
        clock,
        clients: [PUBLIC_CLIENT],
        account: NO_RATE_LIMITS,
        // As an older version left them: signed up, then the address written in its old form.
        beforeStart: async (registry) => {
          const old = async (name: string, stored: string, password = PASSWORD) => {
            const u = await registry.users.signup({ email: `${name}@placeholder.example`, password });
            await registry.storage.users.changeAddress(u.id, 'email', stored, registry.clock.now());
            ids[name] = u.id;
          };
          await old('ada', 'ada@bücher.example');
          await old('bob', 'bob@example.com.');
          // The normalised form of cy's old address is already another account's (made since the upgrade).
          ids.holder = (
            await registry.users.signup({ email: 'cy@xn--bcher-kva.example', password: OTHER_PASSWORD })
          ).id;
          await old('cy', 'cy@bücher.example');
          await old('dee', 'dee@example.com..'); // no address once normalised
          // Two old look-alikes of one another: the older account is rewritten, the newer one left.
          clock.advance(1000);
          await old('eve', 'eve@bücher.example.', OTHER_PASSWORD);
          clock.advance(1000);
          await old('eve2', 'eve@bücher.example');
          const ada = await registry.storage.users.findById(ids.ada!);
          assert.equal(ada?.email, 'ada@bücher.example');
        },
      });
    });
    after(() => ward.close());

    const login = (email: string, password = PASSWORD) =>
      postJson(ward, '/identity/v1/password/login', { client_id: 'spa', scope: 'openid', email, password });
    const userOf = (id: string) => ward.registry.storage.users.findById(id);
    const audit = (action: string, id: string) =>
      ward.registry.storage.audit.list({ action, target: `user:${id}`, limit: 10 });

    it('the user signs in with the address and its look-alikes after the start', async () => {
      assert.equal((await userOf(ids.ada!))?.email, 'ada@xn--bcher-kva.example');
      assert.equal((await userOf(ids.bob!))?.email, 'bob@example.com');
      for (const email of ['ada@bücher.example', 'Ada@BÜCHER.example.', 'ada@xn--bcher-kva.example']) {
        const res = await login(email);
        assert.equal(res.status, 200, `${email}: ${JSON.stringify(res.body)}`);
      }
      for (const email of ['bob@example.com.', 'BOB@example.com']) {
        const res = await login(email);
        assert.equal(res.status, 200, `${email}: ${JSON.stringify(res.body)}`);
      }
      assert.equal((await audit('user.email_normalised', ids.ada!)).length, 1);
    });

    it('a collision or a non-address is left as it is, never merged, and logged with ids only', async () => {
      assert.equal((await userOf(ids.cy!))?.email, 'cy@bücher.example');
      assert.equal((await userOf(ids.holder!))?.email, 'cy@xn--bcher-kva.example');
      assert.equal((await userOf(ids.dee!))?.email, 'dee@example.com..');
      // The address names the account that has it, with that account's password only.
      assert.equal((await login('cy@bücher.example', OTHER_PASSWORD)).status, 200);
      assert.notEqual((await login('cy@bücher.example', PASSWORD)).status, 200);

      const warnings = ward.logs.filter((l) => l.includes('"emails_not_normalised"'));
      assert.equal(warnings.length, 1, 'one warning per start');
      const line = JSON.parse(warnings[0]!);
      assert.equal(line.level, 40);
      assert.equal(line.users, 3);
      assert.deepEqual(line.taken, [
        { user_id: ids.cy, reason: 'taken', holder_id: ids.holder },
        { user_id: ids.eve2, reason: 'taken', holder_id: ids.eve },
      ]);
      assert.deepEqual(line.invalid, [ids.dee]);
      assert.doesNotMatch(warnings[0]!, /bücher|xn--|example\.com|cy@|dee@/, 'no address in the log');
      const info = ward.logs.filter((l) => l.includes('"emails_normalised"'));
      assert.equal(info.length, 1);
      assert.equal(JSON.parse(info[0]!).users, 3);
      assert.equal((await userOf(ids.eve!))?.email, 'eve@xn--bcher-kva.example');
      assert.equal((await userOf(ids.eve2!))?.email, 'eve@bücher.example');
      assert.equal((await login('eve@bücher.example', OTHER_PASSWORD)).status, 200);

      const [row] = await audit('user.email_not_normalised', ids.cy!);
      assert.equal(row?.outcome, 'failed');
      assert.deepEqual(JSON.parse(row!.details), { reason: 'taken', holder: `user:${ids.holder}` });
      assert.equal((await audit('user.email_not_normalised', ids.dee!)).length, 1);
    });

    it('the next start rewrites nothing more and audits the rows left only once', async () => {
      const again = await normaliseStoredEmails(ward.registry);
      assert.equal(again.rewritten, 0);
      assert.deepEqual(again.left.map((l) => l.user_id).sort(), [ids.cy, ids.dee, ids.eve2].sort());
      assert.equal((await audit('user.email_not_normalised', ids.cy!)).length, 1);
      assert.equal((await audit('user.email_normalised', ids.ada!)).length, 1);
      assert.equal((await userOf(ids.cy!))?.email, 'cy@bücher.example');
    });
  });
}

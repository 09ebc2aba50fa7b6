// The storage side of rewriting the email addresses stored before issue 33 (bootstrap/stored-emails.ts),
// on SQLite and PostgreSQL: the filtered read finds only addresses that may differ from their
// normalised form (non-ASCII, a trailing dot), oldest first with a keyset cursor; the rewrite is
// conditional (the row still has the old address, nobody has the new one) and takes the user's email
// factor and live codes along; live codes to an old-form address of nobody are ended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import type { AccountCodeRow } from '../../src/storage/sql/account-codes.js';
import type { CredentialRow } from '../../src/storage/sql/mfa.js';
import { engines, freshDb } from '../helpers/databases.js';

const NOW = 1_800_000_000_000;

function user(id: string, email: string | null, created_at = NOW) {
  return {
    id,
    email,
    phone_number: null,
    password_hash: null,
    given_name: null,
    family_name: null,
    email_verified: true,
    phone_number_verified: false,
    role: null,
    disabled: false,
    created_at,
  };
}

function code(id: string, destination: string, over: Partial<AccountCodeRow> = {}): AccountCodeRow {
  return {
    id,
    purpose: 'verify_email',
    user_id: null,
    channel: 'email',
    destination,
    code_hmac: `hmac-${id}`,
    link_digest: `link-${id}`,
    client_id: null,
    data: '{}',
    attempts: 0,
    max_attempts: 5,
    created_at: NOW,
    code_expires_at: NOW + 900_000,
    link_expires_at: NOW + 3_600_000,
    consumed_at: null,
    superseded_at: null,
    ...over,
  };
}

const factor = (id: string, user_id: string, destination: string): CredentialRow => ({
  id,
  user_id,
  type: 'email',
  destination,
  friendly_name: null,
  verified_at: NOW,
  created_at: NOW,
});

for (const engine of engines()) {
  describe(`rewriting stored email addresses on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(() => s.close());

    const add = async (u: ReturnType<typeof user>) => {
      const { created_at, ...rest } = u;
      await s.users.create(rest, created_at);
    };

    it('lists only non-ASCII addresses and those with a trailing dot, oldest first, page by page', async () => {
      await add(user('l-ascii', 'plain@example.com', NOW));
      await add(user('l-none', null, NOW));
      await add(user('l-puny', 'ok@xn--bcher-kva.example', NOW));
      await add(user('l-c', 'c@bücher.example', NOW + 2));
      await add(user('l-b', 'b@example.com.', NOW + 1));
      await add(user('l-a2', 'ｊohn@example.org', NOW));
      await add(user('l-a1', 'josé@example.org', NOW));
      const first = await s.users.listEmailsNeedingNormalisation(null, 2);
      assert.deepEqual(
        first.map((r) => [r.id, r.email]),
        [
          ['l-a1', 'josé@example.org'],
          ['l-a2', 'ｊohn@example.org'],
        ],
      );
      const last = first[1]!;
      const rest = await s.users.listEmailsNeedingNormalisation({ created_at: last.created_at, id: last.id }, 10);
      assert.deepEqual(
        rest.map((r) => r.id),
        ['l-b', 'l-c'],
      );
      assert.equal(rest[0]?.created_at, NOW + 1);
    });

    it('rewrites a row that still has the old address, with its email factor and live codes', async () => {
      await add(user('r-1', 'ann@bücher.example'));
      await s.mfaCredentials.insert(factor('f-1', 'r-1', 'ann@bücher.example'));
      await s.accountCodes.issue(code('c-live', 'ann@bücher.example', { user_id: 'r-1' }), NOW);
      await s.accountCodes.issue(code('c-used', 'ann@bücher.example', { purpose: 'reset', consumed_at: NOW }), NOW);
      const to = 'ann@xn--bcher-kva.example';
      assert.equal(await s.transaction((tx) => tx.users.rewriteEmail('r-1', 'ann@bücher.example', to, NOW + 5)), true);
      const u = await s.users.findByEmail(to);
      assert.equal(u?.id, 'r-1');
      assert.equal(u?.email_verified, true, 'the same mailbox: still verified');
      assert.equal(u?.updated_at, NOW + 5);
      assert.equal((await s.mfaCredentials.find('f-1'))?.destination, to);
      assert.deepEqual(
        (await s.accountCodes.liveForAddress('verify_email', to)).map((c) => c.id),
        ['c-live'],
      );
      assert.equal((await s.accountCodes.findByLink('link-c-used'))?.destination, 'ann@bücher.example');
      // Done once: the old address is no longer there to rewrite.
      assert.equal(await s.users.rewriteEmail('r-1', 'ann@bücher.example', to, NOW + 6), false);
    });

    it('never takes an address another user has: the row stays as it is', async () => {
      await add(user('t-new', 'bob@xn--bcher-kva.example'));
      await add(user('t-old', 'bob@bücher.example'));
      await s.mfaCredentials.insert(factor('f-t', 't-old', 'bob@bücher.example'));
      const ok = await s.users.rewriteEmail('t-old', 'bob@bücher.example', 'bob@xn--bcher-kva.example', NOW);
      assert.equal(ok, false);
      assert.equal((await s.users.findById('t-old'))?.email, 'bob@bücher.example');
      assert.equal((await s.users.findById('t-new'))?.email, 'bob@xn--bcher-kva.example');
      assert.equal((await s.mfaCredentials.find('f-t'))?.destination, 'bob@bücher.example');
    });

    it('ends live codes to an old-form address of nobody, not those of a user nor ASCII ones', async () => {
      await add(user('e-1', 'eve@straße.example'));
      await s.accountCodes.issue(code('e-user', 'eve@straße.example', { user_id: 'e-1' }), NOW);
      await s.accountCodes.issue(code('e-nobody', 'new@straße.example', { purpose: 'change_email' }), NOW);
      await s.accountCodes.issue(code('e-dot', 'new@example.net.', { purpose: 'passwordless' }), NOW);
      await s.accountCodes.issue(code('e-ascii', 'new@example.net', { purpose: 'passwordless' }), NOW);
      assert.equal(await s.accountCodes.supersedeLiveToUnnormalisedEmails(NOW + 1), 2);
      const state = async (id: string) => (await s.accountCodes.findByLink(`link-${id}`))?.superseded_at ?? null;
      assert.equal(await state('e-nobody'), NOW + 1);
      assert.equal(await state('e-dot'), NOW + 1);
      assert.equal(await state('e-user'), null);
      assert.equal(await state('e-ascii'), null);
      assert.equal(await s.accountCodes.supersedeLiveToUnnormalisedEmails(NOW + 2), 0, 'idempotent');
    });
  });
}

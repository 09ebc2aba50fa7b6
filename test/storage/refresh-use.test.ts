// The storage contract of useRefreshToken (storage/sql/tokens.ts), on SQLite and (when
// WARD_TEST_DATABASE_URL is set) PostgreSQL, where it is one statement: a refresh token is read with
// its grant and user, and rotated in the same call only when it may be used (unused, its client, a
// live grant, a user who is there and not disabled, the grant's DPoP key if it has one). A refused use
// changes nothing; of concurrent uses exactly one rotates; the successor is the token's own kind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';
import { grantRow, userRow } from '../helpers/storage-rows.js';

for (const engine of engines()) {
  describe(`useRefreshToken on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());

    const now = 1_700_000_000_000;
    let n = 0;
    /** A user, a grant of theirs (to client `spa`) and an unused refresh token of it; the token's digest. */
    async function token(grant: { expires_at?: number; revoked_at?: number | null; jkt?: string } = {}) {
      const id = `${engine}-${++n}`;
      await s.users.create(userRow(`u-${id}`, { email: `use-${id}@example.com` }), now);
      await s.tokens.createGrant(
        grantRow(`g-${id}`, `u-${id}`, now, {
          ...(grant.expires_at === undefined ? {} : { expires_at: grant.expires_at }),
          ...(grant.revoked_at === undefined ? {} : { revoked_at: grant.revoked_at }),
        }),
      );
      if (grant.jkt) await s.tokens.bindGrantKey(`g-${id}`, grant.jkt);
      await s.tokens.insertRefreshToken({
        digest: `r-${id}`,
        grant_id: `g-${id}`,
        client_id: 'spa',
        user_id: `u-${id}`,
        scope: 'openid offline_access',
        created_at: now,
        consumed_at: null,
      });
      return { digest: `r-${id}`, user: `u-${id}`, grant: `g-${id}` };
    }
    const use = (digest: string, o: { clientId?: string; jkt?: string | null; next?: string; at?: number } = {}) =>
      s.tokens.useRefreshToken(digest, {
        clientId: o.clientId ?? 'spa',
        now: o.at ?? now + 1,
        jkt: o.jkt ?? null,
        nextDigest: o.next ?? `${digest}-next`,
      });
    const unused = async (digest: string) => (await s.tokens.findRefreshToken(digest))?.consumed_at === null;

    it('reads and rotates a usable token: the row as it was, the successor of the same grant', async () => {
      const t = await token();
      const { row, rotated } = await use(t.digest);
      assert.equal(rotated, true);
      assert.equal(row?.consumed_at, null, 'the row as read, before the use');
      assert.equal(row?.user?.id, t.user);
      assert.equal(row?.user?.email_verified, true);
      assert.equal(row?.grant_id, t.grant);
      assert.equal(row?.grant_amr, '["pwd"]');
      assert.equal((await s.tokens.findRefreshToken(t.digest))?.consumed_at, now + 1);
      assert.deepEqual(await s.tokens.findRefreshToken(`${t.digest}-next`), {
        digest: `${t.digest}-next`,
        grant_id: t.grant,
        client_id: 'spa',
        user_id: t.user,
        scope: 'openid offline_access',
        created_at: now + 1,
        consumed_at: null,
      });
      const again = await use(t.digest, { next: `${t.digest}-again` });
      assert.equal(again.rotated, false, 'a used token rotates no more');
      assert.equal(again.row?.consumed_at, now + 1);
      assert.equal(await s.tokens.findRefreshToken(`${t.digest}-again`), undefined);
      assert.equal((await use(`${t.digest}-next`)).rotated, true, 'the successor is usable');
    });

    it('an unknown token: no row, nothing stored', async () => {
      assert.deepEqual(await use('nobody', { next: 'nobody-next' }), { row: undefined, rotated: false });
      assert.equal(await s.tokens.findRefreshToken('nobody-next'), undefined);
    });

    it('refuses without a change: another client, a dead grant, a disabled user, the wrong DPoP key', async () => {
      const other = await token();
      const revoked = await token({ revoked_at: now });
      const expired = await token({ expires_at: now + 1 });
      const disabled = await token();
      await s.users.setDisabled(disabled.user, true, now);
      const bound = await token({ jkt: 'key-a' });
      const refusals: Array<[string, Parameters<typeof use>[1]]> = [
        [other.digest, { clientId: 'another' }],
        [revoked.digest, {}],
        [expired.digest, {}],
        [disabled.digest, {}],
        [bound.digest, {}],
        [bound.digest, { jkt: 'key-b' }],
      ];
      for (const [digest, o] of refusals) {
        const { row, rotated } = await use(digest, o);
        assert.equal(rotated, false, `${digest} ${JSON.stringify(o)}`);
        assert.ok(row, 'the row is read all the same');
        assert.ok(await unused(digest), 'the token is still unused');
        assert.equal(await s.tokens.findRefreshToken(`${digest}-next`), undefined, 'no successor');
      }
      assert.equal((await use(disabled.digest)).row?.user?.disabled, true);
      assert.equal((await use(bound.digest)).row?.grant_dpop_jkt, 'key-a');
      assert.equal((await use(bound.digest, { jkt: 'key-a' })).rotated, true, 'its own key uses it');
    });

    it('of twenty concurrent uses exactly one rotates, and only its successor is stored', async () => {
      const t = await token();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => use(t.digest, { next: `${t.digest}-c${i}` })),
      );
      const winners = results.flatMap((r, i) => (r.rotated ? [i] : []));
      assert.equal(winners.length, 1);
      for (let i = 0; i < 20; i++)
        assert.equal(
          (await s.tokens.findRefreshToken(`${t.digest}-c${i}`))?.consumed_at,
          i === winners[0] ? null : undefined,
        );
    });
  });
}

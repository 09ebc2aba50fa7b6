import type { GrantRow } from './tokens.js';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DeviceAuthorizationsTable } from '../schema.js';

export type DeviceAuthorizationRow = Selectable<DeviceAuthorizationsTable>;
export type DeviceStatus = 'pending' | 'approved' | 'denied' | 'consumed';

/**
 * Device authorization requests (RFC 8628, protocol/device/). Every change of status is one
 * conditional update, so of two concurrent answers (two approvals, two polls redeeming one approval)
 * exactly one wins.
 */
export function deviceAuthorizationsRepo(db: Kysely<Database>) {
  const setStatus = async (
    id: string,
    from: DeviceStatus,
    to: Partial<Pick<DeviceAuthorizationRow, 'status' | 'user_id' | 'grant_id'>>,
    now: number,
  ): Promise<boolean> => {
    const r = await db
      .updateTable('device_authorizations')
      .set(to)
      .where('id', '=', id)
      .where('status', '=', from)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  };
  return {
    async insert(row: DeviceAuthorizationRow): Promise<void> {
      await db.insertInto('device_authorizations').values(row).execute();
    },

    findById: (id: string): Promise<DeviceAuthorizationRow | undefined> =>
      db.selectFrom('device_authorizations').selectAll().where('id', '=', id).executeTakeFirst(),

    findByDeviceCode: (digest: string): Promise<DeviceAuthorizationRow | undefined> =>
      db.selectFrom('device_authorizations').selectAll().where('device_code_digest', '=', digest).executeTakeFirst(),

    /** The live request a user code names (none once expired). */
    findLiveByUserCode: (digest: string, now: number): Promise<DeviceAuthorizationRow | undefined> =>
      db
        .selectFrom('device_authorizations')
        .selectAll()
        .where('user_code_digest', '=', digest)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .executeTakeFirst(),

    /** Records a poll; a poll sooner than the interval (`slowDown`) adds 5 seconds to it (RFC 8628 3.5). */
    async polled(id: string, now: number, slowDown: boolean): Promise<void> {
      await db
        .updateTable('device_authorizations')
        .set((eb) => ({
          last_polled_at: now,
          ...(slowDown ? { interval_seconds: eb('interval_seconds', '+', 5) } : {}),
        }))
        .where('id', '=', id)
        .execute();
    },

    /**
     * The user approved: the request names the grant, created right after (the winner only); false
     * when no longer pending. No transaction (the caller may be in one already): a grant that failed
     * to be stored leaves an approval no poll can redeem (invalid_grant), never tokens without a grant.
     */
    async approve(id: string, grant: GrantRow, now: number): Promise<boolean> {
      if (!(await setStatus(id, 'pending', { status: 'approved', user_id: grant.user_id, grant_id: grant.id }, now)))
        return false;
      await db.insertInto('grants').values(grant).execute();
      return true;
    },

    /** The user denied it (or cancelled the sign-in); false when no longer pending. */
    deny: (id: string, userId: string | null, now: number) =>
      setStatus(id, 'pending', { status: 'denied', user_id: userId }, now),

    /** Deletes the requests that expired before `before` (the janitor, storage/change-poller.ts). */
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('device_authorizations').where('expires_at', '<', before).execute();
    },

    /** The device redeemed the approval: true for exactly one poll. */
    consume: (id: string, now: number) => setStatus(id, 'approved', { status: 'consumed' }, now),
  };
}

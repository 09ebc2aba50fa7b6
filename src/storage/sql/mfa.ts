import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChallengesTable, Database, MfaCredentialsTable, StepUpsTable, TrustedDevicesTable } from '../schema.js';

export type CredentialRow = Selectable<MfaCredentialsTable> & { type: 'email' | 'sms' };
export type StepUpRow = Selectable<StepUpsTable>;
export type ChallengeRow = Selectable<ChallengesTable>;
export type TrustedDeviceRow = Selectable<TrustedDevicesTable>;

/** Second factors of users: pending until their code is verified. */
export function credentialsRepo(db: Kysely<Database>) {
  return {
    async listOfUser(userId: string): Promise<CredentialRow[]> {
      return (await db.selectFrom('mfa_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()) as CredentialRow[];
    },
    async find(id: string): Promise<CredentialRow | undefined> {
      return (await db.selectFrom('mfa_credentials').selectAll().where('id', '=', id).executeTakeFirst()) as CredentialRow | undefined;
    },
    async findOne(userId: string, type: string, destination: string): Promise<CredentialRow | undefined> {
      return (await db.selectFrom('mfa_credentials').selectAll().where('user_id', '=', userId).where('type', '=', type).where('destination', '=', destination).executeTakeFirst()) as CredentialRow | undefined;
    },
    async insert(c: CredentialRow): Promise<void> {
      await db.insertInto('mfa_credentials').values(c).execute();
    },
    /** Inserts a pending factor unless the user already has it (parallel requests: one row); answers the stored row. */
    async insertIfAbsent(c: CredentialRow): Promise<CredentialRow> {
      await db.insertInto('mfa_credentials').values(c).onConflict((oc) => oc.columns(['user_id', 'type', 'destination']).doNothing()).execute();
      return (await db.selectFrom('mfa_credentials').selectAll().where('user_id', '=', c.user_id).where('type', '=', c.type).where('destination', '=', c.destination).executeTakeFirstOrThrow()) as CredentialRow;
    },
    async markVerified(id: string, now: number): Promise<void> {
      await db.updateTable('mfa_credentials').set({ verified_at: now }).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<boolean> {
      const r = await db.deleteFrom('mfa_credentials').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}

/** step_up tokens: bound to user, client and OAuth parameters; reused for new codes, consumed once. */
export function stepUpsRepo(db: Kysely<Database>) {
  return {
    async insert(s: StepUpRow): Promise<void> {
      await db.insertInto('step_ups').values(s).execute();
    },
    async findLive(digest: string, now: number): Promise<StepUpRow | undefined> {
      return db.selectFrom('step_ups').selectAll().where('digest', '=', digest).where('consumed_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    },
    /** Counts one more code request on a live step_up token; returns the new count (atomic). */
    async countRequest(digest: string, now: number): Promise<number | undefined> {
      const r = await db
        .updateTable('step_ups')
        .set({ requests: sql<number>`requests + 1` })
        .where('digest', '=', digest)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('requests')
        .executeTakeFirst();
      return r ? Number(r.requests) : undefined;
    },
    /** Uses the token up: exactly one concurrent caller wins. */
    async consume(digest: string, now: number): Promise<StepUpRow | undefined> {
      return db.updateTable('step_ups').set({ consumed_at: now }).where('digest', '=', digest).where('consumed_at', 'is', null).returningAll().executeTakeFirst();
    },
  };
}

/** Verification challenges: the code only as an HMAC, an attempt counter, single use. */
export function challengesRepo(db: Kysely<Database>) {
  return {
    async insert(c: ChallengeRow): Promise<void> {
      await db.insertInto('challenges').values(c).execute();
    },
    /**
     * Row locks held until the transaction ends (a no-op UPDATE, portable): PostgreSQL serialises
     * the writers of one step_up token, or of one user's registrations; SQLite runs one transaction at a time anyway.
     */
    async lockStepUp(stepUpDigest: string): Promise<void> {
      await db.updateTable('step_ups').set({ requests: sql<number>`requests` }).where('digest', '=', stepUpDigest).execute();
    },
    async lockUser(userId: string): Promise<void> {
      await db.updateTable('users').set({ id: sql<string>`id` }).where('id', '=', userId).execute();
    },
    /** A new code kills the previous ones of the same step_up token (or registration). */
    async supersedeStepUp(stepUpDigest: string, now: number): Promise<void> {
      await db.updateTable('challenges').set({ superseded_at: now }).where('step_up_digest', '=', stepUpDigest).where('superseded_at', 'is', null).where('consumed_at', 'is', null).execute();
    },
    async supersedeRegistrations(userId: string, channel: string, now: number): Promise<void> {
      await db.updateTable('challenges').set({ superseded_at: now }).where('user_id', '=', userId).where('purpose', '=', 'register').where('channel', '=', channel).where('superseded_at', 'is', null).where('consumed_at', 'is', null).execute();
    },
    async supersede(id: string, now: number): Promise<void> {
      await db.updateTable('challenges').set({ superseded_at: now }).where('id', '=', id).execute();
    },
    /** The live registration challenge of a user for a channel (the newest). */
    async liveRegistration(userId: string, channel: string, now: number): Promise<ChallengeRow | undefined> {
      return db
        .selectFrom('challenges').selectAll()
        .where('user_id', '=', userId).where('purpose', '=', 'register').where('channel', '=', channel)
        .where('superseded_at', 'is', null).where('consumed_at', 'is', null).where('expires_at', '>', now)
        .orderBy('created_at', 'desc').executeTakeFirst();
    },
    /**
     * Counts an attempt before any compare, as its own atomic statement (Kratos's rule): the row as
     * it is after the increment, so N parallel guesses see attempts 1..N. The same statement reads
     * the user's failure counter for the window (`rate_counters` at `failureBucketPrefix` + user id):
     * one round trip for both.
     */
    async countAttempt(id: string, failureBucketPrefix: string, windowStart: number): Promise<(ChallengeRow & { failures: number }) | undefined> {
      const row = await db
        .updateTable('challenges').set({ attempts: sql<number>`attempts + 1` }).where('id', '=', id)
        .returningAll()
        .returning(sql<number>`coalesce((select rc.count from rate_counters rc where rc.bucket = ${failureBucketPrefix} || challenges.user_id and rc.window_start = ${windowStart}), 0)`.as('failures'))
        .executeTakeFirst();
      return row && { ...row, failures: Number(row.failures) };
    },
    /** Marks the challenge used: exactly one concurrent caller wins. */
    async consume(id: string, now: number): Promise<boolean> {
      const r = await db.updateTable('challenges').set({ consumed_at: now }).where('id', '=', id).where('consumed_at', 'is', null).where('superseded_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}

/** Devices a user chose to trust after a step-up: a cookie digest, a lifetime, revocable. */
export function trustedDevicesRepo(db: Kysely<Database>) {
  return {
    async insert(d: TrustedDeviceRow): Promise<void> {
      await db.insertInto('trusted_devices').values(d).execute();
    },
    async findLive(digest: string, now: number): Promise<TrustedDeviceRow | undefined> {
      return db.selectFrom('trusted_devices').selectAll().where('digest', '=', digest).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    },
    async listOfUser(userId: string, now: number): Promise<TrustedDeviceRow[]> {
      return db.selectFrom('trusted_devices').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now).orderBy('created_at').execute();
    },
    async revoke(id: string, userId: string, now: number): Promise<boolean> {
      const r = await db.updateTable('trusted_devices').set({ revoked_at: now }).where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async revokeAllOfUser(userId: string, now: number): Promise<number> {
      const r = await db.updateTable('trusted_devices').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

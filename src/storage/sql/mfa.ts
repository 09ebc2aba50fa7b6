import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { ChallengesTable, Database, MfaCredentialsTable, StepUpsTable, TrustedDevicesTable } from '../schema.js';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import { INTERACTION_COLUMNS, insertInteraction, type InteractionRow } from './interactions.js';
import { splitPrefixed } from './joined-columns.js';
import { JOINED_USER, splitJoinedUser, userSubqueries, type JoinedUserColumns, type User } from './users.js';

/** A factor: a code sent by email or SMS, or an authenticator app (`totp`, its secret in strong-factors.ts). */
export type CredentialRow = Selectable<MfaCredentialsTable> & { type: 'email' | 'sms' | 'totp' };
export type StepUpRow = Selectable<StepUpsTable>;
export type ChallengeRow = Selectable<ChallengesTable>;
export type TrustedDeviceRow = Selectable<TrustedDevicesTable>;

/** Second factors of users: pending until their code is verified. */
export function credentialsRepo(db: Kysely<Database>) {
  return {
    async listOfUser(userId: string): Promise<CredentialRow[]> {
      return (await db
        .selectFrom('mfa_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()) as CredentialRow[];
    },
    async find(id: string): Promise<CredentialRow | undefined> {
      return (await db.selectFrom('mfa_credentials').selectAll().where('id', '=', id).executeTakeFirst()) as
        | CredentialRow
        | undefined;
    },
    async findOne(userId: string, type: string, destination: string): Promise<CredentialRow | undefined> {
      return (await db
        .selectFrom('mfa_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .where('destination', '=', destination)
        .executeTakeFirst()) as CredentialRow | undefined;
    },
    async insert(c: CredentialRow): Promise<void> {
      await db.insertInto('mfa_credentials').values(c).execute();
    },
    /** Inserts a pending factor unless the user already has it (parallel requests: one row); answers the stored row. */
    async insertIfAbsent(c: CredentialRow): Promise<CredentialRow> {
      await db
        .insertInto('mfa_credentials')
        .values(c)
        .onConflict((oc) => oc.columns(['user_id', 'type', 'destination']).doNothing())
        .execute();
      return (await db
        .selectFrom('mfa_credentials')
        .selectAll()
        .where('user_id', '=', c.user_id)
        .where('type', '=', c.type)
        .where('destination', '=', c.destination)
        .executeTakeFirstOrThrow()) as CredentialRow;
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

/** Since when a user has a verified factor of each type (null: none), and their unused recovery codes. */
export type FactorsSince = Record<'email' | 'sms' | 'totp', number | null> & { recovery: number };

/** `from mfa_credentials` rows of the user `userId` names that are verified (of one type, if given). */
const verifiedOf = (userId: RawBuilder<unknown>, type?: string) =>
  sql`from mfa_credentials m where m.user_id = ${userId} and m.verified_at is not null${
    type === undefined ? sql`` : sql` and m.type = ${type}`
  }`;
const enabledUser = (userId: RawBuilder<unknown>) =>
  sql<boolean>`exists (select 1 from users u where u.id = ${userId} and u.disabled = 0)`;
const ofStepUp = sql.ref('step_ups.user_id');

const STEP_UP_COLUMNS = columnsOf<StepUpRow>()(
  'digest',
  'user_id',
  'client_id',
  'params',
  'base_amr',
  'interaction_digest',
  'requests',
  'created_at',
  'expires_at',
  'consumed_at',
);

/** The step_up's user, read back in the RETURNING of its consume. */
const USER_OF_STEP_UP = userSubqueries('step_ups.user_id');

const sinceOf = (type: string) => sql<number | null>`(select min(m.created_at) ${verifiedOf(ofStepUp, type)})`;
// INSERT ... SELECT: PostgreSQL types a parameter in a select list as text, so each one is cast to its column's type.
const stepUpInsert = (s: StepUpRow) => sql<FactorsSince>`insert into step_ups
    (digest, user_id, client_id, params, base_amr, interaction_digest, requests, created_at, expires_at, consumed_at)
  select cast(${s.digest} as text), users.id, cast(${s.client_id} as text), cast(${s.params} as text),
    cast(${s.base_amr} as text), cast(${s.interaction_digest} as text),
    cast(${s.requests} as integer), cast(${s.created_at} as bigint), cast(${s.expires_at} as bigint),
    cast(${s.consumed_at} as bigint)
  from users where users.id = ${s.user_id} and users.disabled = 0
    and (exists (select 1 ${verifiedOf(sql.ref('users.id'))})
      or exists (select 1 from passkeys p where p.user_id = users.id and p.second_factor = 1))
  returning ${sinceOf('email')} as email, ${sinceOf('sms')} as sms, ${sinceOf('totp')} as totp,
    (select count(*) from mfa_recovery_codes rc where rc.user_id = step_ups.user_id and rc.used_at is null) as recovery`;
const insertForLiveUser = prepared((_q, s: StepUpRow) => stepUpInsert(s), { 0: STEP_UP_COLUMNS });
// PostgreSQL: the step_up and the interaction it continues in one statement (data-modifying CTEs); the
// interaction is stored only when the step_up was.
const insertForLiveUserWithInteraction = prepared(
  (_q, s: StepUpRow, i: InteractionRow) => sql<FactorsSince>`with s as (${stepUpInsert(s)}),
  i as (insert into interactions
      (digest, client_id, request, browser, step, user_id, amr, auth_time, created_at, expires_at)
    select cast(${i.digest} as text), cast(${i.client_id} as text), cast(${i.request} as text),
      cast(${i.browser} as text), cast(${i.step} as text), cast(${i.user_id} as text), cast(${i.amr} as text),
      cast(${i.auth_time} as bigint), cast(${i.created_at} as bigint), cast(${i.expires_at} as bigint)
    where exists (select 1 from s))
  select email, sms, totp, recovery from s`,
  { 0: STEP_UP_COLUMNS, 1: INTERACTION_COLUMNS },
);
const claimRequest = prepared((q, digest: string, now: number, type: string) =>
  q
    .updateTable('step_ups')
    .set({ requests: sql<number>`requests + 1` })
    .where('digest', '=', digest)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where(enabledUser(ofStepUp))
    .where(sql<boolean>`exists (select 1 ${verifiedOf(ofStepUp, type)})`)
    .returning(['user_id', 'requests', 'expires_at'])
    .returning(
      sql<string>`(select m.destination ${verifiedOf(ofStepUp, type)} order by m.created_at limit 1)`.as('destination'),
    ),
);
const consumeWithUserQ = prepared((q, digest: string, now: number) =>
  q
    .updateTable('step_ups')
    .set({ consumed_at: now })
    .where('digest', '=', digest)
    .where('consumed_at', 'is', null)
    .returningAll()
    .returning(USER_OF_STEP_UP),
);

// The API step-up's interaction (step 'stepup', bound to no browser): its step_up token is its only handle, so
// using the token up (exactly one caller) ends it; it is read, not written.
const API_STEP_UP_INTERACTION = sql<boolean>`i.step = 'stepup' and i.browser is null`;
// PostgreSQL: the consume, its user and its live interaction in one statement.
const TAKEN_COLUMNS = sql.raw(INTERACTION_COLUMNS.map((c) => `i.${c} as taken_${c}`).join(', '));
const consumeWithInteractionQ = prepared(
  (_q, digest: string, now: number) => sql<StepUpRow & JoinedUserColumns & TakenColumns>`with
  s as (update step_ups set consumed_at = ${now} where digest = ${digest} and consumed_at is null returning *)
  select s.*, ${sql.raw(JOINED_USER.join(', '))}, ${TAKEN_COLUMNS}
  from s left join users on users.id = s.user_id
    left join user_profiles on user_profiles.user_id = s.user_id
    left join interactions i on i.digest = s.interaction_digest and i.expires_at > ${now}
      and ${API_STEP_UP_INTERACTION}`,
);
// SQLite: the same interaction, read after the consume.
const liveApiStepUpInteraction = prepared((q, digest: string, now: number) =>
  q
    .selectFrom('interactions as i')
    .selectAll()
    .where('i.digest', '=', digest)
    .where('i.expires_at', '>', now)
    .where(API_STEP_UP_INTERACTION),
);

const TAKEN_KEYS: ReadonlySet<keyof TakenColumns> = new Set(INTERACTION_COLUMNS.map((c) => `taken_${c}` as const));

type TakenColumns = { [K in keyof InteractionRow as `taken_${K}`]: InteractionRow[K] | null };

const orNull = (v: number | null) => (v === null ? null : Number(v));
const sinceOfRows = ([r]: FactorsSince[]): FactorsSince | undefined =>
  r && { email: orNull(r.email), sms: orNull(r.sms), totp: orNull(r.totp), recovery: Number(r.recovery) };

/** The interaction of a row read with TAKEN_COLUMNS (undefined when none was found), and the row without them. */
function splitTaken<R extends TakenColumns>(row: R) {
  const { part, rest } = splitPrefixed(row, 'taken_', INTERACTION_COLUMNS, TAKEN_KEYS, 'digest');
  return { taken: (part ?? undefined) as InteractionRow | undefined, rest };
}

/** step_up tokens: bound to user, client and OAuth parameters; reused for new codes, consumed once. */
export function stepUpsRepo(db: Kysely<Database>, engine: Engine) {
  const insertStepUp = async (s: StepUpRow) => sinceOfRows((await insertForLiveUser(db, engine, s)).rows);
  async function consumeWithUser(
    digest: string,
    now: number,
  ): Promise<(StepUpRow & { user: User | undefined }) | undefined> {
    const [r] = (await consumeWithUserQ(db, engine, digest, now)).rows as Array<StepUpRow & JoinedUserColumns>;
    if (!r) return undefined;
    const { user, rest: row } = splitJoinedUser(r);
    return { ...row, user };
  }
  return {
    async insert(s: StepUpRow): Promise<void> {
      await db.insertInto('step_ups').values(s).execute();
    },
    /**
     * Inserts the token only if its user exists, is not disabled and has a verified factor; answers
     * since when the user has each factor type, or undefined when nothing was inserted. With
     * `interaction`, the interaction the token continues is stored too, only when the token is: one
     * statement on PostgreSQL, two on SQLite.
     */
    async insertForLiveUser(s: StepUpRow, interaction?: InteractionRow): Promise<FactorsSince | undefined> {
      if (!interaction) return insertStepUp(s);
      if (engine === 'postgres')
        return sinceOfRows((await insertForLiveUserWithInteraction(db, engine, s, interaction)).rows);
      const since = await insertStepUp(s);
      if (since) await insertInteraction(db, engine, interaction);
      return since;
    },
    async findLive(digest: string, now: number): Promise<StepUpRow | undefined> {
      return db
        .selectFrom('step_ups')
        .selectAll()
        .where('digest', '=', digest)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },
    /**
     * Counts one more code request on a live token whose user is enabled and has a verified factor
     * of `type`; answers the new count and that factor's destination (the oldest), or undefined and
     * counts nothing. In a transaction, the row stays locked until it ends.
     */
    async claimRequest(
      digest: string,
      now: number,
      type: string,
    ): Promise<{ user_id: string; requests: number; expires_at: number; destination: string } | undefined> {
      const [r] = (await claimRequest(db, engine, digest, now, type)).rows;
      return r && { ...r, requests: Number(r.requests), expires_at: Number(r.expires_at) };
    },
    /** Uses the token up: exactly one concurrent caller wins. */
    async consume(digest: string, now: number): Promise<StepUpRow | undefined> {
      return db
        .updateTable('step_ups')
        .set({ consumed_at: now })
        .where('digest', '=', digest)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },
    /** consume, with the token's user read in the same statement (undefined if gone). */
    consumeWithUser,
    /**
     * consumeWithUser, and the live interaction of an API step-up that the token continues (undefined
     * when it expired, or when the token continues another kind: a hosted sign-in's). The token is that
     * interaction's only handle, so exactly one caller gets it. One statement on PostgreSQL, two on SQLite.
     */
    async consumeWithInteraction(
      digest: string,
      now: number,
    ): Promise<(StepUpRow & { user: User | undefined; interaction: InteractionRow | undefined }) | undefined> {
      if (engine !== 'postgres') {
        const stepUp = await consumeWithUser(digest, now);
        if (!stepUp) return undefined;
        const interaction = stepUp.interaction_digest
          ? (await liveApiStepUpInteraction(db, engine, stepUp.interaction_digest, now)).rows[0]
          : undefined;
        return { ...stepUp, interaction };
      }
      const [r] = (await consumeWithInteractionQ(db, engine, digest, now)).rows;
      if (!r) return undefined;
      const { taken: interaction, rest } = splitTaken(r);
      const { user, rest: row } = splitJoinedUser(rest);
      return { ...row, user, interaction };
    },
  };
}

/** Verification challenges: the code only as an HMAC, an attempt counter, single use. */
const countAttempt = prepared((q, id: string, failureBucketPrefix: string, windowStart: number) =>
  q
    .updateTable('challenges')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', id)
    .returningAll()
    .returning(
      sql<number>`coalesce((select rc.count from rate_counters rc
        where rc.bucket = ${failureBucketPrefix} || challenges.user_id and rc.window_start = ${windowStart}), 0)`.as(
        'failures',
      ),
    ),
);

const CHALLENGE_COLUMNS = columnsOf<ChallengeRow>()(
  'id',
  'user_id',
  'purpose',
  'step_up_digest',
  'credential_id',
  'channel',
  'destination',
  'code_hmac',
  'attempts',
  'max_attempts',
  'created_at',
  'expires_at',
  'consumed_at',
  'superseded_at',
);
const insertChallenge = prepared((q, c: ChallengeRow) => q.insertInto('challenges').values(c), {
  0: CHALLENGE_COLUMNS,
});
const supersedeStepUp = prepared((q, stepUpDigest: string, now: number) =>
  q
    .updateTable('challenges')
    .set({ superseded_at: now })
    .where('step_up_digest', '=', stepUpDigest)
    .where('superseded_at', 'is', null)
    .where('consumed_at', 'is', null),
);
const consumeChallenge = prepared((q, id: string, now: number) =>
  q
    .updateTable('challenges')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('superseded_at', 'is', null),
);

export function challengesRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async insert(c: ChallengeRow): Promise<void> {
      await insertChallenge(db, engine, c);
    },
    /**
     * A row lock held until the transaction ends (a no-op UPDATE, portable): PostgreSQL serialises
     * the writers of one user's registrations; SQLite runs one transaction at a time anyway.
     */
    async lockUser(userId: string): Promise<void> {
      await db.updateTable('users').set({ id: sql<string>`id` }).where('id', '=', userId).execute();
    },
    /** A new code kills the previous ones of the same step_up token (or registration). */
    async supersedeStepUp(stepUpDigest: string, now: number): Promise<void> {
      await supersedeStepUp(db, engine, stepUpDigest, now);
    },
    async supersedeRegistrations(userId: string, channel: string, now: number): Promise<void> {
      await db
        .updateTable('challenges')
        .set({ superseded_at: now })
        .where('user_id', '=', userId)
        .where('purpose', '=', 'register')
        .where('channel', '=', channel)
        .where('superseded_at', 'is', null)
        .where('consumed_at', 'is', null)
        .execute();
    },
    async supersede(id: string, now: number): Promise<void> {
      await db.updateTable('challenges').set({ superseded_at: now }).where('id', '=', id).execute();
    },
    /** The live registration challenge of a user for a channel (the newest). */
    async liveRegistration(userId: string, channel: string, now: number): Promise<ChallengeRow | undefined> {
      return db
        .selectFrom('challenges')
        .selectAll()
        .where('user_id', '=', userId)
        .where('purpose', '=', 'register')
        .where('channel', '=', channel)
        .where('superseded_at', 'is', null)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },
    /**
     * Counts an attempt before any compare, as its own atomic statement (Kratos's rule): the row as
     * it is after the increment, so N parallel guesses see attempts 1..N. The same statement reads
     * the user's failure counter for the window (`rate_counters` at `failureBucketPrefix` + user id):
     * one round trip for both.
     */
    async countAttempt(
      id: string,
      failureBucketPrefix: string,
      windowStart: number,
    ): Promise<(ChallengeRow & { failures: number }) | undefined> {
      const [row] = (await countAttempt(db, engine, id, failureBucketPrefix, windowStart)).rows;
      return row && { ...row, failures: Number(row.failures) };
    },
    /** Marks the challenge used: exactly one concurrent caller wins. */
    async consume(id: string, now: number): Promise<boolean> {
      return Number((await consumeChallenge(db, engine, id, now)).numAffectedRows) === 1;
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
      return db
        .selectFrom('trusted_devices')
        .selectAll()
        .where('digest', '=', digest)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },
    async listOfUser(userId: string, now: number): Promise<TrustedDeviceRow[]> {
      return db
        .selectFrom('trusted_devices')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .execute();
    },
    async revoke(id: string, userId: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('trusted_devices')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async revokeAllOfUser(userId: string, now: number): Promise<number> {
      const r = await db
        .updateTable('trusted_devices')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MfaRecoveryCodesTable, MfaTotpSecretsTable } from '../schema.js';

export type TotpSecretRow = Selectable<MfaTotpSecretsTable>;
export type RecoveryCodeRow = Selectable<MfaRecoveryCodesTable>;

/** The sealed secrets of TOTP factors (one per `mfa_credentials` row of type `totp`). */
export function totpSecretsRepo(db: Kysely<Database>) {
  return {
    /** Stores the secret of a (pending) factor, replacing one not verified yet; the step is reset. */
    async put(row: TotpSecretRow): Promise<void> {
      await db
        .insertInto('mfa_totp_secrets')
        .values(row)
        .onConflict((oc) =>
          oc.column('credential_id').doUpdateSet({
            secret_sealed: row.secret_sealed,
            last_step: row.last_step,
            created_at: row.created_at,
          }),
        )
        .execute();
    },
    async find(credentialId: string): Promise<TotpSecretRow | undefined> {
      return db.selectFrom('mfa_totp_secrets').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    },
    /**
     * Records that a code of time step `step` was accepted: only when no code of that step or a later
     * one was (replay); exactly one concurrent caller wins.
     */
    async advanceStep(credentialId: string, step: number): Promise<boolean> {
      const r = await db
        .updateTable('mfa_totp_secrets')
        .set({ last_step: step })
        .where('credential_id', '=', credentialId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async delete(credentialId: string): Promise<void> {
      await db.deleteFrom('mfa_totp_secrets').where('credential_id', '=', credentialId).execute();
    },
  };
}

/** Recovery codes: hashes only, single use. */
export function recoveryCodesRepo(db: Kysely<Database>) {
  return {
    /** The user's new set: the old one (used or not) is deleted. Run it in a transaction. */
    async replaceAll(userId: string, rows: RecoveryCodeRow[]): Promise<void> {
      await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
      if (rows.length) await db.insertInto('mfa_recovery_codes').values(rows).execute();
    },
    /** The user's unused codes (their hashes, to compare in constant time). */
    async unused(userId: string): Promise<RecoveryCodeRow[]> {
      return db
        .selectFrom('mfa_recovery_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
    /** Marks one code used: exactly one concurrent caller wins. */
    async use(id: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('mfa_recovery_codes')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async countUnused(userId: string): Promise<number> {
      const r = await db
        .selectFrom('mfa_recovery_codes')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async deleteAllOfUser(userId: string): Promise<void> {
      await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    },
  };
}

/** The kind of second factor each user answered with last: the hosted page preselects it. */
export function lastFactorsRepo(db: Kysely<Database>) {
  return {
    async record(userId: string, kind: string, now: number): Promise<void> {
      await db
        .insertInto('mfa_last_factors')
        .values({ user_id: userId, kind, used_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ kind, used_at: now }))
        .execute();
    },
    async find(userId: string): Promise<string | null> {
      const r = await db.selectFrom('mfa_last_factors').select('kind').where('user_id', '=', userId).executeTakeFirst();
      return r?.kind ?? null;
    },
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Every table that holds rows of one user, by its `user_id` column: what deleting a user removes.
 * `audit_events` is not here: the audit trail outlives the user (it names them as `user:<id>`).
 * test/storage/user-erasure.test.ts reads the database's own tables and fails when a table with a
 * `user_id` column is missing from this list.
 */
export const USER_TABLES = [
  'sessions',
  'authorization_codes',
  'one_time_tokens',
  'passkeys',
  'grants',
  'refresh_tokens',
  'mfa_credentials',
  'mfa_totp_secrets',
  'mfa_recovery_codes',
  'mfa_enrolment_skips',
  'mfa_last_factors',
  'step_ups',
  'challenges',
  'trusted_devices',
  'identities',
  'interactions',
  'logout_deliveries',
  'account_codes',
  'user_profiles',
  'consents',
  'user_external_ids',
  'user_custom_identifiers',
  'user_consents',
  'user_consent_history',
  'account_deletions',
  'device_authorizations',
  'user_import_job_lines',
] as const satisfies ReadonlyArray<keyof Database>;

export type ErasedCounts = Record<(typeof USER_TABLES)[number] | 'sign_in_failures' | 'users', number>;

/** Deleting a user completely (run it inside a transaction: all or nothing). */
export function userErasureRepo(db: Kysely<Database>) {
  return {
    /**
     * Deletes the user and every row of theirs, and the failed sign-ins counted for their identifiers
     * (`identifierKeys`, accounts/sign-in-protection.ts); answers how many rows each table lost.
     */
    async erase(userId: string, identifierKeys: string[]): Promise<ErasedCounts> {
      const counts = {} as ErasedCounts;
      for (const table of USER_TABLES) {
        const r = await db.deleteFrom(table).where('user_id', '=', userId).executeTakeFirst();
        counts[table] = Number(r.numDeletedRows);
      }
      counts.sign_in_failures = identifierKeys.length
        ? Number(
            (await db.deleteFrom('sign_in_failures').where('key', 'in', identifierKeys).executeTakeFirst())
              .numDeletedRows,
          )
        : 0;
      counts.users = Number((await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst()).numDeletedRows);
      return counts;
    },
  };
}

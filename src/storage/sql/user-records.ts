import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** What a user's data export reads (accounts/data-export.ts): no digest, hash or key in any of it. */
export function userRecordsRepo(db: Kysely<Database>) {
  return {
    async sessionsOf(userId: string) {
      return db
        .selectFrom('sessions')
        .select(['auth_time', 'amr', 'created_at', 'last_seen_at', 'expires_at', 'revoked_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
    },
    /** The user's grants with their client's name (a grant whose client is gone keeps a null name). */
    async grantsOf(userId: string) {
      return db
        .selectFrom('grants')
        .leftJoin('clients', 'clients.client_id', 'grants.client_id')
        .select([
          'grants.client_id',
          'clients.name as client_name',
          'grants.scope',
          'grants.amr',
          'grants.created_at',
          'grants.expires_at',
          'grants.revoked_at',
        ])
        .where('grants.user_id', '=', userId)
        .orderBy('grants.created_at')
        .execute();
    },
    async trustedDevicesOf(userId: string) {
      return db
        .selectFrom('trusted_devices')
        .select(['name', 'created_at', 'expires_at', 'revoked_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
    },
  };
}

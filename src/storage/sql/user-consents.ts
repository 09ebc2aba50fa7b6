import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A user's consent to one definition, as stored (migration 042). */
export interface StoredUserConsent {
  key: string;
  granted: boolean;
  waiting_double_accept: boolean;
  consent_type: string;
  version_id: number;
  language: string;
  reporter: string;
  /** When it last changed, ms since the epoch. */
  at: number;
}

/** One kept change of a user's consent (migration 043). */
export interface UserConsentChange extends StoredUserConsent {
  id: string;
}

type Row = {
  consent_key: string;
  granted: number;
  waiting_double_accept: number;
  consent_type: string;
  version_id: number;
  language: string;
  reporter: string;
};

const fromRow = (r: Row, at: number | string): StoredUserConsent => ({
  key: r.consent_key,
  granted: !!r.granted,
  waiting_double_accept: !!r.waiting_double_accept,
  consent_type: r.consent_type,
  version_id: Number(r.version_id),
  language: r.language,
  reporter: r.reporter,
  at: Number(at),
});

/** Users' consents (the account's consent definitions, not OAuth client consents) and their history. */
export function userConsentsRepo(db: Kysely<Database>) {
  return {
    /** The user's consents, by key. */
    async ofUser(userId: string): Promise<StoredUserConsent[]> {
      const rows = await db
        .selectFrom('user_consents')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('consent_key')
        .execute();
      return rows.map((r) => fromRow(r, r.updated_at));
    },

    /**
     * Sets the user's consent to one definition and keeps the change in the history (run it in a
     * transaction: it deletes, then inserts twice).
     */
    async put(userId: string, c: StoredUserConsent, historyId: string): Promise<void> {
      const values = {
        user_id: userId,
        consent_key: c.key,
        granted: c.granted ? 1 : 0,
        waiting_double_accept: c.waiting_double_accept ? 1 : 0,
        consent_type: c.consent_type,
        version_id: c.version_id,
        language: c.language,
        reporter: c.reporter,
      };
      await db.deleteFrom('user_consents').where('user_id', '=', userId).where('consent_key', '=', c.key).execute();
      await db
        .insertInto('user_consents')
        .values({ ...values, updated_at: c.at })
        .execute();
      await db
        .insertInto('user_consent_history')
        .values({ ...values, id: historyId, at: c.at })
        .execute();
    },

    /** Every change of the user's consents, oldest first. */
    async history(userId: string): Promise<UserConsentChange[]> {
      const rows = await db
        .selectFrom('user_consent_history')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, ...fromRow(r, r.at) }));
    },
  };
}

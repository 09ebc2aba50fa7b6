import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The scopes a user granted a third-party client (interaction/consent.ts decides with them). */
export interface ConsentRecord {
  user_id: string;
  client_id: string;
  /** Every scope granted so far, sorted, without duplicates. */
  scopes: string[];
  created_at: number;
  updated_at: number;
}

const parse = (scopes: string): string[] => scopes.split(' ').filter(Boolean);

export function consentsRepo(db: Kysely<Database>) {
  return {
    async find(userId: string, clientId: string): Promise<ConsentRecord | undefined> {
      const r = await db
        .selectFrom('consents')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return r && { ...r, scopes: parse(r.scopes) };
    },

    /** The user's consents, by client. */
    async listForUser(userId: string): Promise<ConsentRecord[]> {
      const rows = await db
        .selectFrom('consents')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('client_id')
        .execute();
      return rows.map((r) => ({ ...r, scopes: parse(r.scopes) }));
    },

    /**
     * Adds scopes to the user's consent for the client (created when absent); answers every scope
     * now granted. A compare-and-set on the stored scopes, so of two grants at once both count (no
     * transaction: the caller may be in one already).
     */
    async grant(userId: string, clientId: string, scopes: string[], now: number): Promise<string[]> {
      for (let attempt = 0; ; attempt++) {
        const was = await this.find(userId, clientId);
        const all = [...new Set([...(was?.scopes ?? []), ...scopes])].sort();
        const joined = all.join(' ');
        const r = was
          ? await db
              .updateTable('consents')
              .set({ scopes: joined, updated_at: now })
              .where('user_id', '=', userId)
              .where('client_id', '=', clientId)
              .where('scopes', '=', was.scopes.join(' '))
              .executeTakeFirst()
              .then((u) => Number(u.numUpdatedRows))
          : await db
              .insertInto('consents')
              .values({ user_id: userId, client_id: clientId, scopes: joined, created_at: now, updated_at: now })
              .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
              .executeTakeFirst()
              .then((i) => Number(i.numInsertedOrUpdatedRows ?? 0));
        if (r === 1 || attempt >= 20) return all;
      }
    },

    /**
     * Withdraws the consent and revokes the client's grants for the user (their refresh and access
     * tokens die with them: each check reads the grant). Answers whether there was a consent and how
     * many grants were revoked.
     */
    async revoke(userId: string, clientId: string, now: number): Promise<{ revoked: boolean; grants: number }> {
      const r = await db
        .deleteFrom('consents')
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      const g = await db
        .updateTable('grants')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return { revoked: Number(r.numDeletedRows) > 0, grants: Number(g.numUpdatedRows) };
    },

    /** Deletes every consent given to a client (the client was deleted). */
    async revokeClient(clientId: string): Promise<number> {
      const r = await db.deleteFrom('consents').where('client_id', '=', clientId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

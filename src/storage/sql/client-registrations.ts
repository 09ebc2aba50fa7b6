import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A self-registered client's registration (clients/registration.ts): its token digest and metadata. */
export interface ClientRegistrationRecord {
  client_id: string;
  token_digest: string;
  auth_method: 'none' | 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt' | 'private_key_jwt';
  /** The registered metadata the client's row has no column for. */
  metadata: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

export function clientRegistrationsRepo(db: Kysely<Database>) {
  return {
    async find(clientId: string): Promise<ClientRegistrationRecord | undefined> {
      const r = await db
        .selectFrom('client_registrations')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return (
        r && {
          ...r,
          auth_method: r.auth_method as ClientRegistrationRecord['auth_method'],
          metadata: JSON.parse(r.metadata) as Record<string, unknown>,
        }
      );
    },
    /** Inserts the registration, or replaces all of it but created_at. */
    async put(r: ClientRegistrationRecord): Promise<void> {
      const row = { ...r, metadata: JSON.stringify(r.metadata) };
      const { client_id: _id, created_at: _c, ...update } = row;
      await db
        .insertInto('client_registrations')
        .values(row)
        .onConflict((oc) => oc.column('client_id').doUpdateSet(update))
        .execute();
    },
    async delete(clientId: string): Promise<boolean> {
      const r = await db.deleteFrom('client_registrations').where('client_id', '=', clientId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}

import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import type { Database, PasskeysTable } from '../schema.js';

/** A stored passkey, its flags as booleans and its transports as a list. */
export interface Passkey extends Omit<Selectable<PasskeysTable>, 'backed_up' | 'transports' | 'second_factor'> {
  backed_up: boolean;
  transports: string[];
  /** Registered as a second factor (the required enrolment page): `mfa_required: always` asks it. */
  second_factor?: boolean;
}

const toPasskey = (r: Selectable<PasskeysTable>): Passkey => ({
  ...r,
  backed_up: r.backed_up === 1 || (r.backed_up as unknown) === true,
  transports: JSON.parse(r.transports) as string[],
  second_factor: Number(r.second_factor) === 1,
});

/** Users' passkeys (WebAuthn credentials). A credential ID belongs to one passkey only. */
export function passkeysRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async insert(k: Passkey): Promise<void> {
      await db
        .insertInto('passkeys')
        .values({
          ...k,
          backed_up: k.backed_up ? 1 : 0,
          transports: JSON.stringify(k.transports),
          second_factor: k.second_factor ? 1 : 0,
        })
        .execute();
    },
    async listOfUser(userId: string): Promise<Passkey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPasskey);
    },
    /** Whether the user has a key registered as a second factor. */
    async hasSecondFactor(userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('passkeys')
        .select('id')
        .where('user_id', '=', userId)
        .where('second_factor', '=', 1)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async findByCredentialId(credentialId: string): Promise<Passkey | undefined> {
      const row = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row && toPasskey(row);
    },
    /**
     * Records a sign-in: the new counter and backup state, if the stored counter is still the one the
     * verification read (two sign-ins with one assertion: one wins). Answers whether it did.
     */
    async recordUse(id: string, seen: number, next: { counter: number; backed_up: boolean; now: number }) {
      const r = await db
        .updateTable('passkeys')
        .set({ counter: next.counter, backed_up: next.backed_up ? 1 : 0, last_used_at: next.now })
        .where('id', '=', id)
        .where('counter', '=', seen)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /**
     * In a transaction: holds the user's row until it ends, so two changes of one user's ways to sign in
     * run one after the other (PostgreSQL; SQLite runs one write transaction at a time anyway).
     */
    async lockUser(userId: string): Promise<void> {
      if (engine !== 'postgres') return;
      await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    },
    async delete(userId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
    /** Removes every passkey of a user (account recovery that replaces them; a deleted user). */
    async deleteOfUser(userId: string): Promise<number> {
      const r = await db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

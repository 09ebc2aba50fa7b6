import { type Kysely, sql } from 'kysely';

/**
 * A key set holds a current key per algorithm family (RS256, ES256, EdDSA): at most one current key
 * per set and algorithm, whatever the writers do (it was one per set while every key was RSA).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('signing_keys_one_current').execute();
  await sql`create unique index signing_keys_one_current on signing_keys (key_set, alg) where status = 'current'`.execute(
    db,
  );
}

/** Back to RSA only: the EC and Ed25519 keys are revoked (tokens they signed stop verifying). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update signing_keys set status = 'revoked', revoked_at = ${Date.now()} where alg <> 'RS256' and status <> 'revoked'`.execute(
    db,
  );
  await db.schema.dropIndex('signing_keys_one_current').execute();
  await sql`create unique index signing_keys_one_current on signing_keys (key_set) where status = 'current'`.execute(
    db,
  );
}

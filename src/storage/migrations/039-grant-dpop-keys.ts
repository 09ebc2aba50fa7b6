import type { Kysely } from 'kysely';

/**
 * The DPoP key a grant's refresh tokens are bound to (RFC 9449 5: a public client's refresh token is
 * sender-constrained by the key of the proof it was issued with): its JWK thumbprint. A nullable column
 * (expand only): a grant made before, or without DPoP, is bound to no key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('dpop_jkt', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').dropColumn('dpop_jkt').execute();
}

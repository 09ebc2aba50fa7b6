import type { Kysely } from 'kysely';

/** The first schema: users, clients, keys, sessions, codes, one-time tokens, grants, tokens, counters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ms = 'bigint' as const;
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(320)', (c) => c.unique())
    .addColumn('phone_number', 'varchar(32)', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('given_name', 'varchar(200)')
    .addColumn('family_name', 'varchar(200)')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone_number_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('role', 'varchar(32)')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('client_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret_sealed', 'text')
    .addColumn('secret_digest', 'varchar(64)')
    .addColumn('jwt_algorithm', 'varchar(8)', (c) => c.notNull())
    .addColumn('allowed_callback_urls', 'text', (c) => c.notNull())
    .addColumn('allowed_origins', 'text', (c) => c.notNull())
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('pkce_enforced', 'integer', (c) => c.notNull())
    .addColumn('implicit_flow', 'integer', (c) => c.notNull())
    .addColumn('key_mode', 'varchar(16)', (c) => c.notNull().defaultTo('global'))
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('key_set', 'varchar(160)', (c) => c.notNull())
    .addColumn('alg', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_sealed', 'text', (c) => c.notNull())
    .addColumn('cert_der', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('retired_at', ms)
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('signing_keys_set').on('signing_keys').columns(['key_set', 'status']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('auth_time', ms, (c) => c.notNull())
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('last_seen_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('authorization_codes')
    .addColumn('code_digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(64)')
    .addColumn('redirect_uri', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text')
    .addColumn('code_challenge', 'varchar(64)')
    .addColumn('auth_time', ms, (c) => c.notNull())
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('consumed_at', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('consumed_at', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('grants')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(64)')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', ms)
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('grants_session').on('grants').column('session_id').execute();
  await db.schema.createIndex('grants_user').on('grants').column('user_id').execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('grant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', ms)
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('grant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('consumed_at', ms)
    .execute();
  await db.schema.createIndex('refresh_tokens_grant').on('refresh_tokens').column('grant_id').execute();

  await db.schema
    .createTable('rate_counters')
    .addColumn('bucket', 'varchar(400)', (c) => c.notNull())
    .addColumn('window_start', ms, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counters_pk', ['bucket', 'window_start'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'settings',
    'rate_counters',
    'refresh_tokens',
    'access_tokens',
    'grants',
    'one_time_tokens',
    'authorization_codes',
    'sessions',
    'signing_keys',
    'clients',
    'users',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}

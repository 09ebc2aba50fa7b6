// Rows the storage tests write (test/storage/): a user and a grant with plain defaults, each field
// overridable, so a test names only what it is about.
import type { GrantRow } from '../../src/storage/sql/tokens.js';
import type { NewUser } from '../../src/storage/sql/users.js';

/** A user with a verified email `<id>@example.com`, no password, not disabled. */
export const userRow = (id: string, o: Partial<NewUser> = {}): NewUser => ({
  id,
  email: `${id}@example.com`,
  phone_number: null,
  password_hash: null,
  given_name: 'Ada',
  family_name: null,
  email_verified: true,
  phone_number_verified: false,
  role: null,
  disabled: false,
  ...o,
});

/** A live grant (a minute long from `now`) of `userId` to client `spa`, signed in by password. */
export const grantRow = (id: string, userId: string, now: number, o: Partial<GrantRow> = {}): GrantRow => ({
  id,
  user_id: userId,
  client_id: 'spa',
  session_id: null,
  scope: 'openid offline_access',
  auth_time: now,
  amr: '["pwd"]',
  created_at: now,
  expires_at: now + 60_000,
  revoked_at: null,
  resource: null,
  step_up_action: null,
  ...o,
});

import type { User } from '../storage/sql/users.js';

/** A user as the management API shows it: identifiers, verification, names, role, state; never a secret. */
export const userView = (u: User) => ({
  id: u.id,
  email: u.email,
  email_verified: u.email_verified,
  phone_number: u.phone_number,
  phone_number_verified: u.phone_number_verified,
  given_name: u.given_name,
  family_name: u.family_name,
  role: u.role,
  disabled: u.disabled,
  has_password: !!u.password_hash,
  created_at: new Date(u.created_at).toISOString(),
});

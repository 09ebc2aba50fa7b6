import { Type } from 'typebox';
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

const nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

/** The JSON schema of userView (the webhook catalog's `data.user`). */
export const userViewSchema = Type.Object(
  {
    id: Type.String(),
    email: nullable(Type.String()),
    email_verified: Type.Boolean(),
    phone_number: nullable(Type.String()),
    phone_number_verified: Type.Boolean(),
    given_name: nullable(Type.String()),
    family_name: nullable(Type.String()),
    role: nullable(Type.String()),
    disabled: Type.Boolean(),
    has_password: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, description: 'The user as the management API shows it (GET /api/v1/users/{id}).' },
);

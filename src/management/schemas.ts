import { Type } from 'typebox';
import { CLIENT_ID_PATTERN } from '../config/schema/client.js';
import { JWT_ALGORITHMS } from '../config/types.js';
import { anyObject, nullable, partialObject, stringEnum } from '../http/schema-types.js';
import { SIGNING_ALGS } from '../keys/families.js';

/** Path parameters: bounded, no slashes or dots-only segments (no traversal). */
const clientId = Type.String({ pattern: CLIENT_ID_PATTERN });
const kid = Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' });

export const clientIdParam = Type.Object({ clientId }, { additionalProperties: false });

export const kidParam = Type.Object({ clientId, kid }, { additionalProperties: false });

export const siteKidParam = Type.Object({ kid }, { additionalProperties: false });

/** No fields at all (an absent body is validated as {} where the route allows it). */
export const emptyBody = Type.Unsafe<Record<string, never>>({
  type: 'object',
  additionalProperties: false,
  maxProperties: 0,
});

/** Rotating the global keys: no body (the RSA pair, as the specification calls it) or the family to rotate. */
export const rotateGlobalBody = partialObject({ alg: stringEnum(SIGNING_ALGS) }, { additionalProperties: false });

export const keySchema = partialObject({
  kid: Type.String(),
  key_set: Type.String(),
  alg: stringEnum(SIGNING_ALGS),
  status: stringEnum(['current', 'previous', 'revoked']),
  created_at: Type.String({ format: 'date-time' }),
  retired_at: nullable(Type.String()),
  revoked_at: nullable(Type.String()),
  public_jwk: anyObject(),
});

export const clientKeysSchema = partialObject({
  client_id: Type.String(),
  jwt_algorithm: stringEnum(JWT_ALGORITHMS),
  state: stringEnum(['synced_with_global', 'client_specific']),
  keys: Type.Array(keySchema),
});

export const errorSchema = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
  error_user_msg: Type.Optional(Type.String()),
  error_message_key: Type.String(),
  error_details: Type.Optional(
    Type.Array(
      partialObject({
        field: Type.String(),
        message: Type.String(),
        code: stringEnum([
          'missing',
          'invalid',
          'too_short',
          'too_common',
          'contains_user_info',
          'too_weak',
          'breached',
        ]),
      }),
    ),
  ),
});

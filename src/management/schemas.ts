import { JWT_ALGORITHMS } from '../config/types.js';
import { SIGNING_ALGS } from '../keys/families.js';
import type { JsonSchema } from './route.js';

/** Path parameters: bounded, no slashes or dots-only segments (no traversal). */
export const clientIdParam: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['clientId'],
  properties: { clientId: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,128}$' } },
};

export const kidParam: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['clientId', 'kid'],
  properties: {
    clientId: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,128}$' },
    kid: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
  },
};

export const siteKidParam: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kid'],
  properties: { kid: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
};

export const emptyBody: JsonSchema = { type: 'object', additionalProperties: false, maxProperties: 0 };

/** Rotating the global keys: no body (the RSA pair, as the specification calls it) or the family to rotate. */
export const rotateGlobalBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { alg: { type: 'string', enum: [...SIGNING_ALGS] } },
};

export const keySchema: JsonSchema = {
  type: 'object',
  properties: {
    kid: { type: 'string' },
    key_set: { type: 'string' },
    alg: { type: 'string', enum: [...SIGNING_ALGS] },
    status: { type: 'string', enum: ['current', 'previous', 'revoked'] },
    created_at: { type: 'string', format: 'date-time' },
    retired_at: { type: ['string', 'null'] },
    revoked_at: { type: ['string', 'null'] },
    public_jwk: { type: 'object' },
  },
};

export const clientKeysSchema: JsonSchema = {
  type: 'object',
  properties: {
    client_id: { type: 'string' },
    jwt_algorithm: { type: 'string', enum: [...JWT_ALGORITHMS] },
    state: { type: 'string', enum: ['synced_with_global', 'client_specific'] },
    keys: { type: 'array', items: keySchema },
  },
};

export const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'error_message_key'],
  properties: {
    error: { type: 'string' },
    error_description: { type: 'string' },
    error_user_msg: { type: 'string' },
    error_message_key: { type: 'string' },
    error_details: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string' },
          message: { type: 'string' },
          code: {
            type: 'string',
            enum: ['missing', 'invalid', 'too_short', 'too_common', 'contains_user_info', 'too_weak', 'breached'],
          },
        },
      },
    },
  },
};

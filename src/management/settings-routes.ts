import { Type } from 'typebox';
import { nullable, partialObject, stringEnum } from '../http/schema-types.js';
import { CUSTOM_FIELD_TYPES, type AccountSettings } from '../config/types.js';
import { Problems, validateAccount } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import type { Registry } from '../registry.js';
import { recordAudit } from '../audit/record.js';
import { managementRoute, type ManagementRoute } from './route.js';

const rateLimit = partialObject(
  { limit: nullable(Type.Integer({ minimum: 1 })), window_seconds: Type.Integer({ minimum: 1, maximum: 86400 }) },
  { additionalProperties: false },
);
const seconds = Type.Integer({ minimum: 1, maximum: 315360000 });
const window = (min: number, max: number) =>
  partialObject(
    {
      limit: Type.Integer({ minimum: min, maximum: max }),
      window_seconds: Type.Integer({ minimum: 1, maximum: 86400 }),
    },
    { additionalProperties: false },
  );

const accountFields = {
  mfa_required: stringEnum(['always', 'never', 'Always', 'Never']),
  access_token_ttl: seconds,
  id_token_ttl: seconds,
  refresh_token_ttl: seconds,
  authorization_code_ttl: Type.Integer({ minimum: 1, maximum: 600 }),
  tkn_ttl: seconds,
  session_ttl: seconds,
  session_idle_ttl: seconds,
  password_min_length: Type.Integer({ minimum: 1, maximum: 128 }),
  password_min_strength: Type.Integer({ minimum: 0, maximum: 4 }),
  password_refuse_user_info: Type.Boolean(),
  password_refuse_common: Type.Boolean(),
  password_breach_check_url: nullable(Type.String({ maxLength: 2048 })),
  password_breach_check_timeout_ms: Type.Integer({ minimum: 100, maximum: 10000 }),
  rate_limits: partialObject(
    { login: rateLimit, signup: rateLimit, token: rateLimit, verification: rateLimit },
    { additionalProperties: false },
  ),
  sign_in_delay_after: Type.Integer({ minimum: 1, maximum: 100 }),
  sign_in_delay_seconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  sign_in_lock_after: Type.Integer({ minimum: 1, maximum: 100 }),
  sign_in_lock_seconds: Type.Integer({ minimum: 60, maximum: 86400 }),
  sign_in_failure_memory_seconds: Type.Integer({ minimum: 60, maximum: 2592000 }),
  verification_code_length: Type.Integer({ minimum: 4, maximum: 10 }),
  verification_code_ttl: Type.Integer({ minimum: 30, maximum: 600 }),
  verification_max_attempts: Type.Integer({ minimum: 1, maximum: 20 }),
  verification_requests_per_step_up: Type.Integer({ minimum: 0, maximum: 100 }),
  verification_requests_per_user: window(0, 10000),
  verification_failures_per_user: window(1, 100),
  step_up_ttl: Type.Integer({ minimum: 30, maximum: 1800 }),
  step_up_bearer_allowed: Type.Boolean(),
  trusted_device_ttl: seconds,
  passkeys: partialObject(
    {
      enabled: Type.Boolean(),
      rp_id: nullable(Type.String({ maxLength: 253 })),
      rp_name: Type.String({ minLength: 1, maxLength: 100 }),
      origins: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 20 }),
      user_verification_is_mfa: Type.Boolean(),
      recovery_replaces: Type.Boolean(),
      challenge_ttl: Type.Integer({ minimum: 30, maximum: 600 }),
    },
    { additionalProperties: false },
  ),
  self_service: partialObject(
    {
      email_verification: stringEnum(['off', 'send', 'required']),
      code_ttl: Type.Integer({ minimum: 60, maximum: 3600 }),
      link_ttl: Type.Integer({ minimum: 300, maximum: 604800 }),
      max_attempts: Type.Integer({ minimum: 1, maximum: 20 }),
      requests_per_address: window(0, 1000),
    },
    { additionalProperties: false },
  ),
  passwordless: partialObject(
    { magic_link: Type.Boolean(), sms: Type.Boolean(), signup: Type.Boolean() },
    { additionalProperties: false },
  ),
  custom_fields: Type.Array(
    partialObject(
      {
        name: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'snake_case, unique (required)' }),
        data_type: stringEnum([...CUSTOM_FIELD_TYPES]),
        required: Type.Boolean({ description: 'required at signup; only a field the user may write' }),
        writable: stringEnum(['user', 'admin']),
        values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
          maxItems: 200,
          description: 'the allowed values of a list field',
        }),
      },
      { additionalProperties: false },
    ),
    { maxItems: 100, description: 'the whole list: a PATCH replaces it' },
  ),
  social_signup: partialObject(
    {
      email_required: Type.Boolean({
        description: 'a new social user must have an email (else the profile is completed)',
      }),
      completion_url: nullable(
        Type.String({ maxLength: 2048, description: "the app's completion page (one of the client's callback URLs)" }),
      ),
    },
    { additionalProperties: false },
  ),
};

export const accountSchema = partialObject(accountFields, { additionalProperties: false });

/** Account settings: read, and change at run time (every process picks the change up). */
export function settingsRoutes(r: Pick<Registry, 'account' | 'clock' | 'setAccount' | 'storage'>): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/settings/account',
      tag: 'settings',
      permission: 'read:settings',
      summary: 'Read the account settings',
      response: { status: 200, schema: accountSchema },
      handler: async () => r.account(),
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/settings/account',
      tag: 'settings',
      permission: 'manage:settings',
      audit: 'settings.updated',
      summary:
        'Change account settings (MFA required, lifetimes, limits, sign-in protection, password policy, passkeys, ' +
        'self-service, passwordless, custom fields, social signup)',
      body: partialObject(accountFields, { additionalProperties: false, minProperties: 1 }),
      response: { status: 200, schema: accountSchema },
      handler: async ({ actor, body }) => {
        const p = new Problems();
        const next: AccountSettings = validateAccount(p, body, r.account());
        if (p.list.length) throw new WardError('settingsInvalid', { description: p.list.join('; ') });
        await r.storage.transaction(async (tx) => {
          await tx.settings.put('account', next, r.clock.now());
          await tx.versions.bump('account');
          await recordAudit(tx, r.clock.now(), actor, 'settings.updated', 'account', 'success', {
            fields: Object.keys(body),
          });
        });
        r.setAccount(next);
        return next;
      },
    }),
  ];
}

import type { AccountSettings } from '../config/types.js';
import { Problems, validateAccount } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import type { Registry } from '../registry.js';
import { recordAudit } from '../audit/record.js';
import type { JsonSchema, ManagementRoute } from './route.js';

const rateLimit: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: ['integer', 'null'], minimum: 1 },
    window_seconds: { type: 'integer', minimum: 1, maximum: 86400 },
  },
};
const seconds: JsonSchema = { type: 'integer', minimum: 1, maximum: 315360000 };
const window = (min: number, max: number): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: min, maximum: max },
    window_seconds: { type: 'integer', minimum: 1, maximum: 86400 },
  },
});

export const accountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mfa_required: { type: 'string', enum: ['always', 'never', 'Always', 'Never'] },
    access_token_ttl: seconds,
    id_token_ttl: seconds,
    refresh_token_ttl: seconds,
    authorization_code_ttl: { type: 'integer', minimum: 1, maximum: 600 },
    tkn_ttl: seconds,
    session_ttl: seconds,
    session_idle_ttl: seconds,
    password_min_length: { type: 'integer', minimum: 1, maximum: 128 },
    password_min_strength: { type: 'integer', minimum: 0, maximum: 4 },
    password_refuse_user_info: { type: 'boolean' },
    password_refuse_common: { type: 'boolean' },
    password_breach_check_url: { type: ['string', 'null'], maxLength: 2048 },
    password_breach_check_timeout_ms: { type: 'integer', minimum: 100, maximum: 10000 },
    rate_limits: {
      type: 'object',
      additionalProperties: false,
      properties: { login: rateLimit, signup: rateLimit, token: rateLimit, verification: rateLimit },
    },
    verification_code_length: { type: 'integer', minimum: 4, maximum: 10 },
    verification_code_ttl: { type: 'integer', minimum: 30, maximum: 600 },
    verification_max_attempts: { type: 'integer', minimum: 1, maximum: 20 },
    verification_requests_per_step_up: { type: 'integer', minimum: 0, maximum: 100 },
    verification_requests_per_user: window(0, 10000),
    verification_failures_per_user: window(1, 100),
    step_up_ttl: { type: 'integer', minimum: 30, maximum: 1800 },
    step_up_bearer_allowed: { type: 'boolean' },
    trusted_device_ttl: seconds,
    passkeys: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        rp_id: { type: ['string', 'null'], maxLength: 253 },
        rp_name: { type: 'string', minLength: 1, maxLength: 100 },
        origins: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 300 } },
        user_verification_is_mfa: { type: 'boolean' },
        challenge_ttl: { type: 'integer', minimum: 30, maximum: 600 },
      },
    },
  },
};

/** Account settings: read, and change at run time (every process picks the change up). */
export function settingsRoutes(r: Pick<Registry, 'account' | 'clock' | 'setAccount' | 'storage'>): ManagementRoute[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/settings/account',
      tag: 'settings',
      permission: 'read:settings',
      summary: 'Read the account settings',
      response: { status: 200, schema: accountSchema },
      handler: async () => r.account(),
    },
    {
      method: 'PATCH',
      url: '/api/v1/settings/account',
      tag: 'settings',
      permission: 'manage:settings',
      audit: 'settings.updated',
      summary: 'Change account settings (MFA required, lifetimes, limits, password policy, passkeys)',
      body: { ...accountSchema, minProperties: 1 },
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
    },
  ];
}

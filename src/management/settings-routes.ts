import type { AccountSettings } from '../config/types.js';
import { AccountSchema } from '../config/schema/account.js';
import { apiSchema } from '../config/schema/api.js';
import { Problems, validateAccount } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import { recordAudit, type Actor } from '../audit/record.js';
import { managementRoute, type ManagementRoute } from './route.js';

/** The answer: the account settings as described once (config/schema/account.ts). */
export const accountSchema = apiSchema(AccountSchema);

/** Account settings: read, and change at run time (every process picks the change up). */
/** The services the settings routes use (registry.ts builds them; the composition passes them in). */
export interface SettingsRoutesDeps {
  account: () => AccountSettings;
  setAccount: (next: AccountSettings) => void;
  clock: Clock;
  storage: Storage;
}

/**
 * Applies a change to the account settings (validated as the config file's), stores it for every
 * process, audited with `audit`; answers the new settings.
 */
export async function changeAccount(
  r: SettingsRoutesDeps,
  actor: Actor,
  change: Record<string, unknown>,
  audit: { action: string; target: string; fields: string[] },
): Promise<AccountSettings> {
  const p = new Problems();
  const next: AccountSettings = validateAccount(p, change, r.account());
  if (p.list.length)
    throw new WardError('settingsInvalid', {
      description: p.list.join('; '),
      // Fields as the request names them: consents[0].versions, not account.consents[0].versions.
      details: p.items.map((i) => ({ field: i.key.replace(/^account\./, ''), message: i.message, code: 'invalid' })),
    });
  await r.storage.transaction(async (tx) => {
    await tx.settings.put('account', next, r.clock.now());
    await tx.versions.bump('account');
    await recordAudit(tx, r.clock.now(), actor, audit.action, audit.target, 'success', { fields: audit.fields });
  });
  r.setAccount(next);
  return next;
}

export function settingsRoutes(r: SettingsRoutesDeps): ManagementRoute[] {
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
        'self-service, passwordless, custom fields, consent definitions, social signup)',
      body: apiSchema(AccountSchema, { input: true, minProperties: 1 }),
      response: { status: 200, schema: accountSchema },
      handler: async ({ actor, body }) =>
        changeAccount(r, actor, body, { action: 'settings.updated', target: 'account', fields: Object.keys(body) }),
    }),
  ];
}

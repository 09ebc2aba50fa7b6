// Build time only (scripts/build.mjs; nothing of the server imports it): the settings' validators as
// one ES module of Ajv standalone code, which replaces precompiled.ts in the bundle. Compiling them
// was a tenth of every start (docs/performance.md, "Start-up").
import standalone from 'ajv/dist/standalone/index.js';
import type { TSchema } from 'typebox';
import { AccountSchema } from './account.js';
import { ClientSchema } from './client.js';
import { ServerSchema } from './server.js';
import { schemaFingerprint, settingsAjv } from './settings-ajv.js';
import { SocialProviderInput } from './social-provider.js';
import { WebhookSchema } from './webhook.js';

/** Every schema checkValue (check.ts) is called with. */
export const CHECKED_SCHEMAS: Record<string, TSchema> = {
  server: ServerSchema,
  account: AccountSchema,
  client: ClientSchema,
  social_provider: SocialProviderInput,
  webhook: WebhookSchema,
};

/**
 * The module's text. `checks`: where it imports CHECKS from (the x-check rules). Ajv's standalone
 * code `require`s its run-time helpers (ucs2length): the module makes itself a `require`.
 */
export function precompiledSettingsModule(checks: string): string {
  const ajv = settingsAjv(true);
  const fingerprints = Object.entries(CHECKED_SCHEMAS).map(([name, schema]) => [name, schemaFingerprint(schema)]);
  for (const [name, schema] of Object.entries(CHECKED_SCHEMAS)) ajv.addSchema(schema, name);
  const code = standalone.default(ajv, Object.fromEntries(Object.keys(CHECKED_SCHEMAS).map((n) => [n, n])));
  return [
    `import { CHECKS } from ${JSON.stringify(checks)};`,
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    code.replace(/^"use strict";/, ''),
    `export const PRECOMPILED = new Map([${fingerprints.map(([name, fp]) => `[${JSON.stringify(fp)}, ${name}]`).join(', ')}]);`,
  ].join('\n');
}

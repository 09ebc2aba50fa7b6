import type { TSchema } from 'typebox';
import { AccountSchema } from './account.js';
import { allowedOf } from './check.js';
import { ClientSchema } from './client.js';
import { defaultsOf } from './kit.js';
import { ServerSchema } from './server.js';
import { SocialProviderInput } from './social-provider.js';
import { WebhookSchema } from './webhook.js';

/** The configuration reference (docs/configuration-reference.md), written from the settings schemas. */

type Node = { type?: unknown; description?: string; properties?: Record<string, TSchema>; items?: TSchema };

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (v: unknown): string => (v === undefined ? '' : `\`${JSON.stringify(v)}\``);

/** One row per setting; a group's members under its dotted key, a list of groups under `key[]`. */
function rows(schema: TSchema, prefix: string): string[] {
  const out: string[] = [];
  for (const [name, member] of Object.entries((schema as Node).properties ?? {})) {
    const key = `${prefix}${name}`;
    const m = member as Node;
    if (m.type === 'object' && m.properties) {
      out.push(...rows(member, `${key}.`));
      continue;
    }
    const items = m.items as Node | undefined;
    if (m.type === 'array' && items?.type === 'object' && items.properties) {
      out.push(
        `| \`${key}\` | ${cell(allowedOf({ ...m, items: undefined } as TSchema))} | ${code(defaultsOf(member))} | ${cell(m.description ?? '')} |`,
      );
      out.push(...rows(items as TSchema, `${key}[].`));
      continue;
    }
    out.push(
      `| \`${key}\` | ${cell(allowedOf(member))} | ${code(defaultsOf(member))} | ${cell(m.description ?? '')} |`,
    );
  }
  return out;
}

const table = (schema: TSchema): string =>
  ['| Key | Allowed | Default | Description |', '| --- | --- | --- | --- |', ...rows(schema, '')].join('\n');

/** The environment: each variable with the config file key it overrides. */
const environment = (): string =>
  [
    '| Variable | File key | Allowed | Default | Description |',
    '| --- | --- | --- | --- | --- |',
    ...Object.entries(ServerSchema.properties).map(([name, schema]) => {
      const s = schema as Node & { 'x-file'?: string };
      const file = s['x-file'] ? `\`${s['x-file']}\`` : '';
      return `| \`${name}\` | ${file} | ${cell(allowedOf(schema))} | ${code(defaultsOf(schema))} | ${cell(s.description ?? '')} |`;
    }),
  ].join('\n');

const SECTIONS: Array<{ title: string; intro: string; schema: TSchema }> = [
  {
    title: 'Account settings',
    intro:
      "The config file's `account` object, and `GET` / `PATCH /api/v1/settings/account` of the management API. " +
      "The file's keys are applied over the stored settings at each start; a nested group may be given in part.",
    schema: AccountSchema,
  },
  {
    title: 'Clients',
    intro:
      "Each entry of the config file's `clients` array, and `/api/v1/clients` of the management API. " +
      'A resource server has no grant types and no response types by default; a public client always uses PKCE.',
    schema: ClientSchema,
  },
  {
    title: 'Social providers',
    intro:
      "Each entry of the config file's `social_providers` array, and `/api/v1/social-providers` of the management API. " +
      "A preset fills in the endpoints, scopes and label; any key given overrides the preset's.",
    schema: SocialProviderInput,
  },
  {
    title: 'Webhooks',
    intro:
      "Each entry of the config file's `webhooks` array: an endpoint applied at every start (created, or updated to match), " +
      'with the id `cfg_<name>`. Its secret is read from the environment variable `secret_env` names. An endpoint removed ' +
      'from the file is disabled at the next start (kept with its deliveries). See [webhooks](webhooks.md).',
    schema: WebhookSchema,
  },
];

export function settingsReference(): string {
  return [
    '# Configuration reference',
    '',
    '<!-- Written by `npm run docs:settings` from src/config/schema/: edit the schemas, not this file. -->',
    '',
    'Each setting is described once, in a schema under `src/config/schema/`; this page, the types, the defaults,',
    'the start-up validation and the management API are all read from there. Lifetimes are in seconds.',
    '',
    '## Environment and config file',
    '',
    'Environment variables override the keys of the JSON file named by `WARD_CONFIG` (an empty variable is unset). ' +
      'The file also holds the `account`, `clients`, `social_providers` and `webhooks` described below.',
    '',
    environment(),
    '',
    ...SECTIONS.flatMap((s) => [`## ${s.title}`, '', s.intro, '', table(s.schema), '']),
  ].join('\n');
}

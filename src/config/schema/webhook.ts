// The config file's `webhooks`: endpoints declared by the operator, applied at every start
// (webhooks/config-endpoints.ts). Each names the environment variable holding its `whsec_` signing
// secret (`secret_env`), so no secret is written in the file.
import type { Static } from 'typebox';
import { type ProblemSink, checkValue } from './check.js';
import { flag, group, list, text } from './kit.js';

/** A whsec_ secret: base64 of 24 to 64 bytes (Standard Webhooks). */
const SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const WebhookSchema = group(
  {
    name: text('A stable key for the endpoint (its id is `cfg_<name>`); renaming it makes another endpoint.', {
      pattern: '^[a-z0-9][a-z0-9_-]{0,55}$',
      allowed: '1-56 characters of a-z 0-9 _ - (a letter or digit first)',
    }),
    url: text('Where Ward posts the events: https, or http to a loopback address.', { min: 1, max: 2048 }),
    events: list(
      text('An event type of the catalog (docs/webhooks.md), or `*` for all.', { max: 64 }),
      64,
      'The events sent.',
      {
        value: ['*'],
        min: 1,
      },
    ),
    enabled: flag(true, 'Whether Ward sends to it.'),
    description: text('What it is for.', { max: 500, value: '' }),
    secret_env: text(
      'The name of the environment variable holding its signing secret (`whsec_` and base64 of 24 to 64 bytes).',
      { pattern: '^[A-Z_][A-Z0-9_]{0,127}$', allowed: 'an environment variable name (A-Z 0-9 _)' },
    ),
  },
  'A webhook endpoint declared in the config file (the management API shows it as `managed_by: "config"` and refuses to change it).',
  ['name', 'url', 'secret_env'],
);
type Entry = Static<typeof WebhookSchema>;
export type WebhookConfig = Omit<Entry, 'secret_env'> & { secret: string };

/** Validates the `webhooks` list; each secret is read from the variable `secret_env` names. */
export function validateWebhooks(
  p: ProblemSink,
  raw: unknown,
  env: Record<string, string | undefined>,
): WebhookConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    p.add('webhooks', 'must be an array');
    return [];
  }
  const out: WebhookConfig[] = [];
  raw.forEach((entry, i) => {
    const key = `webhooks[${i}]`;
    const e = checkValue<Entry>(p, key, WebhookSchema, entry);
    if (!e) return;
    const secret = env[e.secret_env];
    if (!secret || !SECRET.test(secret)) {
      p.add(`${key}.secret_env`, `${e.secret_env} must hold a whsec_ secret (whsec_ and base64 of 24 to 64 bytes)`);
      return;
    }
    if (out.some((x) => x.name === e.name)) p.add(`${key}.name`, `duplicate webhook ${e.name}`);
    else {
      const { secret_env: _, ...rest } = e;
      out.push({ ...rest, secret });
    }
  });
  return out;
}

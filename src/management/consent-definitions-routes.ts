import { Type } from 'typebox';
import { apiSchema } from '../config/schema/api.js';
import { ConsentDefinition } from '../config/schema/consents.js';
import { notFound } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import { anyObject } from '../http/schema-types.js';
import { changeAccount, type SettingsRoutesDeps } from './settings-routes.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { ConsentChanges } from '../accounts/consent-changes.js';
import type { UserService } from '../accounts/users.js';
import type { RateLimit } from '../config/types.js';
import type { ManagementActor } from './auth.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ConsentDefinitionsRoutesDeps extends SettingsRoutesDeps {
  consentChanges: ConsentChanges;
  users: UserService;
  limiter: (name: string, key: string, rule: RateLimit) => Promise<void>;
}

/** Per administrator: generous for a console, a bound for a script gone wrong. */
const RULE: RateLimit = { limit: 120, window_seconds: 60 };

const definitionSchema = apiSchema(ConsentDefinition);
const keyParam = Type.Object(
  { key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }) },
  { additionalProperties: false },
);
const userIdParam = Type.Object(
  { userId: Type.String({ pattern: '^[a-f0-9]{32}$' }) },
  { additionalProperties: false },
);
const definitionBody = apiSchema(ConsentDefinition, {
  input: true,
  omit: ['key'],
  needed: ['consent_type', 'versions'],
});

const historyItem = Type.Object({
  key: Type.String(),
  granted: Type.Boolean(),
  date: Type.String(),
  consent_version: Type.Object({ version_id: Type.Integer(), language: Type.String() }),
  consent_type: Type.String(),
  waiting_double_accept: Type.Boolean(),
  reporter: Type.String({ description: 'end_user, managed (an administrator) or import' }),
});

/** A refusal of the settings with its fields named in the definition's body (versions[1].texts). */
function inThisDefinition(e: unknown, prefix: string): unknown {
  if (!(e instanceof WardError) || !e.details) return e;
  return new WardError(e.id, {
    description: e.description,
    details: e.details.map((d) => ({
      ...d,
      field: d.field.startsWith(prefix) ? d.field.slice(prefix.length) : d.field,
    })),
  });
}

/**
 * The account's consent definitions (the `consents` account setting: key, type, status, versions with
 * their texts), one at a time, and a user's consents with their history. A definition is archived,
 * never deleted: users' consents and history keep naming it.
 */
export function consentDefinitionRoutes(r: ConsentDefinitionsRoutesDeps): ManagementRoute[] {
  const limit = (actor: ManagementActor) => r.limiter('management_consents', `${actor.type}:${actor.id}`, RULE);
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/consent-definitions',
      tag: 'consents',
      permission: 'read:settings',
      summary: "List the account's consent definitions (users' consents such as a newsletter opt-in)",
      response: { status: 200, schema: Type.Object({ consent_definitions: Type.Array(definitionSchema) }) },
      handler: async ({ actor }) => {
        await limit(actor);
        return { consent_definitions: r.account().consents };
      },
    }),
    managementRoute({
      method: 'PUT',
      url: '/api/v1/consent-definitions/:key',
      tag: 'consents',
      permission: 'manage:settings',
      audit: 'consent_definition.saved',
      params: keyParam,
      body: definitionBody,
      summary:
        'Create or replace a consent definition: its type, status (archive it rather than delete it), whether required, its versions',
      response: { status: 200, schema: definitionSchema },
      handler: async ({ actor, params, body }) => {
        await limit(actor);
        const others = r.account().consents.filter((d) => d.key !== params.key);
        const next = await changeAccount(
          r,
          actor,
          { consents: [...others, { ...body, key: params.key }] },
          { action: 'consent_definition.saved', target: `consent_definition:${params.key}`, fields: Object.keys(body) },
        ).catch((e: unknown) => {
          throw inThisDefinition(e, `consents[${others.length}].`);
        });
        return next.consents.find((d) => d.key === params.key)!;
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/profile-consents',
      tag: 'consents',
      permission: 'read:users',
      params: userIdParam,
      summary: "A user's consents to the account's consent definitions, and every change of them (the history)",
      response: {
        status: 200,
        schema: Type.Object({
          consents: anyObject({ description: 'by key, in the Core SDK shape (as getUser answers)' }),
          history: Type.Array(historyItem, { description: 'every change, oldest first' }),
        }),
      },
      handler: async ({ actor, params }) => {
        await limit(actor);
        if (!(await r.users.find(params.userId))) throw notFound('No such user');
        return {
          consents: await r.consentChanges.of(params.userId),
          history: await r.consentChanges.history(params.userId),
        };
      },
    }),
  ];
}

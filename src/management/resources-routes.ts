// /api/v1/resources: the API resources clients may ask tokens for (RFC 8707 resource indicators; the
// tokens' format, JWT per RFC 9068 or sealed, and lifetime). Every change is audited in its own
// transaction; every call is rate-limited per caller.
import { Type } from 'typebox';
import { recordAudit } from '../audit/record.js';
import type { RateLimit } from '../config/types.js';
import { notFound } from '../errors/refusals.js';
import { nullable, partialObject, stringEnum } from '../http/schema-types.js';
import type { Clock } from '../lib/clock.js';
import {
  type ApiResource,
  createResource,
  TOKEN_FORMATS,
  TTL_BOUNDS,
  toResource,
  updateResource,
} from '../resources/service.js';
import type { Storage } from '../storage/storage.js';
import type { ManagementActor } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ResourcesRoutesDeps {
  clock: Clock;
  storage: Storage;
  limiter: (name: string, key: string, rule: RateLimit) => Promise<void>;
}

/** Calls per caller and minute on /api/v1/resources. */
const RULE: RateLimit = { limit: 300, window_seconds: 60 };

const fields = {
  identifier: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'An absolute URI without a fragment (RFC 8707), e.g. https://api.example.com/: the tokens\u2019 aud',
  }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
    maxItems: 100,
    description: 'The scopes the API defines (not openid, profile, email, phone, address, mfa, offline_access)',
  }),
  token_format: stringEnum([...TOKEN_FORMATS], {
    description:
      'jwt: RFC 9068, signed with the account\u2019s keys (default); opaque: sealed, checked by introspection',
  }),
  access_token_ttl: nullable(
    Type.Integer({
      minimum: TTL_BOUNDS.min,
      maximum: TTL_BOUNDS.max,
      description: 'Seconds; null: the account\u2019s access_token_ttl',
    }),
  ),
};
const resourceIdParam = Type.Object(
  { resourceId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) },
  { additionalProperties: false },
);
const resourceSchema = partialObject({
  id: Type.String(),
  ...fields,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const view = (r: ApiResource) => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  token_format: r.token_format,
  access_token_ttl: r.access_token_ttl,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export function resourceRoutes(r: ResourcesRoutesDeps): ManagementRoute[] {
  const limit = (actor: ManagementActor) => r.limiter('management_resources', `${actor.type}:${actor.id}`, RULE);
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/resources',
      tag: 'resources',
      permission: 'read:clients',
      summary: 'List the API resources',
      response: { status: 200, schema: partialObject({ resources: Type.Array(resourceSchema) }) },
      handler: async ({ actor }) => {
        await limit(actor);
        return { resources: (await r.storage.apiResources.list()).map((row) => view(toResource(row))) };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/resources',
      tag: 'resources',
      permission: 'manage:clients',
      audit: 'resource.created',
      summary: 'Register an API resource (an audience of access tokens)',
      body: Type.Object(
        {
          identifier: fields.identifier,
          name: fields.name,
          scopes: Type.Optional(fields.scopes),
          token_format: Type.Optional(fields.token_format),
          access_token_ttl: Type.Optional(fields.access_token_ttl),
        },
        { additionalProperties: false },
      ),
      response: { status: 201, schema: resourceSchema },
      handler: async ({ actor, body }) => {
        await limit(actor);
        const now = r.clock.now();
        const made = await r.storage.transaction(async (tx) => {
          const out = await createResource(tx, now, body);
          await recordAudit(tx, now, actor, 'resource.created', `resource:${out.id}`, 'success', {
            identifier: out.identifier,
            token_format: out.token_format,
          });
          return out;
        });
        return view(made);
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/resources/:resourceId',
      tag: 'resources',
      permission: 'read:clients',
      params: resourceIdParam,
      summary: 'Read one API resource',
      response: { status: 200, schema: resourceSchema },
      handler: async ({ actor, params }) => {
        await limit(actor);
        const row = await r.storage.apiResources.find(params.resourceId);
        if (!row) throw notFound(`No API resource ${params.resourceId}`);
        return view(toResource(row));
      },
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/resources/:resourceId',
      tag: 'resources',
      permission: 'manage:clients',
      audit: 'resource.updated',
      params: resourceIdParam,
      summary: 'Change an API resource (its tokens issued before keep what they carry)',
      body: partialObject(fields, { additionalProperties: false, minProperties: 1 }),
      response: { status: 200, schema: resourceSchema },
      handler: async ({ actor, params, body }) => {
        await limit(actor);
        const now = r.clock.now();
        const updated = await r.storage.transaction(async (tx) => {
          const out = await updateResource(tx, params.resourceId, now, body);
          if (out)
            await recordAudit(tx, now, actor, 'resource.updated', `resource:${out.id}`, 'success', {
              fields: Object.keys(body),
            });
          return out;
        });
        if (!updated) throw notFound(`No API resource ${params.resourceId}`);
        return view(updated);
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/resources/:resourceId',
      tag: 'resources',
      permission: 'manage:clients',
      audit: 'resource.deleted',
      params: resourceIdParam,
      summary: 'Remove an API resource: its grants can no longer get tokens (issued ones live until they expire)',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        await limit(actor);
        const now = r.clock.now();
        const removed = await r.storage.transaction(async (tx) => {
          const gone = await tx.apiResources.remove(params.resourceId);
          if (gone) await recordAudit(tx, now, actor, 'resource.deleted', `resource:${params.resourceId}`, 'success');
          return gone;
        });
        if (!removed) throw notFound(`No API resource ${params.resourceId}`);
      },
    }),
  ];
}

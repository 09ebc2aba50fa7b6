import { Type } from 'typebox';
import { partialObject } from '../http/schema-types.js';
import { apiSchema } from '../config/schema/api.js';
import {
  PROVIDER_NAME_PATTERN,
  SocialProviderInput,
  SocialProviderSchema,
  validateSocialProviders,
} from '../config/schema/social-provider.js';
import { Problems } from '../config/validate.js';
import type { SocialProviderConfig } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { notFound } from '../errors/refusals.js';
import { recordAudit } from '../audit/record.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { Clock } from '../lib/clock.js';
import type { SocialProviders } from '../social/providers.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SocialRoutesDeps {
  clock: Clock;
  socialProviders: SocialProviders;
  storage: Storage;
}

const name = Type.String({ pattern: PROVIDER_NAME_PATTERN });
const nameParam = Type.Object({ name }, { additionalProperties: false });
const providerSchema = apiSchema(SocialProviderSchema, { omit: ['client_secret'] });

/** A provider as the API shows it: never its secret. */
const view = (p: SocialProviderConfig) => {
  const { client_secret: _secret, ...rest } = p;
  return rest;
};

function validated(raw: Record<string, unknown>): SocialProviderConfig {
  const p = new Problems();
  const [def] = validateSocialProviders(p, [raw]);
  if (!def || p.list.length)
    throw new WardError('socialProviderInvalid', {
      description: p.list.join('; ').replace(/social_providers\[0\]\./g, ''),
    });
  return def;
}

/** Social providers through the management API (the config file declares them too). */
export function socialRoutes(r: SocialRoutesDeps): ManagementRoute[] {
  async function changed(actor: Parameters<typeof recordAudit>[2], action: string, name: string) {
    await r.storage.transaction(async (tx) => {
      await tx.versions.bump('social');
      await recordAudit(tx, r.clock.now(), actor, action, `social:${name}`, 'success');
    });
    await r.socialProviders.reload();
  }
  const current = (name: string) => r.socialProviders.list().find((p) => p.name === name);
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/social-providers',
      tag: 'social',
      permission: 'read:settings',
      summary: 'List the social login providers (secrets never shown)',
      response: {
        status: 200,
        schema: partialObject({ providers: Type.Array(providerSchema) }),
      },
      handler: async () => ({ providers: r.socialProviders.list().map(view) }),
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/social-providers',
      tag: 'social',
      permission: 'manage:settings',
      audit: 'social_provider.created',
      body: apiSchema(SocialProviderInput, { input: true }),
      summary: 'Add a provider (generic OIDC, generic OAuth 2.0, or a preset)',
      response: { status: 201, schema: providerSchema },
      handler: async ({ actor, body }) => {
        const def = validated(body);
        if (current(def.name))
          throw new WardError('socialProviderExists', { description: `A provider ${def.name} already exists` });
        await r.socialProviders.save(def, 'api');
        await changed(actor, 'social_provider.created', def.name);
        return view(def);
      },
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/social-providers/:name',
      tag: 'social',
      permission: 'manage:settings',
      audit: 'social_provider.updated',
      params: nameParam,
      body: apiSchema(SocialProviderInput, { input: true, omit: ['name'], minProperties: 1 }),
      summary: 'Change a provider (a new client_secret replaces the old one)',
      response: { status: 200, schema: providerSchema },
      handler: async ({ actor, params, body }) => {
        const existing = current(params.name);
        if (!existing) throw notFound(`No provider ${params.name}`);
        const def = validated({ ...existing, ...body, name: existing.name });
        await r.socialProviders.save(def, 'api');
        await changed(actor, 'social_provider.updated', def.name);
        return view(def);
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/social-providers/:name',
      tag: 'social',
      permission: 'manage:settings',
      audit: 'social_provider.deleted',
      params: nameParam,
      summary: 'Remove a provider (linked identities stay, unusable until it comes back)',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        if (!(await r.storage.socialProviders.delete(params.name))) throw notFound(`No provider ${params.name}`);
        await changed(actor, 'social_provider.deleted', params.name);
      },
    }),
  ];
}

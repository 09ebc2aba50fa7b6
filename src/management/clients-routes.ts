import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { partialObject, stringEnum } from '../http/schema-types.js';
import type { ClientService, Client } from '../clients/service.js';
import { hasSecret } from '../config/types.js';
import { apiSchema } from '../config/schema/api.js';
import { ClientSchema } from '../config/schema/client.js';
import { Problems, validateClient } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import { notFound } from '../errors/refusals.js';
import { isSigningAlg } from '../keys/families.js';
import { GLOBAL_SET, clientSet, type KeyStore } from '../keys/key-store.js';
import { recordAudit } from '../audit/record.js';
import { isSystemClient } from '../clients/system.js';
import { requireHolds, type ManagementActor } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import { clientIdParam, emptyBody } from './schemas.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ClientsRoutesDeps {
  clock: Clock;
  keys: KeyStore;
  storage: Storage;
}

/** A client as the API shows it: never its secret, except in the answer that made it. */
export const clientSchema = apiSchema(ClientSchema, {
  extra: {
    key_mode: stringEnum(['global', 'client']),
    created_at: Type.String(),
    updated_at: Type.String(),
    client_secret: Type.String({ description: 'Only in the answer that created or regenerated it' }),
  },
});

export function clientView(c: Client, secret?: string): Record<string, unknown> {
  return {
    client_id: c.client_id,
    name: c.name,
    type: c.type,
    jwt_algorithm: c.jwt_algorithm,
    allowed_callback_urls: c.allowed_callback_urls,
    allowed_origins: c.allowed_origins,
    sso: c.sso,
    scope: c.scope,
    pkce_enforced: c.pkce_enforced,
    implicit_flow: c.implicit_flow,
    response_types: c.response_types,
    post_logout_redirect_uris: c.post_logout_redirect_uris,
    backchannel_logout_uri: c.backchannel_logout_uri,
    backchannel_logout_session_required: c.backchannel_logout_session_required,
    grant_types: c.grant_types,
    management_scopes: c.management_scopes,
    custom_token_login: c.custom_token_login,
    first_party: c.first_party,
    logo_uri: c.logo_uri,
    client_uri: c.client_uri,
    policy_uri: c.policy_uri,
    tos_uri: c.tos_uri,
    token_endpoint_auth_method: c.token_endpoint_auth_method,
    jwks: c.jwks,
    jwks_uri: c.jwks_uri,
    require_pushed_authorization_requests: c.require_pushed_authorization_requests,
    request_object_signing_alg: c.request_object_signing_alg,
    require_signed_request_object: c.require_signed_request_object,
    dpop_bound_access_tokens: c.dpop_bound_access_tokens,
    client_credentials_resources: c.client_credentials_resources,
    key_mode: c.key_mode,
    created_at: new Date(c.created_at).toISOString(),
    updated_at: new Date(c.updated_at).toISOString(),
    ...(secret ? { client_secret: secret } : {}),
  };
}

/** The stored client as a definition validateClient understands, without its secret. */
function definitionOf(c: Client): Record<string, unknown> {
  const {
    key_mode: _k,
    created_at: _c,
    updated_at: _u,
    secret_sealed: _s,
    secret_digest: _d,
    source: _src,
    tokens_not_before: _t,
    ...def
  } = c;
  return def;
}

function validated(raw: Record<string, unknown>) {
  const p = new Problems();
  const def = validateClient(p, 'client', raw);
  if (!def) {
    const details = p.list.map((m) => ({
      field: m.split(':')[0]!.replace(/^client\./, ''),
      message: m.slice(m.indexOf(':') + 2),
      code: 'invalid' as const,
    }));
    throw new WardError('clientInvalid', { description: p.list.join('; ').slice(0, 500), details });
  }
  return def;
}

const newSecret = () => randomBytes(32).toString('base64url');
/** Whether a requested type authenticates with a secret (confidential, resource_server). */
const secretful = (type: unknown): boolean => type === 'confidential' || type === 'resource_server';

/** Clients CRUD and secret regeneration. Every change is audited and bumps the clients version. */
export function clientRoutes(r: ClientsRoutesDeps, clients: ClientService): ManagementRoute[] {
  async function existing(id: string): Promise<Client> {
    const c = await clients.find(id);
    if (!c) throw notFound(`No client ${id}`);
    return c;
  }
  /**
   * A client the caller may change, delete or re-secret: not one of Ward's own, and none of whose
   * management scopes the caller lacks (else it would take over a more powerful client).
   */
  async function changeable(actor: ManagementActor, id: string): Promise<Client> {
    const c = await existing(id);
    if (isSystemClient(c.client_id)) throw new WardError('systemClient');
    requireHolds(actor, c.management_scopes, `Changing client ${c.client_id}`);
    return c;
  }
  /** What the audit keeps of a client's powers (never its secret). */
  const powers = (c: Client) => ({ scope: c.scope, management_scopes: c.management_scopes });
  /** A client written by `write` in the transaction of its audit row (so of its webhook event). */
  async function changedWith(
    action: string,
    actor: Parameters<typeof recordAudit>[2],
    target: string,
    write: (tx: Parameters<Parameters<typeof r.storage.transaction>[0]>[0]) => Promise<Client>,
    details: (c: Client) => Record<string, unknown> = () => ({}),
  ): Promise<Client> {
    const client = await r.storage.transaction(async (tx) => {
      const c = await write(tx);
      await tx.versions.bump('clients');
      await recordAudit(tx, r.clock.now(), actor, action, `client:${target}`, 'success', details(c));
      return c;
    });
    clients.invalidate();
    return client;
  }
  /** A client of ES256 / EdDSA: the global pair of that family is published before its first token. */
  async function globalKeyFor(alg: string) {
    if (isSigningAlg(alg) && !r.keys.hasCurrent(GLOBAL_SET, alg)) await r.keys.ensureGlobalKeys([alg]);
  }
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/clients',
      tag: 'clients',
      permission: 'read:clients',
      summary: 'List clients (optionally filtered by q, a substring of id or name)',
      query: partialObject({ q: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
      response: { status: 200, schema: partialObject({ clients: Type.Array(clientSchema) }) },
      handler: async ({ query }) => {
        const q = query.q?.toLowerCase() ?? '';
        const all = await r.storage.clients.list();
        return {
          clients: all
            .filter((c) => !q || c.client_id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q))
            .map((c) => clientView(c)),
        };
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/clients/:clientId',
      tag: 'clients',
      permission: 'read:clients',
      params: clientIdParam,
      summary: 'Read one client',
      response: { status: 200, schema: clientSchema },
      handler: async ({ params }) => clientView(await existing(params.clientId)),
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/clients',
      tag: 'clients',
      permission: 'manage:clients',
      audit: 'client.created',
      summary:
        'Create a client (a confidential client or resource server without a secret gets a generated one, shown once)',
      body: apiSchema(ClientSchema, { input: true, needed: ['client_id'] }),
      response: { status: 201, schema: clientSchema },
      handler: async ({ actor, body }) => {
        const id = body.client_id;
        if (await clients.find(id))
          throw new WardError('clientExists', { description: `A client ${id} already exists` });
        const secret = secretful(body.type) ? (body.client_secret ?? newSecret()) : undefined;
        const def = validated({ ...body, ...(secret ? { client_secret: secret } : {}) });
        requireHolds(actor, def.management_scopes, 'A client with these management_scopes');
        await globalKeyFor(def.jwt_algorithm);
        const created = await changedWith('client.created', actor, id, (tx) => clients.upsert(def, 'api', tx), powers);
        return clientView(created, body.client_secret ? undefined : secret);
      },
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/clients/:clientId',
      tag: 'clients',
      permission: 'manage:clients',
      audit: 'client.updated',
      params: clientIdParam,
      summary: 'Change fields of a client (switching from public to a type with a secret generates one, shown once)',
      body: apiSchema(ClientSchema, { input: true, omit: ['client_id', 'client_secret'], minProperties: 1 }),
      response: { status: 200, schema: clientSchema },
      handler: async ({ actor, params, body }) => {
        const current = await changeable(actor, params.clientId);
        const becomesConfidential = secretful(body.type) && current.type === 'public';
        const secret =
          current.type !== 'public' && body.type !== 'public'
            ? clients.secretOf(current)
            : becomesConfidential
              ? newSecret()
              : undefined;
        const def = validated({ ...definitionOf(current), ...body, ...(secret ? { client_secret: secret } : {}) });
        requireHolds(actor, def.management_scopes, 'A client with these management_scopes');
        // A client-specific client's own pair is of its algorithm's family: sync it before changing family.
        if (def.jwt_algorithm !== current.jwt_algorithm && current.key_mode === 'client') {
          throw new WardError('clientHasOwnKeys');
        }
        await globalKeyFor(def.jwt_algorithm);
        const updated = await changedWith(
          'client.updated',
          actor,
          current.client_id,
          (tx) => clients.upsert(def, current.source, tx),
          (c) => ({ fields: Object.keys(body), ...powers(c) }),
        );
        return clientView(updated, becomesConfidential ? secret : undefined);
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/clients/:clientId/secret',
      tag: 'clients',
      permission: 'manage:clients',
      audit: 'client.secret_regenerated',
      params: clientIdParam,
      body: emptyBody,
      summary:
        'Regenerate the secret of a confidential client or resource server (shown once; the old one stops working)',
      response: { status: 200, schema: clientSchema },
      handler: async ({ actor, params }) => {
        const current = await changeable(actor, params.clientId);
        if (!hasSecret(current.type)) throw new WardError('clientIsPublic');
        const secret = newSecret();
        const def = validated({ ...definitionOf(current), client_secret: secret });
        const updated = await changedWith('client.secret_regenerated', actor, current.client_id, (tx) =>
          clients.upsert(def, current.source, tx),
        );
        return clientView(updated, secret);
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/clients/:clientId',
      tag: 'clients',
      permission: 'manage:clients',
      audit: 'client.deleted',
      params: clientIdParam,
      summary: 'Delete a client and revoke its own keys',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const current = await changeable(actor, params.clientId);
        const now = r.clock.now();
        await r.storage.transaction(async (tx) => {
          await tx.versions.bump('keys');
          await tx.clients.delete(current.client_id);
          // A self-registered client's registration (RFC 7591) goes too: its access token manages nothing now.
          await tx.clientRegistrations.delete(current.client_id);
          // Its users' consents go with it: a new client of the same id asks them again.
          await tx.consents.revokeClient(current.client_id);
          await tx.keys.revokeSet(clientSet(current.client_id), now);
          await tx.versions.bump('clients');
          await recordAudit(tx, now, actor, 'client.deleted', `client:${current.client_id}`, 'success');
        });
        clients.invalidate();
        await r.keys.reload();
      },
    }),
  ];
}

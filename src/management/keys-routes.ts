import { Type } from 'typebox';
import { partialObject } from '../http/schema-types.js';
import { GLOBAL_SET } from '../keys/key-store.js';
import type { KeyOperations } from '../keys/operations.js';
import { managementRoute, type ManagementRoute } from './route.js';
import {
  clientIdParam,
  clientKeysSchema,
  emptyBody,
  keySchema,
  kidParam,
  rotateGlobalBody,
  siteKidParam,
} from './schemas.js';

/** The four key operations of the contract, plus listing and revoking global keys. */
export function keyRoutes(ops: KeyOperations): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/site/keys',
      tag: 'keys',
      permission: 'read:clients',
      summary: 'List the global key set',
      response: { status: 200, schema: partialObject({ keys: Type.Array(keySchema) }) },
      handler: async () => ({ keys: await ops.listSet(GLOBAL_SET) }),
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/site/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.rotated',
      body: rotateGlobalBody,
      bodyOptional: true,
      summary:
        'Rotate a global key pair: the RSA pair, or with {"alg": "ES256"} / {"alg": "EdDSA"} the EC P-256 / ' +
        'Ed25519 one (the old key stays published for the grace period)',
      response: { status: 201, schema: keySchema },
      handler: ({ actor, body }) => ops.rotateGlobal(actor, body.alg),
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/site/keys/:kid',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.revoked',
      params: siteKidParam,
      summary: 'Revoke a global key (a current one is replaced by a fresh pair)',
      response: { status: 204 },
      handler: ({ actor, params }) => ops.revokeGlobalKey(params.kid, actor),
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'read:clients',
      params: clientIdParam,
      summary: "A client's key state (synced with global or client-specific) and its own keys",
      response: { status: 200, schema: clientKeysSchema },
      handler: ({ params }) => ops.clientKeys(params.clientId),
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.rotated',
      params: clientIdParam,
      body: emptyBody,
      bodyOptional: true,
      summary:
        "Rotate the client key: a new client-specific pair of the client's algorithm (RS256, ES256 or EdDSA; not " +
        'HS256)',
      response: { status: 201, schema: keySchema },
      handler: ({ actor, params }) => ops.rotateClient(params.clientId, actor),
    }),
    managementRoute({
      method: 'PUT',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.synced',
      params: clientIdParam,
      body: emptyBody,
      bodyOptional: true,
      summary: 'Synchronise the client with the global pair',
      response: { status: 200, schema: clientKeysSchema },
      handler: async ({ actor, params }) => {
        await ops.syncClient(params.clientId, actor);
        return ops.clientKeys(params.clientId);
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/clients/:clientId/jwks/:kid',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.revoked',
      params: kidParam,
      summary: 'Revoke the key kid of the client (revoking its current key sends the client back to the global pair)',
      response: { status: 204 },
      handler: ({ actor, params }) => ops.revokeClientKey(params.clientId, params.kid, actor),
    }),
  ];
}

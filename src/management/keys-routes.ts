import { GLOBAL_SET } from '../keys/key-store.js';
import type { KeyOperations } from '../keys/operations.js';
import type { ManagementRoute } from './route.js';
import { clientIdParam, clientKeysSchema, emptyBody, keySchema, kidParam, siteKidParam } from './schemas.js';

/** The four key operations of the contract, plus listing and revoking global keys. */
export function keyRoutes(ops: KeyOperations): ManagementRoute[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/site/keys',
      tag: 'keys',
      permission: 'read:clients',
      summary: 'List the global key set',
      response: { status: 200, schema: { type: 'object', properties: { keys: { type: 'array', items: keySchema } } } },
      handler: async () => ({ keys: await ops.listSet(GLOBAL_SET) }),
    },
    {
      method: 'POST',
      url: '/api/v1/site/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.rotated',
      body: emptyBody,
      summary: 'Rotate the global RSA key pair (the old key stays published for the grace period)',
      response: { status: 201, schema: keySchema },
      handler: ({ actor }) => ops.rotateGlobal(actor),
    },
    {
      method: 'DELETE',
      url: '/api/v1/site/keys/:kid',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.revoked',
      params: siteKidParam,
      summary: 'Revoke a global key (a current one is replaced by a fresh pair)',
      response: { status: 204 },
      handler: ({ actor, params }) => ops.revokeGlobalKey(params.kid!, actor),
    },
    {
      method: 'GET',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'read:clients',
      params: clientIdParam,
      summary: "A client's key state (synced with global or client-specific) and its own keys",
      response: { status: 200, schema: clientKeysSchema },
      handler: ({ params }) => ops.clientKeys(params.clientId!),
    },
    {
      method: 'POST',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.rotated',
      params: clientIdParam,
      body: emptyBody,
      summary: 'Rotate the client key: a new client-specific RS256 pair (the client must use RS256)',
      response: { status: 201, schema: keySchema },
      handler: ({ actor, params }) => ops.rotateClient(params.clientId!, actor),
    },
    {
      method: 'PUT',
      url: '/api/v1/clients/:clientId/keys',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.synced',
      params: clientIdParam,
      body: emptyBody,
      summary: 'Synchronise the client with the global pair',
      response: { status: 200, schema: clientKeysSchema },
      handler: async ({ actor, params }) => {
        await ops.syncClient(params.clientId!, actor);
        return ops.clientKeys(params.clientId!);
      },
    },
    {
      method: 'DELETE',
      url: '/api/v1/clients/:clientId/jwks/:kid',
      tag: 'keys',
      permission: 'manage:keys',
      audit: 'key.revoked',
      params: kidParam,
      summary: 'Revoke the key kid of the client (revoking its current key sends the client back to the global pair)',
      response: { status: 204 },
      handler: ({ actor, params }) => ops.revokeClientKey(params.clientId!, params.kid!, actor),
    },
  ];
}

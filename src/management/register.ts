import type { FastifyInstance } from 'fastify';
import type { Registry } from '../registry.js';
import { auditRoutes } from './audit-routes.js';
import { clientRoutes } from './clients-routes.js';
import { customTokenRoutes } from './custom-token-routes.js';
import { userPasskeyRoutes } from './user-passkeys-routes.js';
import { keyRoutes } from './keys-routes.js';
import { openApiDocument } from './openapi.js';
import { registerManagementRoutes, type ManagementRoute } from './route.js';
import { settingsRoutes } from './settings-routes.js';
import { socialRoutes } from './social-routes.js';
import { userLifecycleRoutes } from './user-lifecycle-routes.js';
import { userRoutes } from './users-routes.js';

/** What the management API reads of the registry (its routes together). */
type ManagementDeps = Pick<
  Registry,
  | 'accessTokens'
  | 'account'
  | 'clients'
  | 'clock'
  | 'config'
  | 'events'
  | 'keyOps'
  | 'keys'
  | 'logoutDelivery'
  | 'masterKey'
  | 'notices'
  | 'passwordReset'
  | 'profiles'
  | 'setAccount'
  | 'socialProviders'
  | 'storage'
  | 'tkn'
  | 'users'
>;

export function managementRoutes(r: ManagementDeps): ManagementRoute[] {
  return [
    ...keyRoutes(r.keyOps),
    ...clientRoutes(r, r.clients),
    ...settingsRoutes(r),
    ...auditRoutes(r),
    ...userRoutes(r),
    ...userLifecycleRoutes(r),
    ...socialRoutes(r),
    ...customTokenRoutes(r),
    ...userPasskeyRoutes(r),
  ];
}

/** /api/v1: the management routes and their OpenAPI description. */
export function installManagementApi(app: FastifyInstance, r: ManagementDeps): void {
  const routes = managementRoutes(r);
  registerManagementRoutes(app, r, routes);
  const doc = openApiDocument(r.config.issuer, routes);
  app.get('/api/v1/openapi.json', (_req, reply) => {
    reply.header('Content-Type', 'application/json; charset=utf-8').send(doc);
  });
}

import { userFactorRoutes } from './user-factors-routes.js';
import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit-routes.js';
import { clientRoutes } from './clients-routes.js';
import { customTokenRoutes } from './custom-token-routes.js';
import { userPasskeyRoutes } from './user-passkeys-routes.js';
import { userConsentRoutes } from './user-consents-routes.js';
import { consentDefinitionRoutes } from './consent-definitions-routes.js';
import { keyRoutes } from './keys-routes.js';
import { openApiDocument } from './openapi.js';
import { registerManagementRoutes, type ManagementRoute } from './route.js';
import { resourceRoutes } from './resources-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { socialRoutes } from './social-routes.js';
import { userImportJobRoutes } from './user-import-job-routes.js';
import { userImportRoutes } from './user-import-routes.js';
import { userLifecycleRoutes } from './user-lifecycle-routes.js';
import { userRoutes } from './users-routes.js';
import { webhookRoutes } from './webhooks-routes.js';
import { hookRoutes } from './hooks-routes.js';
import type { ProfileService } from '../accounts/profiles.js';
import type { ConsentChanges } from '../accounts/consent-changes.js';
import type { ImportJobs } from '../accounts/import/import-jobs.js';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings, WardConfig } from '../config/types.js';
import type { KeyStore } from '../keys/key-store.js';
import type { KeyOperations } from '../keys/operations.js';
import type { Limiter } from '../limits/rate-limit.js';
import type { Clock } from '../lib/clock.js';
import type { LogoutDelivery } from '../logout/backchannel.js';
import type { AccessTokenCodec } from '../protocol/access-token-codec.js';
import type { TknService } from '../protocol/tkn.js';
import type { PasswordReset } from '../self-service/password-reset.js';
import type { SocialProviders } from '../social/providers.js';
import type { FactorNotices } from '../stepup/factor-notices.js';
import type { Storage } from '../storage/storage.js';

/** What the management API uses of the services (its routes together). */
interface ManagementDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  consentChanges: ConsentChanges;
  events: SecurityEvents;
  keyOps: KeyOperations;
  keys: KeyStore;
  limiter: Limiter;
  logoutDelivery: LogoutDelivery;
  masterKey: Buffer;
  notices: FactorNotices;
  passwordReset: PasswordReset;
  profiles: ProfileService;
  setAccount: (next: AccountSettings) => void;
  socialProviders: SocialProviders;
  storage: Storage;
  tkn: TknService;
  users: UserService;
  webhookDelivery: { kick(): void };
  hookCaller: { invalidate(): void };
  importJobs: ImportJobs;
}

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
    ...userFactorRoutes(r),
    ...userConsentRoutes(r),
    ...consentDefinitionRoutes(r),
    ...webhookRoutes(r),
    ...hookRoutes(r),
    ...resourceRoutes(r),
    ...userImportRoutes(r),
    ...userImportJobRoutes(r),
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

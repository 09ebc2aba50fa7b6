import { consentConfirmationRoutes } from './http/routes/consent-confirmation.js';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { consoleRoutes } from './console/routes.js';
import { languageOf, WardError } from './errors/ward-error.js';
import { accountRoutes } from './http/routes/account.js';
import { hostedMfaRoutes } from './http/routes/authorize-mfa.js';
import { hostedEnrolRoutes } from './http/routes/authorize-enrol.js';
import { socialRoutes } from './http/routes/social.js';
import { signupCompletionRoutes } from './http/routes/signup-completion.js';
import { installCors } from './http/cors.js';
import { installSignInGuard } from './http/sign-in-guard.js';
import { Draining, installDraining } from './http/draining.js';
import { installDurableAnswers } from './http/durable-answers.js';
import { installAccountLanguage } from './http/page-language.js';
import { installErrorHandling } from './http/errors.js';
import { installPublicOpenApi } from './http/public-openapi.js';
import { lazyValidatorFactory } from './http/tuning/lazy-validation.js';
import { fastifyValidatorFactory, skipDescriptiveSchemas } from './http/descriptive-schemas.js';
import { installRequestLog, requestId } from './http/request-log.js';
import { installRequestTracing } from './http/request-tracing.js';
import { opsRoutes } from './http/routes/ops.js';
import type { WardApp } from './http/typed-app.js';
import { authorizeRoutes } from './http/routes/authorize.js';
import { signupPageRoutes } from './http/routes/authorize-signup.js';
import { consentRoutes } from './http/routes/authorize-consent.js';
import { reconsentRoutes } from './http/routes/authorize-reconsent.js';
import type { SignInDeps } from './http/sign-in.js';
import { identityRoutes } from './http/routes/identity.js';
import { profileRoutes } from './http/routes/profile.js';
import { webauthnRoutes } from './http/routes/webauthn.js';
import { logoutRoutes } from './http/routes/logout.js';
import { metadataRoutes } from './http/routes/metadata.js';
import { registrationRoutes } from './http/routes/registration.js';
import { mfaCredentialRoutes } from './http/routes/mfa-credentials.js';
import { strongFactorRoutes } from './http/routes/strong-factors.js';
import { customTokenRoutes } from './sign-in-methods/custom-token/routes.js';
import { passwordlessRoutes } from './http/routes/passwordless.js';
import { selfServiceRoutes } from './http/routes/self-service.js';
import { liteClaimRoutes } from './http/routes/lite-claim.js';
import { sessionRoutes } from './http/routes/sessions.js';
import { userConsentRoutes } from './http/routes/consents.js';
import { accountLeaveApiRoutes } from './http/routes/account-leave-api.js';
import { mySessionRoutes } from './http/routes/my-sessions.js';
import { stepUpRoutes } from './http/routes/stepup.js';
import { tokenRoutes } from './http/routes/token.js';
import { deviceRoutes } from './http/routes/device.js';
import { parRoutes } from './http/routes/par.js';
import { introspectRoutes } from './http/routes/introspect.js';
import { documentFastPath, installFastPath } from './http/tuning/document-fast-path.js';
import { installManagementApi } from './management/register.js';
import type { Registry } from './registry.js';

export interface AppOptions {
  https?: { cert: string; key: string };
  /** Shared with main: begun when shutting down (/readyz turns 503, new requests get 503, see draining.ts). */
  lifecycle?: Draining;
}

/** Builds the Fastify instance (no listen: tests and main both use it). */
export async function buildApp(r: Registry, opts: AppOptions = {}): Promise<WardApp> {
  // The speed-ups (config/tuning.ts) are chosen here; without them Fastify does it all its own way.
  const tuning = r.config.tuning;
  const server: FastifyServerOptions = {
    // Fastify's own request logging would print query strings (codes, tkn): Ward logs its own line.
    loggerInstance: r.log,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: 64 * 1024,
    // Only the configured proxies' X-Forwarded-For is believed (proxy-addr): req.ip is the right-most
    // address of the chain that is not a trusted proxy; with none, the connecting address.
    trustProxy: r.config.trustedProxies.length ? r.config.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: false },
    // Requests that arrive while closing get the API's 503 (draining.ts), not Fastify's own body.
    return503OnClosing: false,
    // Router-level refusals (a path parameter too long, a malformed URL) in the API's error shape.
    frameworkErrors: (err, req, reply) => {
      const e = new WardError('malformedUrl', {
        description: err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : undefined,
      });
      const body = e.body(languageOf(req.headers['accept-language'], r.account().default_language));
      void (reply as unknown as FastifyReply).code(400).header('Cache-Control', 'no-store').send(body);
    },
    // Validation refuses what it does not know: no silent stripping of fields, no type coercion.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
    // Schemas that only describe protocol parameters are not compiled (http/descriptive-schemas.ts).
    schemaController: {
      compilersFactory: {
        buildValidator: skipDescriptiveSchemas(
          tuning.lazy_validation ? lazyValidatorFactory() : fastifyValidatorFactory(),
        ) as never,
      },
    },
  };
  const lifecycle = opts.lifecycle ?? new Draining();
  // TypeBox types what a route's schema declares (http/typed-app.ts); validation stays Fastify's Ajv above.
  const app = (opts.https
    ? Fastify({ ...server, https: opts.https } as FastifyServerOptions)
    : Fastify(server)
  ).withTypeProvider<TypeBoxTypeProvider>() as unknown as WardApp;
  // With tracing on, the two documents go through Fastify too (a span each).
  if (r.tracing) installRequestTracing(app, r.tracing, opts.https ? 'https' : 'http');
  else if (tuning.document_fast_path) installFastPath(app.server, documentFastPath(r, lifecycle));
  installAccountLanguage(app, () => r.account().default_language);
  installRequestLog(app, r);
  installDraining(app, lifecycle);
  installErrorHandling(app, r.outage, r.config.issuer);
  installDurableAnswers(app, r.storage);
  await app.register(cookie);
  await app.register(formbody);
  installCors(app, r.clients);
  installSignInGuard(app, r.clients, r.config.issuer);
  // Before the routes: it collects them for /identity/v1/openapi.json (the management API has its own).
  installPublicOpenApi(app, r.config.issuer);
  opsRoutes(app, r, lifecycle);
  metadataRoutes(app, r);
  registrationRoutes(app, r);
  // One sign-in machinery (stored interaction, next step, step-ups), built by the registry, for the
  // hosted pages and the API.
  const signIn: SignInDeps = {
    interactions: r.interactions,
    nextStep: r.nextStep,
    stepUps: r.stepUps,
    social: r.social,
  };
  authorizeRoutes(app, r, signIn);
  signupPageRoutes(app, r, signIn);
  consentRoutes(app, r, signIn);
  hostedMfaRoutes(app, r, signIn);
  hostedEnrolRoutes(app, r, signIn);
  reconsentRoutes(app, r, signIn);
  socialRoutes(app, r, signIn);
  signupCompletionRoutes(app, r, signIn);
  tokenRoutes(app, r, signIn);
  deviceRoutes(app, r, signIn);
  parRoutes(app, r);
  introspectRoutes(app, r);
  identityRoutes(app, r, signIn);
  profileRoutes(app, r);
  webauthnRoutes(app, r);
  logoutRoutes(app, r);
  stepUpRoutes(app, r, signIn);
  mfaCredentialRoutes(app, r);
  strongFactorRoutes(app, r, signIn);
  sessionRoutes(app, r);
  mySessionRoutes(app, r);
  userConsentRoutes(app, r);
  accountLeaveApiRoutes(app, r);
  selfServiceRoutes(app, r);
  liteClaimRoutes(app, r);
  consentConfirmationRoutes(app, r);
  accountRoutes(app, r);
  passwordlessRoutes(app, r, signIn);
  customTokenRoutes(app, r, signIn);
  installManagementApi(app, r);
  consoleRoutes(app, r);
  return app;
}

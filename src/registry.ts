import { createAccountRecovery } from './self-service/account-recovery.js';
import { createPasswordless } from './passwordless/service.js';
import { createAccountCodes } from './accounts/codes.js';
import { createBackground } from './lib/background.js';
import { createImportJobs } from './accounts/import/import-jobs.js';
import { createAddresses } from './self-service/addresses.js';
import { createPasswordReset } from './self-service/password-reset.js';
import { createLiteClaims } from './self-service/lite-claim.js';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createSessionService, type SessionService } from './accounts/sessions.js';
import { isTrustedDevice } from './accounts/trusted-devices.js';
import { setPasswordStrengthIdle, usePreparedDictionaries, warmPasswordPolicy } from './accounts/password-policy.js';
import { preparedDictionariesIn } from './accounts/tuning/prepared-dictionaries.js';
import { createInteractionService } from './interaction/service.js';
import { createNextStep } from './interaction/next-step.js';
import { createEnrolmentStep } from './interaction/enrolment.js';
import { createReconsentStep } from './interaction/reconsent.js';
import { createEnrolmentKeys } from './interaction/enrolment-key.js';
import { createPlaces } from './self-service/places.js';
import { signInAudit } from './sign-in-methods/audit.js';
import { issueAuthorization } from './protocol/authorize/complete.js';
import { createAccountStepUp } from './self-service/account-step-up.js';
import { createSocialService, type SocialDeps } from './social/service.js';
import { stepUpRequiredAtLogin, verifiedFactors } from './stepup/factors.js';
import {
  createStepUpService,
  type SecondFactorKeys,
  type SecondFactorType,
  type StepUpDeps,
} from './stepup/service.js';
import { createLockNotices } from './accounts/lock-notices.js';
import { createUserService } from './accounts/users.js';
import { createProfileService } from './accounts/profiles.js';
import { createConsentChanges } from './accounts/consent-changes.js';
import { createConsentRenewal, type ConsentRenewal } from './accounts/consent-renewal.js';
import { loadMasterKey } from './bootstrap/data-dir.js';
import { createClientService, type ClientService } from './clients/service.js';
import { ensureConsoleClient } from './console/client.js';
import { DEFAULT_ACCOUNT } from './config/defaults.js';
import type { AccountSettings, WardConfig } from './config/types.js';
import { Problems, validateAccount } from './config/validate.js';
import { createLimiter } from './limits/rate-limit.js';
import { createDelivery, type Delivery } from './integrations/delivery.js';
import { ownMimeWriter } from './integrations/tuning/mime.js';
import { createFactorNotices } from './stepup/factor-notices.js';
import { createStrongFactors, type StrongFactors } from './stepup/strong-factors.js';
import { createMessageFactors } from './stepup/message-factors.js';
import { createSocialProviders } from './social/providers.js';
import { isSigningAlg } from './keys/families.js';
import { generateAhead } from './keys/generate.js';
import { joseJws } from './keys/jwt.js';
import { GLOBAL_SET, KeyStore } from './keys/key-store.js';
import { directJws } from './keys/tuning/jws.js';
import { createKeyOperations } from './keys/operations.js';
import { createSecurityEvents } from './audit/events.js';
import { systemClock, type Clock } from './lib/clock.js';
import { latestRead } from './lib/latest-read.js';
import { createOutbound, type Outbound, type OutboundOptions } from './lib/outbound/client.js';
import { addressPolicy, PRIVATE_TARGET_CIDRS, parseCidrList } from './lib/outbound/ranges.js';
import { createMetadataDocuments } from './clients/metadata-documents.js';
import { createClientKeys } from './clients/client-keys.js';
import { createRegistrations } from './clients/registration.js';
import { createCaptcha } from './captcha/siteverify.js';
import { drawRandomBytesFrom } from './lib/random.js';
import { pooledRandomBytes } from './lib/tuning/random-pool.js';
import { refusalStacks } from './errors/ward-error.js';
import { deliveriesFor, startLogoutDelivery, type LogoutDelivery } from './logout/backchannel.js';
import { createWardMetrics } from './observability/ward-metrics.js';
import { startTracing, type Tracing } from './observability/tracing.js';
import type { QueryObservation } from './storage/observe.js';
import { createIdTokenSigner, type IdTokenSigner } from './protocol/id-token.js';
import { createAccessTokenCodec } from './protocol/access-token-codec.js';
import { createDpopVerifier } from './protocol/dpop/proof.js';
import { createDpopNonces } from './protocol/dpop/nonce.js';
import { createRequestObjects } from './protocol/authorize/request-object.js';
import { createTokenIssuer, type TokenIssuer } from './protocol/issue-tokens.js';
import type { BeforeLogin } from './protocol/tkn.js';
import { createJwtAccessTokens } from './protocol/jwt-access-token.js';
import { resourceLookup } from './resources/service.js';
import { createTknService } from './protocol/tkn.js';
import { createPasskeys } from './passkeys/service.js';
import { hostedCeremonies } from './passkeys/relying-party.js';
import { startChangePoller, startJanitor } from './storage/change-poller.js';
import { type AccountDeletion, createAccountDeletion, startDeletionJob } from './self-service/account-deletion.js';
import { connect, migrate } from './storage/connect.js';
import { createVerificationService, type VerificationService } from './stepup/challenges.js';
import { createStorage, type Storage } from './storage/storage.js';
import { applyConfigEndpoints } from './webhooks/config-endpoints.js';
import { startWebhookDelivery, type WebhookDelivery } from './webhooks/delivery.js';
import { beforeLoginHooks, beforeSignupHooks, beforeTokenHooks } from './hooks/ask.js';
import { createHookCaller } from './hooks/caller.js';
import { outageLog } from './storage/unavailable.js';

export interface RegistryOptions {
  clock?: Clock;
  logger?: Logger;
  /** PostgreSQL schema (tests run each server in its own). */
  pgSchema?: string;
  /**
   * The first-start bootstrap (bootstrap/first-start.ts) follows, as for a server: on an empty store
   * its password check is got ready meanwhile. The CLI's other commands leave it out.
   */
  bootstrap?: boolean;
}

/** The redaction list of every log line: secrets never reach the logs (LG-01). */
export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.tkn',
  '*.code',
  '*.code_verifier',
  '*.refresh_token',
  '*.access_token',
  '*.id_token',
  '*.token',
  '*.signup_token',
];

export function makeLogger(level: WardConfig['logLevel']): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}

/** The composition root: config, clock, storage and services, built once per process. */
export async function buildRegistry(config: WardConfig, opts: RegistryOptions = {}) {
  // Process-wide speed-ups (config/tuning.ts): where random bytes come from, stacks on refusals.
  drawRandomBytesFrom(config.tuning.random_pool ? pooledRandomBytes : randomBytes);
  refusalStacks.skip = config.tuning.stackless_client_errors;
  setPasswordStrengthIdle(config.passwordStrengthIdleSeconds * 1000);
  // `npm run build` writes them beside the built server (this module's directory there).
  usePreparedDictionaries(
    config.tuning.prepared_dictionaries ? preparedDictionariesIn(new URL('.', import.meta.url)) : null,
  );
  const clock = opts.clock ?? systemClock;
  const log = opts.logger ?? makeLogger(config.logLevel);
  const master = loadMasterKey(config.dataDir, config.masterKey);
  const outage = outageLog(log);
  const sqlitePath = join(config.dataDir, 'ward.db');
  // Traces only when a collector is configured: the OpenTelemetry SDK is loaded only then.
  const tracing = config.otlpEndpoint
    ? await startTracing({ endpoint: config.otlpEndpoint, serviceName: config.otelServiceName })
    : null;
  const metrics = createWardMetrics({
    logoutQueueDepth: () => storage.logoutDeliveries.count(),
    webhookBacklog: async () => ({ ...(await storage.webhookDeliveries.backlog()), now: clock.now() }),
  });
  const db = connect({
    sqlitePath,
    postgresUrl: config.databaseUrl,
    pgSchema: opts.pgSchema,
    outage,
    tuning: config.tuning,
    observers: [
      (q) => metrics.query(q.engine, q.operation, q.durationMs / 1000, q.failed),
      ...(tracing ? [(q: QueryObservation) => tracing.query(q)] : []),
    ],
  });
  if (db.pool) metrics.watchPool(db.pool);
  const applied = await migrate(db, {
    // An empty store: a first start. Its global signing key (keys.ensureGlobalKeys below) is begun
    // while the migrations run. A first start signs the administrator up with WARD_ADMIN_PASSWORD
    // under the password policy (bootstrap/first-start.ts): the policy's estimator loads on its
    // thread meanwhile.
    onEmpty: () => {
      generateAhead();
      if (opts.bootstrap && config.admin.password !== null) warmPasswordPolicy(config.account);
    },
  });
  const storage: Storage = createStorage(db);

  // Account settings live in the store (the management API changes them); the keys the config file
  // declares are applied over them at each start.
  const readAccount = async (): Promise<AccountSettings> => {
    const p = new Problems();
    const stored = await storage.settings.get<Record<string, unknown>>('account');
    const base = stored ? validateAccount(p, stored, DEFAULT_ACCOUNT) : DEFAULT_ACCOUNT;
    return p.list.length ? DEFAULT_ACCOUNT : base;
  };
  let accountSettings: AccountSettings = await readAccount();
  // The change notice's re-read and the management API's own write may overlap: the latest-started wins.
  const accountReader = latestRead(readAccount, (next) => {
    accountSettings = next;
  });
  if (config.accountPatch || !(await storage.settings.get('account'))) {
    const p = new Problems();
    accountSettings = validateAccount(p, config.accountPatch ?? undefined, accountSettings);
    if (p.list.length) throw new Error(p.list.join('; '));
    await storage.settings.put('account', accountSettings, clock.now());
  }
  const account = () => accountSettings;

  // A retired key stays published as long as the longest token it may have signed can live.
  const keys = new KeyStore(
    storage,
    master.key,
    clock,
    () => Math.max(account().id_token_ttl, account().access_token_ttl) * 1000,
  );
  await keys.ensureGlobalKeys();
  // The one client of every URL fetched on an operator's or a third party's word (lib/outbound/).
  const outbound = createOutbound({
    allow: config.outboundAllow,
    ...(tracing ? { around: (method, url, call) => tracing.outbound(method, url, call) } : {}),
  });
  const clients = createClientService({
    storage,
    masterKey: master.key,
    clock,
    documents: createMetadataDocuments({
      outbound,
      clock,
      account,
      loopbackAllowed: addressPolicy(config.outboundAllow).refusal('127.0.0.1') === null,
      refused: (url, why) => log.info({ client_id: url, why }, 'client metadata document refused'),
    }),
  });
  for (const c of config.clients) await clients.upsert(c, 'config');
  // The config file's webhook endpoints (cfg_<name>): created or updated; those no longer listed disabled.
  const configWebhooks = await storage.transaction((tx) =>
    applyConfigEndpoints(tx, master.key, clock.now(), config.webhooks, account().allow_private_webhook_targets),
  );
  if (configWebhooks.created.length || configWebhooks.updated.length || configWebhooks.disabled.length)
    log.info(configWebhooks, 'webhook endpoints of the config file applied');
  await ensureConsoleClient({ config, clients });
  // The global EC P-256 / Ed25519 pair exists once a client signs with ES256 / EdDSA.
  const families = new Set((await storage.clients.list()).map((c) => c.jwt_algorithm).filter(isSigningAlg));
  families.delete('RS256');
  if (families.size) await keys.ensureGlobalKeys([...families]);

  const keyOps = createKeyOperations({
    storage,
    keys,
    masterKey: master.key,
    clock,
    findClient: (id) => clients.find(id),
    onClientsChanged: () => clients.invalidate(),
  });
  const socialProviders = createSocialProviders({
    storage,
    masterKey: master.key,
    clock,
    issuer: config.issuer,
    outbound,
  });
  for (const p of config.social_providers) await socialProviders.save(p, 'config');
  await socialProviders.reload();
  let hookCallerRef: { invalidate(): void } | undefined;
  const poller = startChangePoller(
    storage,
    log,
    {
      social: () => socialProviders.reload(),
      keys: () => keys.reload(),
      clients: () => clients.invalidate(),
      account: () => accountReader.reload(),
      webhooks: () => webhookDelivery.refresh(),
      // The hook caller is made below; a move before it exists has nothing to forget.
      hooks: () => hookCallerRef?.invalidate(),
    },
    { outage },
  );

  const janitor = startJanitor(storage, log, () => clock.now(), { outage });
  // Webhooks out: the audit rows that are catalog events queue their deliveries (webhooks/outbox.ts);
  // this process's sender starts below, once the outbound client exists.
  const events = createSecurityEvents({
    storage,
    log,
    clock,
    metrics,
    outage,
    webhooks: { kick: () => webhookDelivery.kick(), endpointsEnabled: () => webhookDelivery.endpointsEnabled() },
  });

  const accessTokens = createAccessTokenCodec(master.key);
  // DPoP proofs (RFC 9449): nonces without state, each proof's jti once in the single-use store.
  const dpop = createDpopVerifier({
    issuer: config.issuer,
    clock,
    nonces: createDpopNonces(master.key),
    nonceRequired: () => account().dpop_nonce_required,
    claimProof: (digest, expiresAt) => {
      const now = clock.now();
      return storage.oneTime.claim({
        digest,
        kind: 'dpop_proof',
        user_id: '',
        client_id: '',
        payload: '',
        expires_at: expiresAt,
        consumed_at: now,
        created_at: now,
      });
    },
    replayed: (fields) => events.emit('dpop.proof_replayed', fields, 'a DPoP proof was used twice: refused', 'warn'),
  });
  const delivery = createDelivery(config.delivery, log, {
    ...(config.tuning.mime_writer ? { mimeWriter: ownMimeWriter } : {}),
    outbound,
    defaultLanguage: () => account().default_language,
  });
  const background = createBackground((e) =>
    log.error({ err: { message: (e as Error)?.message } }, 'background work failed'),
  );
  const accountCodes = createAccountCodes({ storage, masterKey: master.key, clock, account, events });
  const lockNotices = createLockNotices({
    delivery,
    sent: (channel, outcome) => metrics.notice(channel, outcome),
    userLocale: async (userId) => (await storage.profiles.find(userId))?.locale ?? null,
  });
  // Blocking hooks: asked where every user is created and every token issued (hooks/ask.ts).
  // Webhook and hook URLs reach loopback and private addresses only when the account allows it
  // (allow_private_webhook_targets, read at each send): their own guarded clients.
  const traced: Pick<OutboundOptions, 'around'> = tracing
    ? { around: (method, url, call) => tracing.outbound(method, url, call) }
    : {};
  const webhookOutbound = {
    closed: createOutbound({ allow: [], ...traced }),
    open: createOutbound({
      allow: [...config.outboundAllow, ...parseCidrList(PRIVATE_TARGET_CIDRS, () => {})],
      ...traced,
    }),
  };
  /** The guarded client of webhook and hook URLs, as the account allows now. */
  const targetOutbound: Pick<Outbound, 'fetch'> = {
    fetch: (url, init) =>
      (account().allow_private_webhook_targets ? webhookOutbound.open : webhookOutbound.closed).fetch(url, init),
  };
  const hookCaller = createHookCaller({ storage, clock, log, masterKey: master.key, outbound: targetOutbound });
  hookCallerRef = hookCaller;
  const beforeLogin = beforeLoginHooks(hookCaller, storage.users);
  // Users' consents to the account's consent definitions (not OAuth client consents).
  const consentChanges = createConsentChanges({ storage, clock, account, issuer: config.issuer, delivery, background });
  // Consents a new version asks users to accept again, at their next sign-in (interaction/reconsent.ts).
  const consentRenewal = createConsentRenewal({ storage, account, changes: consentChanges });
  const profiles = createProfileService({ storage, clock, account });
  const users = createUserService({
    consents: consentChanges,
    storage,
    clock,
    account,
    masterKey: master.key,
    log,
    outbound,
    beforeSignup: beforeSignupHooks(hookCaller),
    onLock: (user, at, until, language) => lockNotices.locked(user, at, until, language),
    // The lockout's webhook event (user.locked) is written with the lockout, in its transaction.
    lockedWithin: async (tx, user, _at, until) => {
      const staged = await events.stage(tx, 'login.locked', { user_id: user.id, until: new Date(until).toISOString() });
      return () => events.emitStaged(staged, 'password sign-in locked after failed attempts', 'warn');
    },
  });
  const selfService = {
    storage,
    clock,
    account,
    issuer: config.issuer,
    codes: accountCodes,
    delivery,
    background,
    events,
    outbound,
  };
  const notices = createFactorNotices({ delivery, sent: (channel, outcome) => metrics.notice(channel, outcome) });
  const signIdToken = createIdTokenSigner({
    issuer: config.issuer,
    ttl: () => account().id_token_ttl,
    now: () => clock.now(),
    keys,
    clients,
    jws: config.tuning.direct_jws ? directJws : joseJws,
    profiles: storage,
    beforeToken: beforeTokenHooks(hookCaller),
  });
  // Back-Channel Logout: this process's sender of the queued logout tokens.
  const logoutDelivery = startLogoutDelivery({ storage, clients, keys, clock, log, issuer: config.issuer, outbound });
  const webhookDelivery: WebhookDelivery = startWebhookDelivery({
    storage,
    clock,
    log,
    masterKey: master.key,
    outbound: targetOutbound,
    onOutcome: (outcome) => metrics.webhookDelivery(outcome),
    onDisabled: () => metrics.webhookEndpointDisabled(),
  });
  const sessions = createSessionService({ storage, clock, account });
  const verification = createVerificationService({
    storage,
    masterKey: master.key,
    clock,
    account,
    sender: delivery,
    log,
    events,
  });
  // API resources (RFC 8707) and the JWT access tokens (RFC 9068) of those whose format is jwt.
  const resources = resourceLookup(storage);
  const jwtAccessTokens = createJwtAccessTokens({
    issuer: config.issuer,
    keys,
    jws: config.tuning.direct_jws ? directJws : joseJws,
    clock,
  });
  const issueTokens = createTokenIssuer({
    clock,
    account,
    signIdToken,
    accessTokens,
    jwtAccessTokens,
    resources,
    beforeToken: beforeTokenHooks(hookCaller),
  });
  // Authenticator apps and recovery codes (the factors that are not a message).
  const strongFactors = createStrongFactors({
    account,
    clock,
    events,
    masterKey: master.key,
    notices,
    storage,
    issuerName: new URL(config.issuer).host,
  });
  // Email and SMS factors, registered by a code sent to them.
  const messageFactors = createMessageFactors({ clock, events, notices, storage, verification });
  const passkeys = createPasskeys({ storage, clock, account, issuer: config.issuer });
  // A user's own deletion of their account, and the job that erases those past their grace period.
  const accountDeletion = createAccountDeletion({ ...selfService, clients, logoutDelivery, masterKey: master.key });
  const deletionJob = startDeletionJob(accountDeletion, (e) =>
    log.error({ err: { message: (e as Error)?.message } }, 'account deletion job failed'),
  );
  // Bulk imports run as jobs (accounts/import/import-jobs.ts); those a stopped process left running are failed.
  const importJobs = createImportJobs({
    storage,
    now: () => clock.now(),
    dataDir: config.dataDir,
    onError: (e) => log.error({ err: { message: (e as Error)?.message } }, 'user import job failed'),
  });
  await importJobs.failInterrupted();
  const signIn = createSignInServices({
    strongFactors,
    passkeys,
    config,
    storage,
    clock,
    account,
    events,
    users,
    clients,
    sessions,
    verification,
    socialProviders,
    logoutDelivery,
    issueTokens,
    signIdToken,
    tracing,
    beforeLogin,
    accountDeletion,
    delivery,
    consentRenewal,
  });
  // The clients' registered keys, for their client assertions and their request objects (RFC 9101).
  const clientKeys = createClientKeys({ outbound, clock });
  const requestObjects = createRequestObjects({
    clientKeys,
    storage,
    clock,
    issuer: config.issuer,
    requiredForAll: () => account().require_signed_request_object,
    replayed: (fields) =>
      events.emit('request_object.replayed', fields, 'a request object was used twice: refused', 'warn'),
  });
  return {
    config,
    clock,
    log,
    requestObjects,
    db,
    /** One line per interval while the database is unreachable, shared by the requests and the loops. */
    outage,
    storage,
    masterKey: master.key,
    masterKeyCreated: master.created,
    migrationsApplied: applied,
    account,
    setAccount: (next: AccountSettings) => accountReader.set(next),
    keys,
    keyOps,
    socialProviders,
    outbound,
    captcha: createCaptcha({ outbound, account, secret: config.captchaSecret, log }),
    poller,
    janitor,
    clients,
    /** Client assertions (private_key_jwt, client_secret_jwt): the clients' keys, the jti store. */
    clientAssertions: {
      clientKeys,
      storage,
      clock,
      issuer: config.issuer,
    },
    registrations: createRegistrations({
      storage,
      clients,
      masterKey: master.key,
      clock,
      account,
      issuer: config.issuer,
      ensureSigningKey: async (alg) => {
        if (isSigningAlg(alg) && !keys.hasCurrent(GLOBAL_SET, alg)) await keys.ensureGlobalKeys([alg]);
      },
    }),
    users,
    profiles,
    consentChanges,
    consentRenewal,
    sessions,
    verification,
    events,
    notices,
    strongFactors,
    messageFactors,
    /** The approximate place of a session's address (a local GeoIP database, WARD_GEOIP_DATABASE). */
    places: createPlaces(config.geoipDatabase, log),
    /** A security key or passkey registered on the page of a required enrolment. */
    enrolmentKeys: createEnrolmentKeys({ clock, events, notices, passkeys, storage, strongFactors }),
    tkn: createTknService({ storage, clock, ttl: () => account().tkn_ttl, beforeLogin }),
    beforeLogin,
    passkeys,
    limiter: createLimiter({ storage, clock, metrics }),
    metrics,
    /** OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
    tracing,
    signIdToken,
    accessTokens,
    jwtAccessTokens,
    dpop,
    resources,
    issueTokens,
    ...signIn,
    /** The hosted account page's "Confirm it's you" (the sign-ins' step-ups, with no interaction). */
    accountStepUp: createAccountStepUp({ stepUps: signIn.stepUps, sessions, clock }),
    logoutDelivery,
    webhookDelivery,
    hookCaller,
    background,
    delivery,
    accountCodes,
    addresses: createAddresses(selfService),
    passwordReset: createPasswordReset({ ...selfService, clients, logoutDelivery }),
    /** A signup with a lite profile's email: the mailed link that finishes it (self-service/lite-claim.ts). */
    liteClaims: createLiteClaims({
      ...selfService,
      clients,
      logoutDelivery,
      masterKey: master.key,
      profiles,
      consentChanges,
    }),
    passwordless: createPasswordless({ ...selfService, users, clients, logoutDelivery }),
    recovery: createAccountRecovery({ ...selfService, clients, logoutDelivery }),
    accountDeletion,
    deletionJob,
    importJobs,
    async close() {
      poller.stop();
      janitor.stop();
      deletionJob.stop();
      await importJobs.stop();
      await logoutDelivery.stop();
      await events.flush(true);
      await webhookDelivery.stop();
      await notices.drain();
      await lockNotices.drain();
      await background.drain();
      await delivery.close();
      await outbound.close();
      await webhookOutbound.open.close();
      await webhookOutbound.closed.close();
      await storage.close();
      await tracing?.shutdown();
    },
  };
}

/**
 * The sign-in machinery shared by the hosted pages and the API: the stored interaction, what follows
 * a first factor (next-step.ts), step-ups and social login.
 */
function createSignInServices(
  r: StepUpDeps &
    SocialDeps & {
      clients: ClientService;
      sessions: SessionService;
      verification: VerificationService;
      strongFactors: StrongFactors;
      passkeys: SecondFactorKeys;
      config: Pick<WardConfig, 'issuer'>;
      logoutDelivery: LogoutDelivery;
      issueTokens: TokenIssuer;
      signIdToken: IdTokenSigner;
      tracing: Tracing | null;
      beforeLogin: BeforeLogin;
      accountDeletion: Pick<AccountDeletion, 'cancel'>;
      delivery: Pick<Delivery, 'canSend'>;
      consentRenewal: Pick<ConsentRenewal, 'owed'>;
    },
) {
  const stepUps = createStepUpService(r, r.verification, r.strongFactors, r.passkeys);
  const interactions = createInteractionService({
    interactions: r.storage.interactions,
    clock: r.clock,
    findClient: (id) => r.clients.find(id),
    ...(r.tracing ? { seen: (digest: string) => r.tracing!.annotate('ward.interaction.id', digest) } : {}),
  });
  // A required enrolment of a second factor (account setting mfa_enrollment), asked after a first factor.
  const enrolment = createEnrolmentStep({
    interactions,
    settings: () => r.account(),
    // A registered security key or passkey counts while passkeys are on (docs/mfa.md#requiring-enrolment).
    hasFactor: async (userId) =>
      (await verifiedFactors(r.storage, userId)).length > 0 ||
      (r.account().passkeys.enabled && (await r.storage.passkeys.listOfUser(userId)).length > 0),
    skipsTaken: (userId) => r.storage.enrolmentSkips.count(userId),
    totp: async (user) => (await r.strongFactors.pendingTotp(user)) ?? r.strongFactors.startTotp(user),
    messageChannels: (user) => [
      ...(user.email && user.email_verified && r.delivery.canSend('email')
        ? [{ channel: 'email' as const, to: user.email }]
        : []),
      ...(user.phone_number && user.phone_number_verified && r.delivery.canSend('sms')
        ? [{ channel: 'sms' as const, to: user.phone_number }]
        : []),
    ],
    keysOffered: () => hostedCeremonies(r.account(), r.config.issuer),
    emit: (name, detail, message) => r.events.emit(name, detail, message),
  });
  // Consents to accept again (a version with require_reconsent), asked before the session and the code.
  const reconsent = createReconsentStep({
    interactions,
    owed: (userId) => r.consentRenewal.owed(userId),
    emit: (name, detail, message) => r.events.emit(name, detail, message),
  });
  const nextStep = createNextStep({
    interactions,
    enrolment,
    reconsent,
    beginStepUp: async (user, bound, baseAmr) => {
      const begun = await stepUps.begin(user, bound, baseAmr);
      // A key answers the hosted page only when Ward's own origin may run a ceremony.
      const factors = hostedCeremonies(r.account(), r.config.issuer)
        ? begun.factors
        : begun.factors.filter((f) => f !== 'webauthn');
      // The hosted page preselects the factor the user answered with last, if they still have it.
      const last = (await r.storage.lastFactors.find(user.id)) as SecondFactorType | null;
      return { ...begun, factors, preferred: last && factors.includes(last) ? last : undefined };
    },
    requestCode: (stepUp, channel, locale) => stepUps.requestCode(stepUp, channel, locale),
    userLocale: async (userId) => (await r.storage.profiles.find(userId))?.locale ?? null,
    secondFactorRequired: (userId, amr) => stepUpRequiredAtLogin(r.storage, r.account(), userId, amr),
    isTrustedDevice: (cookie, userId) => isTrustedDevice(r, cookie, userId),
    startSession: async (userId, amr, opts) => {
      // Another user signing in in this browser ends the session there: its clients are told (back-channel).
      let queued = 0;
      const { cookie, session } = await r.sessions.create(userId, amr, {
        ...opts,
        whenOtherUserEnded: async (ended) => {
          const rows = await deliveriesFor(r, { sessionId: ended.id, userId: ended.userId });
          queued = rows.length;
          return (tx) => tx.logoutDeliveries.enqueue(rows);
        },
      });
      if (queued) r.logoutDelivery.kick();
      // Signing in again cancels a deletion of the account waiting for its grace period.
      await r.accountDeletion.cancel(userId);
      return { cookie, id: session.id };
    },
    authorize: (request, auth) => issueAuthorization(r, request, auth),
    now: () => r.clock.now(),
    grantedScopes: async (userId, clientId) => (await r.storage.consents.find(userId, clientId))?.scopes ?? [],
    audit: signInAudit(r.events),
    beforeLogin: r.beforeLogin,
  });
  return { interactions, nextStep, stepUps, enrolment, social: createSocialService(r) };
}

export type Registry = Awaited<ReturnType<typeof buildRegistry>>;

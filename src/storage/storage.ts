import { type Kysely, sql } from 'kysely';
import { contractsBeyond, type Db } from './connect.js';
import type { Database } from './schema.js';
import { accountCodesRepo } from './sql/account-codes.js';
import { accountDeletionsRepo } from './sql/account-deletions.js';
import { apiResourcesRepo } from './sql/api-resources.js';
import { auditRepo } from './sql/audit.js';
import { clientsRepo } from './sql/clients.js';
import { clientRegistrationsRepo } from './sql/client-registrations.js';
import { codesRepo } from './sql/codes.js';
import { consentsRepo } from './sql/consents.js';
import { countersRepo } from './sql/counters.js';
import { deviceAuthorizationsRepo } from './sql/device-authorizations.js';
import { identitiesRepo, socialProvidersRepo } from './sql/identities.js';
import { interactionsRepo } from './sql/interactions.js';
import { keysRepo } from './sql/keys.js';
import { logoutDeliveriesRepo } from './sql/logout-deliveries.js';
import { challengesRepo, credentialsRepo, stepUpsRepo, trustedDevicesRepo } from './sql/mfa.js';
import { oneTimeTokensRepo } from './sql/one-time-tokens.js';
import { passkeysRepo } from './sql/passkeys.js';
import { profilesRepo } from './sql/profiles.js';
import { sessionsRepo } from './sql/sessions.js';
import { settingsRepo } from './sql/settings.js';
import { signInFailuresRepo } from './sql/sign-in-failures.js';
import { customIdentifiersRepo } from './sql/custom-identifiers.js';
import { userConsentsRepo } from './sql/user-consents.js';
import { lastFactorsRepo, recoveryCodesRepo, totpSecretsRepo } from './sql/strong-factors.js';
import { tokensRepo } from './sql/tokens.js';
import { userErasureRepo } from './sql/user-erasure.js';
import { userImportRepo } from './sql/user-import.js';
import { userImportJobsRepo } from './sql/user-import-jobs.js';
import { userRecordsRepo } from './sql/user-records.js';
import { usersRepo } from './sql/users.js';
import { versionsRepo } from './sql/versions.js';
import { webhookDeliveriesRepo } from './sql/webhook-deliveries.js';
import { webhookEndpointsRepo } from './sql/webhook-endpoints.js';
import { hookCallsRepo, hooksRepo } from './sql/hooks.js';
import { enrolmentSkipsRepo } from './sql/enrolment-skips.js';

function repos(db: Kysely<Database>, engine: Db['engine']) {
  return {
    users: usersRepo(db, engine),
    profiles: profilesRepo(db, engine),
    clients: clientsRepo(db),
    keys: keysRepo(db),
    sessions: sessionsRepo(db, engine),
    codes: codesRepo(db, engine),
    oneTime: oneTimeTokensRepo(db),
    accountCodes: accountCodesRepo(db, engine),
    passkeys: passkeysRepo(db, engine),
    interactions: interactionsRepo(db, engine),
    tokens: tokensRepo(db, engine),
    counters: countersRepo(db, engine),
    settings: settingsRepo(db),
    audit: auditRepo(db),
    versions: versionsRepo(db),
    mfaCredentials: credentialsRepo(db),
    stepUps: stepUpsRepo(db, engine),
    challenges: challengesRepo(db, engine),
    trustedDevices: trustedDevicesRepo(db),
    totpSecrets: totpSecretsRepo(db),
    recoveryCodes: recoveryCodesRepo(db),
    enrolmentSkips: enrolmentSkipsRepo(db),
    lastFactors: lastFactorsRepo(db),
    identities: identitiesRepo(db),
    socialProviders: socialProvidersRepo(db),
    logoutDeliveries: logoutDeliveriesRepo(db, engine),
    signInFailures: signInFailuresRepo(db, engine),
    userErasure: userErasureRepo(db),
    accountDeletions: accountDeletionsRepo(db),
    customIdentifiers: customIdentifiersRepo(db),
    userConsents: userConsentsRepo(db),
    userImport: userImportRepo(db, engine),
    userImportJobs: userImportJobsRepo(db),
    userRecords: userRecordsRepo(db),
    consents: consentsRepo(db),
    clientRegistrations: clientRegistrationsRepo(db),
    apiResources: apiResourcesRepo(db),
    deviceAuthorizations: deviceAuthorizationsRepo(db),
    webhookEndpoints: webhookEndpointsRepo(db),
    webhookDeliveries: webhookDeliveriesRepo(db, engine),
    hooks: hooksRepo(db),
    hookCalls: hookCallsRepo(db),
  };
}

export type Repos = ReturnType<typeof repos>;

/** Storage = repositories + transaction(fn), the same contract on SQLite and PostgreSQL. */
export interface Storage extends Repos {
  engine: Db['engine'];
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>;
  /**
   * One transaction for several units of work, each in a savepoint of its own (`each`): a unit that
   * throws is rolled back alone (the error goes on to the caller of `each`), the others stand and
   * commit together. Units run one after another. For a bulk import: one commit for many lines.
   */
  batch<T>(fn: (tx: Repos, each: <U>(unit: () => Promise<U>) => Promise<U>) => Promise<T>): Promise<T>;
  /** The commit that the writes made so far still wait for (SQLite's group commit), or undefined. */
  settled(): Promise<void> | undefined;
  /** Whether the database answers a trivial query (readiness). */
  answers(): Promise<boolean>;
  /** Whether this code can serve on the database's schema: no newer release's contract migration ran. */
  schemaFits(): Promise<boolean>;
  close(): Promise<void>;
}

export function createStorage(d: Db): Storage {
  return {
    ...repos(d.db, d.engine),
    engine: d.engine,
    transaction: (fn) => d.db.transaction().execute((trx) => fn(repos(trx, d.engine))),
    batch: (fn) =>
      d.db.transaction().execute((trx) => {
        const each = async <U>(unit: () => Promise<U>): Promise<U> => {
          const name = sql.id('unit');
          await sql`savepoint ${name}`.execute(trx);
          let out: U;
          try {
            out = await unit();
          } catch (e) {
            await sql`rollback to savepoint ${name}`.execute(trx);
            await sql`release savepoint ${name}`.execute(trx);
            throw e;
          }
          await sql`release savepoint ${name}`.execute(trx);
          return out;
        };
        return fn(repos(trx, d.engine), each);
      }),
    settled: d.settled ?? (() => undefined),
    answers: () =>
      sql`select 1 as ok`.execute(d.db).then(
        () => true,
        () => false,
      ),
    schemaFits: () =>
      sql<{ name: string }>`select name from kysely_migration`.execute(d.db).then(
        ({ rows }) => contractsBeyond(rows.map((r) => r.name)).length === 0,
        () => true,
      ),
    close: () => d.close(),
  };
}

// The factors that are not a message: an authenticator app (TOTP, totp.ts) and recovery codes
// (recovery-codes.ts). Enrolment: a pending `mfa_credentials` row of type `totp` and its secret sealed
// with the master key (AES-256-GCM bound to the factor's id), enabled by a first right code; the secret
// is shown then and never again. The first authenticator app brings a set of recovery codes. A code
// answers a step-up (service.ts `finishWithFactor`): every attempt is counted on the step-up (or the
// enrolment) before the compare, wrong ones also on the user's failures shared with the sent codes, and a
// TOTP time step is accepted once (replay).
import { WardError } from '../errors/ward-error.js';
import { notFound, rateLimited } from '../errors/refusals.js';
import type { SecurityEvents } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import { seal, unseal } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { CredentialRow } from '../storage/sql/mfa.js';
import type { User } from '../storage/sql/users.js';
import { hasStrongFactor, verifiedFactors } from './factors.js';
import type { FactorNotices } from './factor-notices.js';
import { hashRecoveryCode, matchRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { matchTotp, newTotpSecret, qrSvg, totpUri } from './totp.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface StrongFactorDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  masterKey: Buffer;
  notices: FactorNotices;
  storage: Storage;
  /** The name apps show beside the code (the issuer's host). */
  issuerName: string;
}

/** A second factor that is typed from what the user holds, not sent. */
export type StrongFactorType = 'totp' | 'recovery_code';

/** The one `destination` of a user's authenticator app (one per user: the unique key of mfa_credentials). */
export const TOTP_DESTINATION = 'authenticator';

const FAILURES = 'mfa-failures:';
const aadOf = (credentialId: string) => `totp:${credentialId}`;

export function createStrongFactors(r: StrongFactorDeps) {
  const window = () => {
    const w = r.account().verification_failures_per_user.window_seconds * 1000;
    const start = Math.floor(r.clock.now() / w) * w;
    return { start, end: start + w };
  };

  /**
   * Counts one attempt of `scope` (a step-up token's digest, an enrolment) before any compare, and
   * refuses past the attempts a code gets (verification_max_attempts), even the right one; refuses a
   * user over their failures of the window (shared with the sent codes) with 429.
   */
  async function admitAttempt(userId: string, scope: string): Promise<void> {
    const settings = r.account();
    const { start, end } = window();
    const failures = await r.storage.counters.read(`${FAILURES}${userId}`, start);
    if (failures >= settings.verification_failures_per_user.limit) throw rateLimited((end - r.clock.now()) / 1000);
    const attempts = await r.storage.counters.hit(`mfa-attempts:${scope}`, start, end);
    if (attempts > settings.verification_max_attempts) {
      await r.events.emit(
        'mfa.verification_failed',
        { user_id: userId, attempts, reason: 'unusable' },
        'verification failed',
      );
      throw new WardError('invalidVerificationCode');
    }
  }

  async function refuse(userId: string, type: StrongFactorType, reason: string): Promise<never> {
    const { start, end } = window();
    await r.storage.counters.hit(`${FAILURES}${userId}`, start, end);
    await r.events.emit('mfa.verification_failed', { user_id: userId, type, reason }, 'verification failed');
    throw new WardError('invalidVerificationCode');
  }

  /** The user's authenticator app (verified or pending) and its secret, opened. */
  async function totpOf(repos: Repos, userId: string): Promise<{ credential: CredentialRow; secret: string } | null> {
    const credential = await repos.mfaCredentials.findOne(userId, 'totp', TOTP_DESTINATION);
    const row = credential && (await repos.totpSecrets.find(credential.id));
    if (!credential || !row) return null;
    return { credential, secret: unseal(r.masterKey, row.secret_sealed, aadOf(credential.id)).toString('utf8') };
  }

  /** A right code of the app whose time step was not used yet; records the step (one caller wins). */
  async function totpAccepted(credentialId: string, secret: string, code: string): Promise<boolean> {
    const step = matchTotp(secret, code, r.clock.now());
    return step !== null && (await r.storage.totpSecrets.advanceStep(credentialId, step));
  }

  /** A new set of recovery codes, the old one void; answers the codes (shown once). */
  async function newSet(repos: Repos, userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    const now = r.clock.now();
    await repos.recoveryCodes.replaceAll(
      userId,
      codes.map((c) => ({
        id: randomId(),
        user_id: userId,
        code_hash: hashRecoveryCode(c)!,
        created_at: now,
        used_at: null,
      })),
    );
    return codes;
  }

  const labelOf = (user: User) => user.email ?? user.phone_number ?? user.id;

  return {
    /**
     * Starts (or starts again) the enrolment of an authenticator app: a new secret, sealed, on a pending
     * factor. A user who already has one verified must remove it first.
     */
    async startTotp(user: User): Promise<{ secret: string; uri: string; qrSvg: string }> {
      const existing = await r.storage.mfaCredentials.findOne(user.id, 'totp', TOTP_DESTINATION);
      if (existing?.verified_at)
        throw new WardError('invalidRequest', {
          description: 'An authenticator app is already enabled; remove it first',
        });
      const now = r.clock.now();
      const secret = newTotpSecret();
      await r.storage.transaction(async (tx) => {
        const credential =
          existing ??
          (await tx.mfaCredentials.insertIfAbsent({
            id: randomId(),
            user_id: user.id,
            type: 'totp',
            destination: TOTP_DESTINATION,
            friendly_name: null,
            verified_at: null,
            created_at: now,
          }));
        if (credential.verified_at) throw new WardError('invalidRequest', { description: 'Already enabled' });
        await tx.totpSecrets.put({
          credential_id: credential.id,
          user_id: user.id,
          secret_sealed: seal(r.masterKey, secret, aadOf(credential.id)),
          last_step: null,
          created_at: now,
        });
      });
      const uri = totpUri(secret, r.issuerName, labelOf(user));
      await r.events.emit('mfa.totp_enrolment_started', { user_id: user.id }, 'authenticator app enrolment started');
      return { secret, uri, qrSvg: await qrSvg(uri) };
    },

    /** The pending (not yet enabled) authenticator app's enrolment again, its secret unchanged; null: none. */
    async pendingTotp(user: User): Promise<{ secret: string; uri: string; qrSvg: string } | null> {
      const found = await totpOf(r.storage, user.id);
      if (!found || found.credential.verified_at !== null) return null;
      const uri = totpUri(found.secret, r.issuerName, labelOf(user));
      return { secret: found.secret, uri, qrSvg: await qrSvg(uri) };
    },

    /**
     * Enables the pending authenticator app with a right code. Answers the new recovery codes when the
     * user had none left (the first strong factor brings them), else null.
     */
    async confirmTotp(user: User, code: unknown, locale?: string): Promise<{ recoveryCodes: string[] | null }> {
      const found = await totpOf(r.storage, user.id);
      if (!found || found.credential.verified_at !== null)
        throw new WardError('invalidVerificationCode', { description: 'No authenticator app is waiting for a code' });
      await admitAttempt(user.id, `enrol:${found.credential.id}:${found.credential.created_at}`);
      if (typeof code !== 'string' || !(await totpAccepted(found.credential.id, found.secret, code.trim())))
        return refuse(user.id, 'totp', 'wrong');
      const before = await verifiedFactors(r.storage, user.id);
      const now = r.clock.now();
      const fields = { user_id: user.id, type: 'totp' };
      const { recoveryCodes, added } = await r.storage.transaction(async (tx) => {
        await tx.mfaCredentials.markVerified(found.credential.id, now);
        // A change of factors ends the trust given to devices (SU-09, MF-03).
        await tx.trustedDevices.revokeAllOfUser(user.id, now);
        const codes = (await tx.recoveryCodes.countUnused(user.id)) === 0 ? await newSet(tx, user.id) : null;
        // The webhook event is written with the change.
        return { recoveryCodes: codes, added: await r.events.stage(tx, 'mfa.credential_added', fields) };
      });
      r.events.emitStaged(added, 'second factor verified');
      if (recoveryCodes)
        await r.events.emit(
          'mfa.recovery_codes_generated',
          { user_id: user.id, count: recoveryCodes.length },
          'recovery codes generated',
        );
      r.notices.factorChanged({ user, change: 'factor_added', factor: { type: 'totp' }, before, at: now, locale });
      return { recoveryCodes };
    },

    /** Removes the authenticator app (pending or enabled); the recovery codes go with the last strong factor. */
    async removeTotp(user: User, locale?: string): Promise<void> {
      const all = await r.storage.mfaCredentials.listOfUser(user.id);
      const target = all.find((c) => c.type === 'totp');
      if (!target) throw notFound('No authenticator app to remove');
      const now = r.clock.now();
      const removed = await r.storage.transaction(async (tx) => {
        if (!(await tx.mfaCredentials.delete(target.id))) return null;
        await tx.totpSecrets.delete(target.id);
        // The codes stay while a key registered as a second factor remains (they go with it too).
        if (!(await tx.passkeys.hasSecondFactor(user.id))) await tx.recoveryCodes.deleteAllOfUser(user.id);
        await tx.trustedDevices.revokeAllOfUser(user.id, now);
        // The webhook event is written with the change.
        return r.events.stage(tx, 'mfa.credential_removed', { user_id: user.id, type: 'totp' });
      });
      if (!removed) throw notFound('No authenticator app to remove');
      r.events.emitStaged(removed, 'second factor removed');
      if (target.verified_at !== null) {
        const before = all.filter((c) => c.verified_at !== null);
        r.notices.factorChanged({ user, change: 'factor_removed', factor: { type: 'totp' }, before, at: now, locale });
      }
    },

    /**
     * A new set of recovery codes (the old one void), for a user with a strong factor: an authenticator
     * app or a key registered as a second factor.
     */
    async regenerateRecoveryCodes(user: User): Promise<string[]> {
      if (!(await hasStrongFactor(r.storage, user.id)))
        throw new WardError('noSecondFactor', {
          description: 'Recovery codes go with an authenticator app or a security key: enrol one first',
        });
      const codes = await r.storage.transaction((tx) => newSet(tx, user.id));
      await r.events.emit(
        'mfa.recovery_codes_generated',
        { user_id: user.id, count: codes.length },
        'recovery codes generated',
      );
      return codes;
    },

    /**
     * The recovery codes a first strong factor brings (a security key registered at a required enrolment):
     * a new set when the user has no unused code, else null (their set stays).
     */
    async firstRecoveryCodes(user: User): Promise<string[] | null> {
      const codes = await r.storage.transaction(async (tx) =>
        (await tx.recoveryCodes.countUnused(user.id)) === 0 ? newSet(tx, user.id) : null,
      );
      if (codes)
        await r.events.emit(
          'mfa.recovery_codes_generated',
          { user_id: user.id, count: codes.length },
          'recovery codes generated',
        );
      return codes;
    },

    /**
     * Counts an attempt of a security key's answer to a step-up (`scope`, as a code's) before `check`
     * verifies it; a refusal of `check` is a failure of the user, like a wrong code.
     */
    async verifyKey(userId: string, scope: string, check: () => Promise<void>): Promise<void> {
      await admitAttempt(userId, scope);
      try {
        await check();
      } catch (e) {
        if (!(e instanceof WardError) || e.status >= 500) throw e;
        const { start, end } = window();
        await r.storage.counters.hit(`${FAILURES}${userId}`, start, end);
        await r.events.emit(
          'mfa.verification_failed',
          { user_id: userId, type: 'webauthn', reason: e.id },
          'verification failed',
        );
        throw e;
      }
    },

    recoveryCodesLeft: (userId: string) => r.storage.recoveryCodes.countUnused(userId),

    /**
     * Checks a code of the user's authenticator app or one of their recovery codes for a step-up
     * (`scope`: the step-up token's digest, whose attempts are counted); a recovery code is used up and
     * the user told. Throws invalidVerificationCode (or 429 over the user's failures).
     */
    async verify(
      user: User,
      type: StrongFactorType,
      code: unknown,
      scope: string,
      locale?: string,
    ): Promise<{ recoveryCodesLeft?: number }> {
      await admitAttempt(user.id, scope);
      if (typeof code !== 'string' || code.length > 40) return refuse(user.id, type, 'malformed');
      if (type === 'totp') {
        const found = await totpOf(r.storage, user.id);
        if (!found || found.credential.verified_at === null) return refuse(user.id, type, 'no_factor');
        if (!(await totpAccepted(found.credential.id, found.secret, code.trim())))
          return refuse(user.id, type, 'wrong');
        return {};
      }
      const row = matchRecoveryCode(await r.storage.recoveryCodes.unused(user.id), code);
      const now = r.clock.now();
      if (!row || !(await r.storage.recoveryCodes.use(row.id, now))) return refuse(user.id, type, 'wrong');
      const left = await r.storage.recoveryCodes.countUnused(user.id);
      await r.events.emit('mfa.recovery_code_used', { user_id: user.id, left }, 'recovery code used');
      r.notices.factorChanged({
        user,
        change: 'recovery_code_used',
        factor: { type: 'recovery_code' },
        before: [],
        at: now,
        left,
        locale,
      });
      return { recoveryCodesLeft: left };
    },
  };
}

export type StrongFactors = ReturnType<typeof createStrongFactors>;

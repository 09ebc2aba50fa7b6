// Email and SMS second factors: registered by a code sent to the address (pending until it is typed
// back). The hosted enrolment page of a sign-in (http/routes/authorize-enrol.ts) and the JSON API
// (http/routes/mfa-credentials.ts) both register and confirm through here.
import type { SecurityEvents } from '../audit/events.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import type { CredentialRow } from '../storage/sql/mfa.js';
import type { User } from '../storage/sql/users.js';
import type { Storage } from '../storage/storage.js';
import type { Channel, VerificationService } from './challenges.js';
import type { FactorNotices } from './factor-notices.js';
import { verifiedFactors } from './factors.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface MessageFactorDeps {
  clock: Clock;
  events: SecurityEvents;
  notices: FactorNotices;
  storage: Storage;
  verification: VerificationService;
}

export function createMessageFactors(r: MessageFactorDeps) {
  return {
    /**
     * Registers a factor (pending) and sends a code to it, within the limits of a step-up's codes
     * (counted before anything is stored: a refused request leaves no pending factor, PL-10, PL-18);
     * an already verified one is just reported.
     */
    async register(
      userId: string,
      type: Channel,
      destination: string,
      locale: string | undefined,
      /** What the registration is for (the SDK's `action`): named in its audit event. */
      action?: string,
    ): Promise<{ status: 'enabled' | 'email_sent' | 'sms_sent'; credential?: CredentialRow }> {
      const existing = await r.storage.mfaCredentials.findOne(userId, type, destination);
      if (existing?.verified_at) return { status: 'enabled', credential: existing };
      const request = {
        userId,
        purpose: 'register' as const,
        channel: type,
        destination,
        locale,
        ...(action ? { action } : {}),
      };
      await r.verification.admit(request);
      const credential =
        existing ??
        (await r.storage.mfaCredentials.insertIfAbsent({
          id: randomId(),
          user_id: userId,
          type,
          destination,
          friendly_name: null,
          verified_at: null,
          created_at: r.clock.now(),
        }));
      if (credential.verified_at) return { status: 'enabled', credential };
      await r.verification.issue({ ...request, credentialId: credential.id });
      return { status: type === 'email' ? 'email_sent' : 'sms_sent' };
    },

    /** Enables the pending factor of `channel` with the code sent to it; the user is told. */
    async confirm(user: User, channel: Channel, code: unknown, locale: string | undefined): Promise<void> {
      const challenge = await r.storage.challenges.liveRegistration(user.id, channel, r.clock.now());
      if (!challenge)
        throw new WardError('invalidVerificationCode', {
          description: 'No registration is waiting for a code; start it again',
        });
      const row = await r.verification.verify(challenge.id, code, 'register', user.id);
      const before = await verifiedFactors(r.storage, user.id);
      const now = r.clock.now();
      // The factor, the end of the trust given to devices (SU-09, MF-03) and the webhook event in one
      // transaction; the user is told.
      const added = await r.storage.transaction(async (tx) => {
        if (row.credential_id) await tx.mfaCredentials.markVerified(row.credential_id, now);
        await tx.trustedDevices.revokeAllOfUser(user.id, now);
        return r.events.stage(tx, 'mfa.credential_added', { user_id: user.id, type: channel });
      });
      r.events.emitStaged(added, 'second factor verified');
      if (row.credential_id)
        r.notices.factorChanged({
          user,
          change: 'factor_added',
          factor: { type: channel, destination: row.destination },
          before,
          at: now,
          locale,
        });
    },
  };
}

export type MessageFactors = ReturnType<typeof createMessageFactors>;

// A security key or passkey registered on the page of a required enrolment (enrolment.ts,
// docs/mfa.md#requiring-enrolment): a registration ceremony whose challenge is stored single use
// (passkeys/challenges.ts, ceremony `enrol`), bound to the user and to the interaction in progress (its
// digest), so that a credential made for another sign-in, a replayed one or one made without the page's
// options is refused. The key is stored like one registered from the account (the `passkey.added`
// webhook event with it, trusted devices revoked, the user told), and a first set of recovery codes is
// made when the user has none.
import { WardError } from '../errors/ward-error.js';
import { invalidField } from '../errors/refusals.js';
import type { SecurityEvents } from '../audit/events.js';
import type { Clock } from '../lib/clock.js';
import type { CeremonyData, Passkeys } from '../passkeys/service.js';
import { registrationResponse } from '../passkeys/wire.js';
import type { FactorNotices } from '../stepup/factor-notices.js';
import { verifiedFactors } from '../stepup/factors.js';
import type { StrongFactors } from '../stepup/strong-factors.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import type { Interaction } from './service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface EnrolmentKeyDeps {
  clock: Clock;
  events: SecurityEvents;
  notices: FactorNotices;
  passkeys: Pick<Passkeys, 'creationOptions' | 'verifyCreation'>;
  storage: Storage;
  strongFactors: Pick<StrongFactors, 'firstRecoveryCodes'>;
}

interface EnrolData extends CeremonyData {
  interaction: string;
}

/** What the ceremony's challenge is bound to besides its user: the sign-in and the page's origin. */
export interface EnrolmentKeyBinding {
  interaction: Interaction;
  origin: string;
  /** The key's name in the user's list (the page's language). */
  friendlyName: string;
}

export function createEnrolmentKeys(r: EnrolmentKeyDeps) {
  return {
    /** Creation options for a new key of `user`, the challenge bound to this interaction. */
    async options(user: User, bound: EnrolmentKeyBinding): Promise<Record<string, unknown>> {
      const name = user.email ?? user.phone_number ?? user.id;
      const displayName = [user.given_name, user.family_name].filter(Boolean).join(' ') || name;
      const options = await r.passkeys.creationOptions(
        'enrol',
        { id: user.id, name, displayName },
        {
          clientId: bound.interaction.request.client.client_id,
          origin: bound.origin,
          data: { friendlyName: bound.friendlyName, interaction: bound.interaction.digest },
        },
      );
      await r.events.emit(
        'mfa.enrollment_key_started',
        { user_id: user.id, client_id: bound.interaction.request.client.client_id },
        'security key enrolment started',
      );
      return options as unknown as Record<string, unknown>;
    },

    /**
     * Verifies and stores the credential the page posted (`raw`: its JSON, in the Core SDK's wire
     * format) for `user` at `interaction`. Answers whether it is hardware-bound (amr `hwk`, else `swk`)
     * and the recovery codes made now (null: the user had some). Refusals are audited.
     */
    async register(
      user: User,
      interaction: Interaction,
      raw: unknown,
      locale?: string,
    ): Promise<{ hardware: boolean; recoveryCodes: string[] | null }> {
      const clientId = interaction.request.client.client_id;
      let v: Awaited<ReturnType<Passkeys['verifyCreation']>>;
      try {
        let parsed: unknown;
        try {
          parsed = typeof raw === 'string' ? JSON.parse(raw) : undefined;
        } catch {
          throw invalidField('credential', 'must be the JSON of a credential');
        }
        v = await r.passkeys.verifyCreation<EnrolData>('enrol', registrationResponse(parsed, 'credential'));
        // A challenge of another user's page, or of another sign-in, is no challenge of this one.
        const data = v.data as EnrolData;
        if (v.passkey.user_id !== user.id || data.interaction !== interaction.digest)
          throw new WardError('passkeyChallenge');
      } catch (e) {
        if (e instanceof WardError && e.status < 500)
          await r.events.emit(
            'mfa.enrollment_key_refused',
            { user_id: user.id, client_id: clientId, reason: e.id },
            'security key enrolment refused',
          );
        throw e;
      }
      const before = await verifiedFactors(r.storage, user.id);
      const now = r.clock.now();
      const added = await r.storage.transaction(async (tx) => {
        // Registered as a second factor: `mfa_required: always` asks it at sign-in (045).
        await tx.passkeys.insert({ ...v.passkey, second_factor: true });
        // A change of factors ends the trust given to devices (MF-03).
        await tx.trustedDevices.revokeAllOfUser(user.id, now);
        return r.events.stage(tx, 'passkey.added', { client_id: clientId, user_id: user.id });
      });
      r.events.emitStaged(added, 'passkey added');
      r.notices.factorChanged({ user, change: 'factor_added', factor: { type: 'passkey' }, before, at: now, locale });
      const recoveryCodes = await r.strongFactors.firstRecoveryCodes(user);
      return { hardware: v.passkey.device_type === 'singleDevice' && !v.passkey.backed_up, recoveryCodes };
    },
  };
}

export type EnrolmentKeys = ReturnType<typeof createEnrolmentKeys>;

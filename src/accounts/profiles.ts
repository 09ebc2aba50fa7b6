import type { AccountSettings } from '../config/types.js';
import { recordAudit, type Actor } from '../audit/record.js';
import type { Clock } from '../lib/clock.js';
import { EMPTY_PROFILE, type StoredProfile } from '../storage/sql/profiles.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { applyProfile, readProfile, touchesProfile, type ProfileChange, type ProfileRules } from './profile.js';

/** Keys of update-profile that have their own verified flow: refused there, with where to go. */
export const CHANGED_ELSEWHERE: Readonly<Record<string, string>> = {
  email: 'is changed with POST /identity/v1/update-email (the new address is verified first)',
  phone_number: 'is changed with POST /identity/v1/update-phone-number (the new number is verified first)',
  password: 'is changed with POST /identity/v1/update-password',
  email_verified: 'is set by verifying the email address',
  phone_number_verified: 'is set by verifying the phone number',
};

/** Users' profiles: read, and change through the one validator (profile.ts), audited with the change. */
export function createProfileService(deps: { storage: Storage; clock: Clock; account: () => AccountSettings }) {
  const { storage, clock } = deps;
  return {
    /** The user's stored profile (empty when they have none). */
    async of(userId: string): Promise<StoredProfile> {
      return (await storage.profiles.find(userId)) ?? { ...EMPTY_PROFILE, updated_at: 0 };
    },
    /** Validates a change by the account's rules (throws profileInvalid, nothing stored). */
    read(input: Record<string, unknown>, rules: Omit<ProfileRules, 'customFields'>): ProfileChange {
      return readProfile(input, { ...rules, customFields: deps.account().custom_fields });
    },
    /** Stores a validated change in a transaction (or the one given), with its audit event. */
    async apply(user: User, change: ProfileChange, actor: Actor, tx?: Repos): Promise<void> {
      const write = async (t: Repos) => {
        const now = clock.now();
        if (Object.keys(change.names).length) await t.users.setNames(user.id, change.names, now);
        if (touchesProfile(change))
          await t.profiles.put(user.id, applyProfile(await t.profiles.find(user.id), change), now);
        await recordAudit(t, now, actor, 'user.profile_updated', `user:${user.id}`, 'success', {
          fields: change.fields,
        });
      };
      if (!change.fields.length) return;
      return tx ? write(tx) : storage.transaction(write);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;

// Consents to accept again (docs/profiles.md#consents): a version of a consent definition published
// with `require_reconsent` asks every user whose consent is on an older version, or who never gave a
// required one, to answer again at their next sign-in through the hosted pages (the step:
// interaction/reconsent.ts). A checked box grants the current version, an unchecked one records it
// as not granted; a required one must be checked. Users on the current version are never asked.
import type { ConsentDefinitionSetting } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Storage } from '../storage/storage.js';
import type { StoredUserConsent } from '../storage/sql/user-consents.js';
import type { User } from '../storage/sql/users.js';
import type { ConsentChanges } from './consent-changes.js';
import { currentVersion, textIn, type ConsentInput } from './user-consents.js';

/** Whether a definition may ask anyone again: it is active and one of its versions says so. */
const mayAskAgain = (d: ConsentDefinitionSetting): boolean =>
  d.status === 'active' && d.versions.some((v) => v.require_reconsent);

/**
 * The active definitions this user must answer again: one of their versions newer than the user's
 * asks it (`require_reconsent`). A consent the user never gave counts only for a required definition.
 */
export function consentsToRenew(
  definitions: readonly ConsentDefinitionSetting[],
  stored: readonly StoredUserConsent[],
): ConsentDefinitionSetting[] {
  const have = new Map(stored.map((c) => [c.key, c.version_id]));
  return definitions.filter((d) => {
    if (d.status !== 'active') return false;
    const from = have.get(d.key);
    if (from === undefined && !d.required) return false;
    return d.versions.some((v) => v.require_reconsent && v.version_id > (from ?? 0));
  });
}

/** A definition as the page shows it: its current version's text in the page's language. */
export function renewalText(d: ConsentDefinitionSetting, language: string) {
  const version = currentVersion(d);
  const t = textIn(version, language);
  return { key: d.key, required: d.required, version_id: version.version_id, ...t };
}

/** The page's answers as consents: each definition asked, granted when its box was checked. */
export function renewalAnswers(
  asked: readonly ConsentDefinitionSetting[],
  checked: ReadonlySet<string>,
  language: string,
): ConsentInput[] {
  const missing = asked.filter((d) => d.required && !checked.has(d.key));
  if (missing.length)
    throw new WardError('consentRequired', {
      description: missing.map((d) => `${d.key} must be accepted to sign in`).join('; '),
      details: missing.map((d) => ({ field: `consents.${d.key}`, message: 'must be accepted', code: 'missing' })),
    });
  return asked.map((d) => {
    const shown = renewalText(d, language);
    return {
      key: d.key,
      granted: checked.has(d.key),
      consent_type: d.consent_type,
      version_id: shown.version_id,
      language: shown.language,
    };
  });
}

/** The consents a user owes an answer to, and the recording of that answer. */
export function createConsentRenewal(deps: {
  storage: Storage;
  account: () => { consents: ConsentDefinitionSetting[] };
  changes: Pick<ConsentChanges, 'store' | 'sendConfirmations'>;
}) {
  const { storage } = deps;
  return {
    /** The definitions the user must answer again (none: the user is not asked). */
    async owed(userId: string): Promise<ConsentDefinitionSetting[]> {
      const definitions = deps.account().consents;
      // No definition asks anyone again (the usual case, at every sign-in): the user's consents are not read.
      if (!definitions.some(mayAskAgain)) return [];
      return consentsToRenew(definitions, await storage.userConsents.ofUser(userId));
    },

    /**
     * Records the user's answers (reporter `end_user`, the history, `user.consents_changed`) to what
     * they owe now; throws `consentRequired` (nothing stored) when a required one is not checked.
     */
    async answer(user: User, checked: ReadonlySet<string>, language: string, ip: string | null): Promise<void> {
      const actor = { type: 'user' as const, id: user.id, ip };
      const pending = await storage.transaction(async (tx) => {
        const asked = consentsToRenew(deps.account().consents, await tx.userConsents.ofUser(user.id));
        return deps.changes.store(tx, user.id, renewalAnswers(asked, checked, language), 'end_user', actor);
      });
      deps.changes.sendConfirmations(user, pending, language);
    },
  };
}

export type ConsentRenewal = ReturnType<typeof createConsentRenewal>;

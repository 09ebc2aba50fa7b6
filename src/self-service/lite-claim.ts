// Claiming a lite profile by signing up with its email (accounts/lite-profiles.ts; docs/profiles.md,
// "Lite profiles"). The signup writes nothing: its checked data waits, sealed, in a link mailed to the
// address. The link's page asks for the password typed at signup: only the person who signed up AND
// reads the mailbox can finish, so neither a stranger who signs up with someone's address nor the owner
// who clicks a link they did not ask for hands the profile to the stranger, and nothing of the profile is
// shown before. Finishing proves the address (it becomes verified), gives the profile the password,
// makes it a full one and fills what it lacked; what was made before any proof of the address ends, as at
// a password reset (first-proof.ts).
import type { AccountCodes, CheckedCode } from '../accounts/codes.js';
import type { ConsentChanges } from '../accounts/consent-changes.js';
import { storeCustomIdentifier } from '../accounts/custom-identifiers.js';
import { claimChange, type LiteClaim, openClaim, sealClaim } from '../accounts/lite-profiles.js';
import { verifyPassword } from '../accounts/passwords.js';
import type { ProfileService } from '../accounts/profiles.js';
import { keysOfUser } from '../accounts/sign-in-protection.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import { recordAudit } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { User } from '../storage/sql/users.js';
import { endUnprovenAccess, type FirstProofDeps, isFirstProof } from './first-proof.js';
import { sendAccountCode } from './send-code.js';

export interface LiteClaimDeps extends FirstProofDeps {
  issuer: string;
  masterKey: Buffer;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  profiles: Pick<ProfileService, 'apply'>;
  consentChanges: Pick<ConsentChanges, 'store' | 'sendConfirmations'>;
}

/** The page the mailed link opens. */
export const CLAIM_PAGE = '/identity/v1/signup/claim';

/** The outcome of a claim's page: done, or the password typed was not the signup's (the link still works). */
export type ClaimOutcome =
  | { done: true; email: string; redirectUrl?: string; returnTo?: string }
  | { done: false; email: string; redirectUrl?: string };

export function createLiteClaims(deps: LiteClaimDeps) {
  const { storage, clock } = deps;
  const invalid = () => new WardError('invalidVerificationCode');

  /** The live link of a token, of a profile still lite, enabled, at the address it was sent to. */
  async function live(token: unknown): Promise<{ row: CheckedCode; user: User; claim: LiteClaim } | undefined> {
    const row = await deps.codes.findLink('claim_profile', token);
    if (!row?.user_id) return undefined;
    const user = await storage.users.findById(row.user_id);
    if (!user || user.disabled || user.email !== row.destination) return undefined;
    if (!user.lite) return undefined;
    const claim = openClaim(deps.masterKey, user.id, row.values.claim);
    return claim && { row, user, claim };
  }

  /** The profile as the claim leaves it, and what goes with it, in one transaction. */
  async function upgrade(user: User, row: CheckedCode, claim: LiteClaim): Promise<void> {
    const email = row.destination;
    const actor = { type: 'user' as const, id: user.id, ip: null };
    let verified: StagedEvent | undefined;
    let pending: Awaited<ReturnType<LiteClaimDeps['consentChanges']['store']>> = [];
    try {
      await storage.transaction(async (tx) => {
        const now = clock.now();
        if (!(await tx.profiles.isLite(user.id))) throw invalid();
        await tx.users.setPassword(user.id, claim.password_hash, now);
        if (!(await tx.users.markVerified(user.id, 'email', email, now))) throw invalid();
        await tx.signInFailures.clear(keysOfUser(user));
        if (claim.phone_number && !user.phone_number) await tx.users.setPhoneIfNone(user.id, claim.phone_number, now);
        if (claim.custom_identifier && !(await tx.customIdentifiers.ofUser(user.id)))
          await storeCustomIdentifier(tx, user.id, claim.custom_identifier, now);
        await deps.profiles.apply(user, claimChange(user, await tx.profiles.find(user.id), claim.extra), actor, tx);
        // The consents the profile has no record of; those it has are its owner's earlier word.
        const known = new Set((await tx.userConsents.ofUser(user.id)).map((c) => c.key));
        const consents = claim.consents.filter((c) => !known.has(c.key));
        pending = await deps.consentChanges.store(tx, user.id, consents, 'end_user', actor);
        await recordAudit(tx, now, actor, 'user.lite_profile_claimed', `user:${user.id}`, 'success');
        verified = await deps.events.stage(tx, 'account.email_verified', { user_id: user.id });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new WardError('phoneNumberInUse');
      throw e;
    }
    if (verified) deps.events.emitStaged(verified, 'email verified by claiming a lite profile');
    deps.consentChanges.sendConfirmations({ ...user, email }, pending);
  }

  return {
    /**
     * Mails the link of a claim in the background, as a signup's verification is (the address's limit
     * counts it): the signup waits in it, sealed. The previous link of this profile stops working.
     */
    start(
      lite: User & { email: string },
      claim: LiteClaim,
      opts: { clientId?: string; redirectUrl?: string; returnTo?: string; locale?: string },
    ): void {
      const data: Record<string, string> = { claim: sealClaim(deps.masterKey, lite.id, claim) };
      if (opts.redirectUrl) data.redirect_url = opts.redirectUrl;
      if (opts.returnTo) data.return_to = opts.returnTo;
      deps.background.run(async () => {
        await deps.events.emit(
          'account.lite_claim_sent',
          { user_id: lite.id },
          'a signup asked to claim a lite profile',
        );
        await sendAccountCode(deps, {
          userId: lite.id,
          purpose: 'claim_profile',
          channel: 'email',
          address: lite.email,
          clientId: opts.clientId,
          data,
          locale: opts.locale,
          linkUrl: (token) => `${deps.issuer}${CLAIM_PAGE}?token=${encodeURIComponent(token)}`,
        });
      });
    },

    /** The address a link was sent to (its page shows it), or undefined when the link is not live. */
    async peek(token: unknown): Promise<{ email: string; redirectUrl?: string } | undefined> {
      const found = await live(token);
      return found && { email: found.row.destination, redirectUrl: found.row.values.redirect_url };
    },

    /**
     * The link's page posted with the password: each try counts against the link's attempts; the
     * signup's password finishes the claim (once), another one answers `done: false`. A link that is
     * not live, or has used its attempts, is invalidVerificationCode.
     */
    async confirm(token: unknown, password: unknown): Promise<ClaimOutcome> {
      const found = await live(token);
      if (!found) throw invalid();
      const { user, claim } = found;
      const row = await storage.accountCodes.countAttempt(found.row.id);
      if (!row || row.attempts > row.max_attempts || row.consumed_at !== null || row.superseded_at !== null)
        throw invalid();
      const right = typeof password === 'string' && (await verifyPassword(claim.password_hash, password));
      if (!right) {
        await deps.events.emit(
          'account.lite_claim_failed',
          { user_id: user.id, attempts: row.attempts },
          'a lite profile claim was refused: not the signup password',
        );
        return { done: false, email: found.row.destination, redirectUrl: found.row.values.redirect_url };
      }
      await deps.codes.consume(found.row);
      // Pre-hijacking: a first proof of the address ends what someone made before it (the password stays).
      if (isFirstProof(user, 'email', found.row.destination))
        await endUnprovenAccess(deps, user, 'email', { keepPassword: true });
      await upgrade(user, found.row, claim);
      return {
        done: true,
        email: found.row.destination,
        redirectUrl: found.row.values.redirect_url,
        returnTo: found.row.values.return_to,
      };
    },
  };
}

export type LiteClaims = ReturnType<typeof createLiteClaims>;

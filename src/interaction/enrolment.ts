// A required enrolment of a second factor (account setting `mfa_enrollment: required`, docs/mfa.md):
// a user without any verified factor who signs in through the hosted pages is asked, after the first
// factor and before the code is issued, to set up an authenticator app (or their verified email address
// or phone number as a factor, when Ward can send there, or a security key or passkey, when Ward's pages
// may run a WebAuthn ceremony: http/routes/enrol-key.ts); while the grace count of skips
// (`mfa_enrollment_grace_skips`) lasts, "Later" skips it and counts one. The interaction moves to its
// `enrol` step (a new handle), the app's enrolment is started (or its pending one shown again), and
// http/routes/authorize-enrol.ts answers the page's forms. Where no page can be shown (an identity API
// call answered in JSON, prompt=none, web_message) the sign-in is refused with mfa_enrollment_required.
import { WardError } from '../errors/ward-error.js';
import type { User } from '../storage/sql/users.js';
import { consentCanBeShown } from './consent.js';
import type { BrowserState, Outcome, SignedIn } from './outcome.js';
import type { Interaction, InteractionService } from './service.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/** An authenticator app being set up: what the page shows (the secret only to this user, once per page). */
export interface TotpEnrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface EnrolmentDeps {
  interactions: InteractionService;
  settings(): { mfa_enrollment: 'optional' | 'required'; mfa_enrollment_grace_skips: number };
  /** Whether the user has a verified second factor (a registered security key or passkey counts). */
  hasFactor(userId: string): Promise<boolean>;
  /** How many times the user skipped the enrolment so far. */
  skipsTaken(userId: string): Promise<number>;
  /** The pending authenticator app shown again, else a new one started. */
  totp(user: User): Promise<TotpEnrolment>;
  /** The user's verified addresses Ward can send a code to: email or SMS factors the page may offer. */
  messageChannels(user: User): MessageChannel[];
  /** Whether the page may offer a security key or passkey (passkeys on, Ward's origin one of theirs). */
  keysOffered(): boolean;
  emit(name: string, detail: Record<string, unknown>, message: string): Promise<void>;
}

/** An address of the user's that may become an email or SMS factor. */
export interface MessageChannel {
  channel: 'email' | 'sms';
  to: string;
}

export function createEnrolmentStep(deps: EnrolmentDeps) {
  const skipsLeft = async (userId: string) =>
    Math.max(0, deps.settings().mfa_enrollment_grace_skips - (await deps.skipsTaken(userId)));

  return {
    /** Whether this user must be asked to enrol a second factor (the setting, and no factor yet). */
    async owed(userId: string): Promise<boolean> {
      return deps.settings().mfa_enrollment === 'required' && !(await deps.hasFactor(userId));
    },

    skipsLeft,
    messageChannels: deps.messageChannels,
    keysOffered: deps.keysOffered,

    /**
     * The enrolment step after a first factor: the interaction (stored now if it was not) moves to
     * `enrol`, the page's enrolment is started. Refused where no page can be shown.
     */
    async begin(at: Interaction | AuthorizeRequest, who: SignedIn, browser: BrowserState): Promise<Outcome> {
      const request = 'digest' in at ? at.request : at;
      const refusal = (where: string) => {
        const detail = { user_id: who.user.id, client_id: request.client.client_id, where };
        return deps.emit('mfa.enrollment_refused', detail, 'second factor enrolment required, no page to ask');
      };
      const description = 'This account requires a second factor to be set up: sign in through the hosted pages';
      if (!browser.bind) {
        await refusal('api');
        throw new WardError('mfaEnrollmentRequired', { description });
      }
      if (!consentCanBeShown(request)) {
        await refusal('no_page');
        throw new WardError('authorizeInteractionRequired', { description, authorizeRequest: request });
      }
      const stored = 'digest' in at ? at : (await deps.interactions.start(at, 'login', browser.bind())).interaction;
      const moved = await deps.interactions.advance(stored, 'enrol', {
        userId: who.user.id,
        amr: who.amr,
        authTime: who.authTime,
      });
      if (!moved) return { kind: 'expired', request: stored.request };
      const left = await skipsLeft(who.user.id);
      await deps.emit(
        'mfa.enrollment_required_shown',
        { user_id: who.user.id, client_id: request.client.client_id, skips_left: left },
        'second factor enrolment asked',
      );
      const channels = deps.messageChannels(who.user);
      return {
        kind: 'enrol',
        ...moved,
        totp: await deps.totp(who.user),
        skipsLeft: left,
        channels,
        keys: deps.keysOffered(),
      };
    },
  };
}

export type EnrolmentStep = ReturnType<typeof createEnrolmentStep>;

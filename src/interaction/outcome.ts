// What a sign-in's next step decides (next-step.ts) and what it reads: who signed in, what the
// browser brought, and the outcomes the hosted pages (http/routes/hosted-form.ts answerOutcome) and the
// API answer.
import type { ConsentDefinitionSetting } from '../config/types.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import type { SignInMethodId } from '../sign-in-methods/contract.js';
import type { User } from '../storage/sql/users.js';
import type { SecondFactorType } from '../stepup/service.js';
import type { Interaction } from './service.js';

/** The response values of an authorization: `{code}`, or the implicit tokens. */
export type AuthorizationValues = Record<string, string | number | undefined>;

/** Who signed in by a first factor, and how (RFC 8176 amr). */
export interface SignedIn {
  user: User;
  amr: string[];
  authTime: number;
  /** The action an API step-up named (docs/mfa.md#step-up-actions), carried into the grant's tokens. */
  stepUpAction?: string | null;
}

/** A first factor: who signed in, and by which sign-in method (null: a tkn, recorded where it was issued). */
export interface FirstFactor extends SignedIn {
  method: SignInMethodId | null;
  /** Method-specific facts for the audit event (whether the account was created by this sign-in, ...). */
  detail?: Record<string, unknown>;
}

/** What the browser brought that the decision reads. */
export interface BrowserState {
  /** The SSO cookie, ended and replaced by the new session (no fixation). */
  sessionCookie?: string;
  trustedDeviceCookie?: string;
  /** The cookie that binds a stored interaction to this browser (set when first asked for). */
  bind?: () => string;
  /**
   * The request's language by the one rule (texts/choose-language.ts), given the user's stored locale
   * once the user is known; absent: the messages' default.
   */
  language?: (userLocale?: string | null) => string;
  /** The caller's address, for the audit event. */
  ip?: string;
  /** The browser's User-Agent header, kept with the session it signs in (the user's list of sessions). */
  userAgent?: string;
}

export type Outcome =
  | {
      kind: 'second_factor';
      /** The handle the second-factor page posts (a new one: the step's own). */
      handle: string;
      interaction: Interaction;
      stepUp: string;
      /** The factor asked first: an authenticator app when the user has one (nothing is sent), else a code. */
      channel: SecondFactorType;
      /** The first code's challenge, or null when none was sent (an authenticator app) or sending failed (`error`). */
      challengeId: string | null;
      error?: unknown;
    }
  | { kind: 'authorized'; request: AuthorizeRequest; values: AuthorizationValues; sessionCookie?: string }
  /** A third-party client's consent page: the interaction at its `consent` step, under this handle. */
  | { kind: 'consent'; handle: string; interaction: Interaction; sessionCookie?: string }
  /** A required second factor to set up (interaction/enrolment.ts): the interaction at its `enrol` step. */
  | {
      kind: 'enrol';
      handle: string;
      interaction: Interaction;
      totp: { secret: string; uri: string; qrSvg: string };
      skipsLeft: number;
      /** The user's verified addresses that may become an email or SMS factor instead. */
      channels: Array<{ channel: 'email' | 'sms'; to: string }>;
      /** Whether a security key or passkey may be registered on the page (a hosted ceremony). */
      keys: boolean;
    }
  /**
   * Consents to accept again (interaction/reconsent.ts): the interaction at its `reconsent` step (a
   * sign-in, whose session starts once they are answered) or `reconsent_session` (an SSO session's).
   */
  | { kind: 'reconsent'; handle: string; interaction: Interaction; consents: ConsentDefinitionSetting[] }
  /** The interaction ended meanwhile (finished by a parallel post, or expired); its request: the page's language. */
  | { kind: 'expired'; request: AuthorizeRequest };

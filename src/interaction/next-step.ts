// What follows a first factor. Every way into a sign-in (password, tkn, social, and the methods to
// come) authenticates the user and then calls afterFirstFactor, which decides the rest in one place:
// a second factor when the account requires it (MFA required = Always, no trusted device), else a
// new session and the authorization response. A sign-in answered from an existing SSO session goes
// through sessionAnswers instead (prompt, the client's `sso`, max_age, id_token_hint, the
// second-factor rule) and, for Messenger linking, through a confirmation (never a silent code).
// Consents to accept again (interaction/reconsent.ts) come before the session starts; a third-party
// client's consent page (interaction/consent.ts) comes last, once the user is known and signed in:
// the interaction moves to its `consent` step, and /oauth/authorize/consent ends it.
// The first factor's audit event (login.succeeded, or login.mfa_required) is recorded here too, with
// the sign-in method that proved it (sign-in-methods/contract.ts), so no method can forget it; an API
// path that answers without an interaction asks secondFactorOwed, the same rule.
import { WardError } from '../errors/ward-error.js';
import type { Authenticated } from '../protocol/authorize/complete.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import type { BeforeLogin } from '../protocol/tkn.js';
import type { User } from '../storage/sql/users.js';
import type { Channel } from '../stepup/challenges.js';
import type { SecondFactorType } from '../stepup/service.js';
import type { SignInAudit } from '../sign-in-methods/audit.js';
import { consentCanBeShown, consentNeeded } from './consent.js';
import type { AuthorizationValues, BrowserState, FirstFactor, Outcome, SignedIn } from './outcome.js';
import type { ReconsentStepService } from './reconsent.js';
import type { Interaction, InteractionService } from './service.js';

export type { AuthorizationValues, BrowserState, FirstFactor, Outcome, SignedIn } from './outcome.js';

/** A new session's start: when the user authenticated, the SSO cookie it replaces, where from. */
const sessionPlace = (who: SignedIn, browser: BrowserState) => ({
  authTime: who.authTime,
  replaces: browser.sessionCookie,
  userAgent: browser.userAgent,
  ip: browser.ip,
});

export interface NextStepDeps {
  interactions: InteractionService;
  beginStepUp(
    user: Pick<User, 'id'>,
    bound: { clientId: string; interactionDigest: string },
    baseAmr: string[],
  ): Promise<{ token: string; amr: string[]; factors?: SecondFactorType[]; preferred?: SecondFactorType }>;
  requestCode(stepUp: string, channel: Channel, locale?: string): Promise<string>;
  /** The user's stored locale (their profile's `locale`), which the language rule puts before Accept-Language. */
  userLocale(userId: string): Promise<string | null>;
  /** MFA required = Always and the user has a verified factor. */
  /** `amr`: the first factor's (a key that signed in is not asked again as a second factor). */
  secondFactorRequired(userId: string, amr: string[]): Promise<boolean>;
  isTrustedDevice(cookie: string | undefined, userId: string): Promise<boolean>;
  /** `replaces`: the browser's SSO cookie; `userAgent` and `ip`: where it signs in from. */
  startSession(
    userId: string,
    amr: string[],
    opts: { authTime: number; replaces?: string; userAgent?: string; ip?: string },
  ): Promise<{ cookie: string; id: string }>;
  authorize(request: AuthorizeRequest, auth: Authenticated): Promise<AuthorizationValues>;
  now(): number;
  /** The scopes the user granted this third-party client so far (none: never asked). */
  grantedScopes(userId: string, clientId: string): Promise<string[]>;
  /** Where a first factor's outcome is recorded (sign-in-methods/audit.ts). */
  audit: Pick<SignInAudit, 'succeeded' | 'mfaRequired'>;
  /** The before.login hooks, asked after a first factor and before anything follows it. */
  beforeLogin?: BeforeLogin;
  /** A required enrolment of a second factor (interaction/enrolment.ts), asked when no factor is owed. */
  enrolment?: {
    owed(userId: string): Promise<boolean>;
    begin(at: Interaction | AuthorizeRequest, who: SignedIn, browser: BrowserState): Promise<Outcome>;
  };
  /** Consents to accept again (interaction/reconsent.ts), asked before the session and the code. */
  reconsent?: Pick<ReconsentStepService, 'ask' | 'owed'>;
}

/** Whether an authentication at `authTime` is recent enough for max_age (seconds; undefined: any). */
export function withinMaxAge(now: number, authTime: number, maxAge: number | undefined): boolean {
  return maxAge === undefined || now - authTime <= maxAge * 1000;
}

/**
 * Whether the request wants a sign-in whatever session the browser has, so no session is even read
 * for it: it asks for a new authentication (prompt=login), or its client has `sso: false`. Such a
 * client takes part in no single sign-on: no session answers it, not even one its own sign-in started
 * (the Core SDK refuses checkSession and loginFromSession for it too); its sign-ins still start the
 * browser's session (the account page, logout and the clients with `sso: true` use it).
 */
export const forcesLogin = (request: AuthorizeRequest): boolean => request.prompt === 'login' || !request.client.sso;

export function createNextStep(deps: NextStepDeps) {
  async function needsSecondFactor(
    who: Pick<SignedIn, 'user' | 'amr'>,
    browser: Pick<BrowserState, 'trustedDeviceCookie'>,
  ): Promise<boolean> {
    if (who.amr.includes('mfa')) return false;
    if (!(await deps.secondFactorRequired(who.user.id, who.amr))) return false;
    return !(await deps.isTrustedDevice(browser.trustedDeviceCookie, who.user.id));
  }

  /**
   * The second-factor step: the interaction moves on under a new handle, a step-up bound to it, the first code sent.
   */
  async function secondFactor(
    at: Interaction | AuthorizeRequest,
    who: SignedIn,
    browser: BrowserState,
  ): Promise<Outcome> {
    const stored =
      'digest' in at ? at : (await deps.interactions.start(at, 'login', browser.bind?.() ?? null)).interaction;
    const moved = await deps.interactions.advance(stored, 'mfa', {
      userId: who.user.id,
      amr: who.amr,
      authTime: who.authTime,
    });
    if (!moved) return { kind: 'expired', request: stored.request };
    const bound = { clientId: moved.interaction.request.client.client_id, interactionDigest: moved.interaction.digest };
    const { token, amr, factors, preferred } = await deps.beginStepUp(who.user, bound, who.amr);
    // The factor the user answered with last, else the most secure: a security key or an authenticator
    // app needs no message (it is asked for, and nothing is sent).
    const first = preferred ?? factors?.find((f) => f === 'webauthn' || f === 'totp');
    if (first === 'webauthn' || first === 'totp')
      return { kind: 'second_factor', ...moved, stepUp: token, channel: first, challengeId: null };
    const channel: Channel = first === 'sms' || first === 'email' ? first : amr.includes('email') ? 'email' : 'sms';
    try {
      const locale = browser.language?.(await deps.userLocale(who.user.id));
      const challengeId = await deps.requestCode(token, channel, locale);
      return { kind: 'second_factor', ...moved, stepUp: token, channel, challengeId };
    } catch (error) {
      return { kind: 'second_factor', ...moved, stepUp: token, channel, challengeId: null, error };
    }
  }

  /**
   * Whether the user must consent before this request is answered (a third-party client); thrown
   * consent_required where no page can be shown: prompt=none and web_message (answered to the
   * client, like the other authorization errors), and an identity API call that answers JSON (`api`:
   * an API step-up, a passwordless verify; answered in its JSON).
   */
  async function mustConsent(request: AuthorizeRequest, userId: string, api = false): Promise<boolean> {
    if (request.client.first_party && !request.device) return false;
    if (!consentNeeded(request, await deps.grantedScopes(userId, request.client.client_id))) return false;
    const description = 'The user has not granted these scopes to this client';
    if (api) throw new WardError('authorizeConsentRequired', { description });
    if (!consentCanBeShown(request))
      throw new WardError('authorizeConsentRequired', { description, authorizeRequest: request });
    return true;
  }

  /** The consent step: the interaction (stored now if it was not) moves on to its consent page. */
  async function consentStep(
    at: Interaction | AuthorizeRequest,
    who: Pick<SignedIn, 'user' | 'amr' | 'authTime'>,
    browser: BrowserState,
    sessionCookie?: string,
  ): Promise<Outcome> {
    const stored =
      'digest' in at ? at : (await deps.interactions.start(at, 'login', browser.bind?.() ?? null)).interaction;
    const moved = await deps.interactions.advance(stored, 'consent', {
      userId: who.user.id,
      amr: who.amr,
      authTime: who.authTime,
    });
    if (!moved) return { kind: 'expired', request: stored.request };
    return { kind: 'consent', ...moved, sessionCookie };
  }

  /**
   * The end of a sign-in: the interaction finished once (already, when `taken`), a new session, the
   * authorization response; or, for a third-party client the user has not consented to yet, the new
   * session and the consent page.
   */
  async function complete(
    at: Interaction | AuthorizeRequest,
    who: SignedIn,
    browser: BrowserState,
    taken = false,
  ): Promise<Outcome> {
    const interaction = 'digest' in at ? at : null;
    const asked = interaction ? interaction.request : (at as AuthorizeRequest);
    // No binding cookie to set: an identity API call (JSON), which has no page to show.
    const api = taken || !browser.bind;
    // Consents to accept again come first, before any session (a required one refused signs nothing in).
    const renewal = await deps.reconsent?.ask(at, who, browser, 'reconsent', api);
    if (renewal) return renewal;
    if (await mustConsent(asked, who.user.id, api)) {
      const session = await deps.startSession(who.user.id, who.amr, sessionPlace(who, browser));
      return consentStep(at, who, browser, session.cookie);
    }
    if (interaction && !taken && !(await deps.interactions.finish(interaction)))
      return { kind: 'expired', request: interaction.request };
    const request = interaction ? interaction.request : (at as AuthorizeRequest);
    const session = await deps.startSession(who.user.id, who.amr, sessionPlace(who, browser));
    const values = await deps.authorize(request, {
      user: who.user,
      sessionId: session.id,
      authTime: who.authTime,
      amr: who.amr,
      stepUpAction: who.stepUpAction ?? null,
    });
    return { kind: 'authorized', request, values, sessionCookie: session.cookie };
  }

  return {
    /**
     * After any first factor: a second factor when required, else the end of the sign-in. `at` is
     * the stored interaction, or a request validated in this very call (stored only if it must go on).
     */
    async afterFirstFactor(
      at: Interaction | AuthorizeRequest,
      who: FirstFactor,
      browser: BrowserState,
    ): Promise<Outcome> {
      const { method, detail, ...signedIn } = who;
      const request = 'digest' in at ? at.request : at;
      // A tkn (method null) asked the hooks when it was minted (protocol/tkn.ts).
      if (method)
        await deps.beforeLogin?.({ userId: who.user.id, clientId: request.client.client_id, amr: who.amr, method });
      const owed = await needsSecondFactor(signedIn, browser);
      if (method) {
        const event = { method, clientId: request.client.client_id, ip: browser.ip, userId: who.user.id, amr: who.amr };
        await (owed ? deps.audit.mfaRequired : deps.audit.succeeded)({ ...event, detail });
      }
      if (owed) return secondFactor(at, signedIn, browser);
      if (deps.enrolment && (await deps.enrolment.owed(who.user.id)))
        return deps.enrolment.begin(at, signedIn, browser);
      return complete(at, signedIn, browser);
    },

    /**
     * Whether a second factor is owed after this first factor, for an API path that answers by itself
     * (the SDK's password login, the password grant): the same rule afterFirstFactor applies.
     */
    secondFactorOwed: (who: Pick<SignedIn, 'user' | 'amr'>, browser: Pick<BrowserState, 'trustedDeviceCookie'>) =>
      needsSecondFactor(who, browser),

    /** Whether the user must set up a second factor before signing in (mfa_enrollment: required). */
    enrolmentOwed: async (userId: string): Promise<boolean> => (await deps.enrolment?.owed(userId)) ?? false,

    /** Whether the user must accept consents again before signing in (an API path with no page refuses). */
    reconsentOwed: async (userId: string): Promise<boolean> => ((await deps.reconsent?.owed(userId))?.length ?? 0) > 0,

    /**
     * After the second factor (its amr includes mfa): the end of the sign-in. `taken`: the caller
     * ended the interaction already (an API step-up's, by using its token up: StepUpService.finishApiStepUp).
     */
    afterSecondFactor: (interaction: Interaction, who: SignedIn, browser: BrowserState, taken = false) =>
      complete(interaction, who, browser, taken),

    /** After the consents to accept again were answered (step `reconsent`): the end of the sign-in. */
    afterReconsent: (interaction: Interaction, who: SignedIn, browser: BrowserState) =>
      complete(interaction, who, browser),

    /**
     * Whether the browser's SSO session answers this request by itself: not when prompt asks for a
     * new login or the client has `sso: false` (forcesLogin), when it is older than max_age (OIDC
     * Core 3.1.2.1), when id_token_hint names another user, or when it is a password-only session of
     * a user who must use a second factor (the cookie is no second factor).
     */
    async sessionAnswers(
      request: AuthorizeRequest,
      session: { authTime: number; amr: string[]; user: User | undefined },
      hintSub: string | undefined,
    ): Promise<boolean> {
      if (forcesLogin(request)) return false;
      const user = session.user;
      if (!user || user.disabled || !withinMaxAge(deps.now(), session.authTime, request.maxAge)) return false;
      if (hintSub !== undefined && hintSub !== user.id) return false;
      return session.amr.includes('mfa') || !(await deps.secondFactorRequired(user.id, session.amr));
    },

    /**
     * A request the SSO session answers: the consents to accept again when the user owes some, then,
     * for a third-party client, the consent page when the user has not granted what it asks
     * (interaction_required or consent_required where no page can be shown); null: nothing owed.
     */
    async consentFromSession(
      request: AuthorizeRequest,
      session: { authTime: number; amr: string[]; user: User },
      browser: BrowserState,
    ): Promise<Outcome | null> {
      const renewal = await deps.reconsent?.ask(request, session, browser, 'reconsent_session');
      if (renewal) return renewal;
      if (!(await mustConsent(request, session.user.id))) return null;
      return consentStep(request, session, browser);
    },

    /** Whether the user still owes consent for this request (the consent page's answer checks it). */
    mustConsent: (request: AuthorizeRequest, userId: string) => mustConsent(request, userId),

    /** A request the SSO session answers: the response values, in that session (no new login). */
    async fromSession(request: AuthorizeRequest, session: { id: string; authTime: number; amr: string[]; user: User }) {
      const auth = { user: session.user, sessionId: session.id, authTime: session.authTime, amr: session.amr };
      return deps.authorize(request, auth);
    },

    /** Whether answering from the session needs the user's confirmation first (Messenger linking, ML-05). */
    needsConfirmation: (request: AuthorizeRequest): boolean => request.responseType === 'messenger_code',
  };
}

export type NextStep = ReturnType<typeof createNextStep>;

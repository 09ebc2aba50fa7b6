import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { SESSION_COOKIE, type Session, type SessionService } from '../../accounts/sessions.js';
import { type Language, WardError } from '../../errors/ward-error.js';
import { invalidField } from '../../errors/refusals.js';
import { maskDestination, type Delivery } from '../../integrations/delivery.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import {
  ACCOUNT_PATH,
  type AccountPageInput,
  type AccountSection,
  accountPage,
  signedOutPage,
} from '../../interaction/pages/account.js';
import {
  type AccountNotice,
  accountErrorText,
  accountProblem,
  isAccountNotice,
} from '../../interaction/pages/account-text.js';
import { singleValued, type Params } from '../../protocol/params.js';
import { ACCOUNT_PAGE_CLIENT, type AccountStepUp } from '../../self-service/account-step-up.js';
import { changePassword } from '../../self-service/password-change.js';
import type { Channel } from '../../stepup/challenges.js';
import { freshFromStepUp, requireFreshStepUp, verifiedFactors } from '../../stepup/factors.js';
import type { User } from '../../storage/sql/users.js';
import { setSessionCookie } from '../cookies.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import type { Language as TextLanguage } from '../../texts/language.js';
import { sendRendered } from '../pages.js';
import { ensureCsrf, sameOriginPost } from './hosted-form.js';
import {
  accountConsentRevokeSchema,
  accountEmailSchema,
  accountPageSchema,
  accountPasswordSchema,
  accountPhoneSchema,
  accountPhoneVerifySchema,
  accountStepUpSchema,
  accountStepUpVerifySchema,
} from './schemas/account.js';
import type { ProfileService } from '../../accounts/profiles.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Background } from '../../lib/background.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbound } from '../../lib/outbound/client.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { LogoutDelivery } from '../../logout/backchannel.js';
import type { Addresses } from '../../self-service/addresses.js';
import type { Storage } from '../../storage/storage.js';
import type { StrongFactors } from '../../stepup/strong-factors.js';
import { accountAppRoutes } from './account-app.js';
import { accountKeyRoutes, keyCount } from './account-key.js';
import { accountLeaveRoutes } from './account-leave.js';
import { accountSignInsRoutes, signInsView } from './account-sign-ins.js';
import { accountProfileRoutes, type ProfileExtra, profileView } from './account-profile.js';
import type { AccountDeletion } from '../../self-service/account-deletion.js';
import type { UserService } from '../../accounts/users.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AccountDeps {
  accountDeletion: AccountDeletion;
  accountStepUp: AccountStepUp;
  account: () => AccountSettings;
  addresses: Addresses;
  background: Background;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  delivery: Delivery;
  events: SecurityEvents;
  limiter: Limiter;
  logoutDelivery: LogoutDelivery;
  masterKey: Buffer;
  outbound: Outbound;
  profiles: ProfileService;
  sessions: SessionService;
  storage: Storage;
  strongFactors: StrongFactors;
  users: Pick<UserService, 'protection'>;
}

/** The signed-in user of a request: the live SSO session, its cookie, the page's language. */
interface SignedIn {
  session: Session & { user: User };
  cookie: string;
  /** The language of its pages (as far as they speak it). */
  language: Language;
  /** The language of the request (texts/choose-language.ts): its emails and SMS. */
  messageLanguage: TextLanguage;
}

/** A form post that passed the checks, with what the page needs to answer it. */
interface Accepted {
  who: SignedIn;
  params: Params;
  back: AccountPageInput['back'];
}

type Extra = Pick<AccountPageInput, 'notice' | 'error' | 'values' | 'back' | 'enrolment' | 'newCodes'> & {
  profileForm?: ProfileExtra['profileForm'];
  started?: NonNullable<AccountPageInput['stepUp']>['started'];
  keyStarted?: NonNullable<AccountPageInput['stepUp']>['keyStarted'];
  /** "Delete my account" of a user without a password: where their code went. */
  codeSent?: Channel;
};

const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 320) : '');
const channelOf = (v: unknown): Channel => {
  if (v !== 'email' && v !== 'sms') throw invalidField('auth_type', 'must be email or sms');
  return v;
};

/**
 * The hosted "Your account" page (GET /identity/v1/account), signed in by the SSO cookie: the user's
 * email and phone, and forms that change them and the password with the self-service rules
 * (src/self-service/); "Confirm it's you" first when a step-up is owed. Every form post is checked
 * (same origin, the CSRF token of the pre-login cookie, the live session, the self-service rate
 * limit) and ends in a 303 back to the page with a fixed notice, or the page again with the error.
 */
export function accountRoutes(app: WardApp, r: AccountDeps): void {
  const stepUp = r.accountStepUp;

  /** The user's stored locale when Ward speaks it, else the browser's Accept-Language (no interaction here). */
  async function languageFor(req: FastifyRequest, userId: string): Promise<TextLanguage> {
    return requestLanguage(req, { userLocale: (await r.profiles.of(userId)).locale });
  }

  async function signedIn(req: FastifyRequest): Promise<SignedIn | null> {
    const cookie = req.cookies[SESSION_COOKIE];
    const session = await r.sessions.fromCookie(cookie);
    if (!cookie || !session?.user || session.user.disabled) return null;
    const language = await languageFor(req, session.userId);
    return {
      session: { ...session, user: session.user },
      cookie,
      language,
      messageLanguage: language,
    };
  }

  /** "Back to <app>": the first allowed origin of the client that linked here, if it has one. */
  async function backOf(clientId: unknown): Promise<AccountPageInput['back']> {
    if (typeof clientId !== 'string') return undefined;
    const client = await r.clients.find(clientId);
    const origin = client?.allowed_origins.find((o) => o.startsWith('https://') || o.startsWith('http://'));
    if (!client || client.type === 'resource_server' || !origin) return undefined;
    return { clientId: client.client_id, name: client.name || client.client_id, href: `${origin}/` };
  }

  /** The user's consents to clients that still exist, with their names. */
  async function consentsOf(userId: string): Promise<AccountPageInput['consents']> {
    const out: NonNullable<AccountPageInput['consents']> = [];
    for (const c of await r.storage.consents.listForUser(userId)) {
      const client = await r.clients.find(c.client_id);
      if (client) out.push({ clientId: c.client_id, name: client.name, scopes: c.scopes });
    }
    return out;
  }

  async function render(req: FastifyRequest, reply: FastifyReply, who: SignedIn, status: number, extra: Extra) {
    const { user } = who.session;
    const factors = await verifiedFactors(r.storage, user.id);
    const owed = factors.length > 0 && !freshFromStepUp(who.session, r.clock.now());
    const app = factors.some((f) => f.type === 'totp');
    const page = accountPage(status, {
      language: who.language,
      csrf: ensureCsrf(r, req, reply),
      user: {
        email: user.email,
        emailVerified: user.email_verified,
        phone: user.phone_number,
        phoneVerified: user.phone_number_verified,
        hasPassword: user.password_hash !== null,
      },
      keyCount: await keyCount(r, user.id),
      app: app ? { recoveryLeft: await r.storage.recoveryCodes.countUnused(user.id) } : undefined,
      keyRecoveryLeft:
        !app && (await r.storage.passkeys.hasSecondFactor(user.id))
          ? await r.storage.recoveryCodes.countUnused(user.id)
          : undefined,
      pending: await r.addresses.pendingChanges(user),
      notice: extra.notice,
      error: extra.error,
      values: extra.values,
      stepUp: owed
        ? {
            factors: factors
              .filter((f) => f.type === 'email' || f.type === 'sms')
              .map((f) => ({ channel: f.type as Channel, to: maskDestination(f.destination) })),
            app,
            started: extra.started,
            keys: (await keyCount(r, user.id)) > 0,
            keyStarted: extra.keyStarted,
          }
        : undefined,
      minLength: r.account().password_min_length,
      consents: await consentsOf(user.id),
      back: extra.back,
      enrolment: extra.enrolment,
      newCodes: extra.newCodes,
      leave: {
        deletion: r.account().self_service.account_deletion,
        graceDays: r.account().self_service.deletion_grace_days,
        codeSent: extra.codeSent,
      },
      signIns: await signInsView(r, user.id, who.session.id, who.language),
      profile: await profileView(r, user, extra.profileForm),
    });
    return sendRendered(reply, page);
  }

  /** 303 back to the page with a fixed notice (POST-redirect-GET: a reload posts nothing again). */
  function seeOther(reply: FastifyReply, notice: AccountNotice | null, back: AccountPageInput['back']) {
    const q = new URLSearchParams();
    if (notice) q.set('notice', notice);
    if (back) q.set('client_id', back.clientId);
    const query = q.toString();
    return reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .redirect(query ? `${ACCOUNT_PATH}?${query}` : ACCOUNT_PATH, 303);
  }

  /**
   * The checks every form post starts with: no field twice, the same origin and the CSRF token of the
   * pre-login cookie, then the live session (re-read). Null when already answered.
   */
  async function acceptPost(req: FastifyRequest, reply: FastifyReply): Promise<Accepted | null> {
    const { params, duplicates } = singleValued(req.body);
    const formOk =
      duplicates.length === 0 &&
      sameOriginPost(req, r.config.issuer) &&
      csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf);
    const who = await signedIn(req);
    if (!who) {
      sendRendered(reply, signedOutPage(pageLanguage(req)));
      return null;
    }
    const back = await backOf(params.client_id);
    if (!formOk) {
      await render(req, reply, who, 403, {
        back,
        error: { text: accountProblem(who.language, 'expired'), at: 'page' },
      });
      return null;
    }
    return { who, params, back };
  }

  /**
   * Runs a change after the self-service rate limit; a refusal is the page again with its message
   * beside the form (`at`), in the page's language, with what was typed (`extra`).
   */
  async function attempt(
    req: FastifyRequest,
    reply: FastifyReply,
    a: Accepted,
    at: AccountSection,
    extra: Extra,
    change: () => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    try {
      await r.limiter('self_service', req.ip, r.account().rate_limits.verification);
      return await change();
    } catch (e) {
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      const error = {
        text: accountErrorText(a.who.language, e, r.account().password_min_length),
        at: e.id === 'stepUpRequired' ? 'step_up' : e.id === 'accountDeletionDisabled' ? 'page' : at,
      };
      return render(req, reply, a.who, e.status, { ...extra, back: a.back, error });
    }
  }

  const requireFresh = (who: SignedIn) =>
    requireFreshStepUp(
      { storage: r.storage, now: r.clock.now() },
      { userId: who.session.userId, amr: who.session.amr, authTime: who.session.authTime },
    );

  app.get('/identity/v1/account', { schema: accountPageSchema }, async (req, reply) => {
    const who = await signedIn(req);
    if (!who) return sendRendered(reply, signedOutPage(pageLanguage(req)));
    const { params } = singleValued(req.query);
    const notice = isAccountNotice(params.notice) ? params.notice : undefined;
    return render(req, reply, who, 200, { notice, back: await backOf(params.client_id) });
  });

  // Withdrawing a consent ends the app's tokens of this user (docs/consent.md); no step-up: it only takes access away.
  app.post('/identity/v1/account/consents/revoke', { schema: accountConsentRevokeSchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    return attempt(req, reply, a, 'page', {}, async () => {
      const clientId = text(a.params.consent_client_id).slice(0, 128);
      const userId = a.who.session.user.id;
      const done = await r.storage.consents.revoke(userId, clientId, r.clock.now());
      if (done.revoked)
        await r.events.emit(
          'consent.revoked',
          { user_id: userId, client_id: clientId, revoked_grants: done.grants, by: 'account_page' },
          'the user withdrew a consent',
        );
      return seeOther(reply, null, a.back);
    });
  });

  app.post('/identity/v1/account/email', { schema: accountEmailSchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    return attempt(req, reply, a, 'email', { values: { email: text(a.params.email) } }, async () => {
      await requireFresh(a.who);
      await r.addresses.requestEmailChange(a.who.session.user, a.params.email, {
        clientId: ACCOUNT_PAGE_CLIENT,
        locale: a.who.messageLanguage,
      });
      return seeOther(reply, 'email_sent', a.back);
    });
  });

  app.post('/identity/v1/account/phone', { schema: accountPhoneSchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    return attempt(req, reply, a, 'phone', { values: { phone_number: text(a.params.phone_number) } }, async () => {
      await requireFresh(a.who);
      await r.addresses.requestPhoneChange(a.who.session.user, a.params.phone_number, a.who.messageLanguage);
      return seeOther(reply, 'phone_code_sent', a.back);
    });
  });

  // The code of a change asked for above (that request needed the step-up): like verify-phone-number.
  app.post('/identity/v1/account/phone/verify', { schema: accountPhoneVerifySchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    return attempt(req, reply, a, 'phone_code', {}, async () => {
      await r.addresses.verifyPhone(a.who.session.user, a.params.phone_number, a.params.verification_code);
      return seeOther(reply, 'phone_changed', a.back);
    });
  });

  app.post('/identity/v1/account/password', { schema: accountPasswordSchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    const { params, who } = a;
    if (
      typeof params.password === 'string' &&
      params.password !== '' &&
      params.password !== params.password_confirmation
    )
      return render(req, reply, who, 400, {
        back: a.back,
        error: { text: accountProblem(who.language, 'passwordsDiffer'), at: 'password' },
      });
    return attempt(req, reply, a, 'password', {}, async () => {
      const { user, id, amr, authTime } = who.session;
      // This session stays (with its grants); every other session and grant of the user ends.
      await changePassword(
        r,
        { user, keep: { session: id }, amr, authTime },
        { oldPassword: params.old_password, password: params.password },
      );
      return seeOther(reply, 'password_changed', a.back);
    });
  });

  // "Confirm it's you": a code to a verified factor (a new step-up, or a new code for the one started).
  app.post('/identity/v1/account/step-up', { schema: accountStepUpSchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    const { params, who } = a;
    const again = typeof params.step_up === 'string' ? params.step_up : undefined;
    return attempt(req, reply, a, 'step_up', {}, async () => {
      const channel = channelOf(params.auth_type);
      if (again) {
        const challengeId = await stepUp.resend(again, channel, who.messageLanguage);
        return render(req, reply, who, 200, { back: a.back, started: { stepUp: again, challengeId, channel } });
      }
      const started = await stepUp.start(who.session, channel, who.messageLanguage);
      return render(req, reply, who, 200, { back: a.back, started: { ...started, channel } });
    });
  });

  app.post('/identity/v1/account/step-up/verify', { schema: accountStepUpVerifySchema }, async (req, reply) => {
    const a = await acceptPost(req, reply);
    if (!a) return reply;
    const { params, who } = a;
    // A wrong code shows the same code form again (the same step-up and challenge, within their attempts).
    const channel: Channel | undefined =
      params.auth_type === 'sms' || params.auth_type === 'email' ? params.auth_type : undefined;
    const retry =
      typeof params.step_up === 'string' && typeof params.challenge_id === 'string' && channel
        ? { stepUp: params.step_up, challengeId: params.challenge_id, channel }
        : undefined;
    const strong = params.auth_type === 'totp' || params.auth_type === 'recovery_code' ? params.auth_type : null;
    return attempt(req, reply, a, 'step_up', { started: retry }, async () => {
      const cookie = strong
        ? await stepUp.confirmWithFactor(who.session, who.cookie, strong, params.verification_code, who.messageLanguage)
        : await stepUp.finish(who.session, who.cookie, params.challenge_id, params.verification_code);
      setSessionCookie(reply, cookie, r.account().session_ttl);
      return seeOther(reply, 'confirmed', a.back);
    });
  });

  // The authenticator app and recovery codes (account-app.ts), with this page's checks and answers.
  accountAppRoutes(app, r, { acceptPost, attempt, render, requireFresh, seeOther });
  // "Confirm it's you" with a security key or passkey (account-key.ts).
  accountKeyRoutes(app, r, { acceptPost, attempt, render, requireFresh, seeOther });
  // "Download my data" and "Delete my account" (account-leave.ts).
  accountLeaveRoutes(app, r, { signedIn, acceptPost, attempt, render, requireFresh });
  // "Where you're signed in": sessions, trusted devices, security events (account-sign-ins.ts).
  accountSignInsRoutes(app, r, { acceptPost, attempt, render, requireFresh, seeOther });
  // "Your profile": names, address, custom fields (account-profile.ts).
  accountProfileRoutes(app, r, { acceptPost, attempt, render, requireFresh, seeOther });
}

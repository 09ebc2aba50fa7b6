import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceLookup } from '../../resources/service.js';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { type Language, WardError } from '../../errors/ward-error.js';
import { hostedMessage } from '../../interaction/pages/hosted-messages.js';
import { CSRF_COOKIE, csrfToken, csrfValid, newCsrfCookie } from '../../interaction/csrf.js';
import { expiredFormPage } from '../../interaction/pages/expired.js';
import { secondFactorPage as renderSecondFactor } from '../../interaction/pages/second-factor.js';
import { consentPage as renderConsent } from '../../interaction/pages/consent.js';
import { enrolmentPage } from '../../interaction/pages/enrolment.js';
import { verifiedFactors } from '../../stepup/factors.js';
import type { BrowserState, Outcome } from '../../interaction/outcome.js';
import type { Interaction, InteractionService } from '../../interaction/service.js';
import { validateAuthorizeRequest } from '../../protocol/authorize/pipeline.js';
import type { RequestObjects } from '../../protocol/authorize/request-object.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizationResponse } from '../authorization-response.js';
import type { SecondFactorKeys, SecondFactorType } from '../../stepup/service.js';
import { sha256 } from '../../lib/secrets.js';
import { hostedCeremonies } from '../../passkeys/relying-party.js';
import { setSessionCookie } from '../cookies.js';
import { sendRendered } from '../pages.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import { singleValued } from '../../protocol/params.js';
import { TRUSTED_DEVICE_COOKIE } from './trusted-device.js';
import { sendReconsentPage } from './reconsent-page.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface HostedFormDeps {
  account: () => AccountSettings;
  clients: ClientService;
  /** The API resources a `resource` parameter may name (RFC 8707). */
  resources: ResourceLookup;
  /** Verifies signed request objects (RFC 9101) at /oauth/authorize. */
  requestObjects: RequestObjects;
  config: WardConfig;
  masterKey: Buffer;
  storage: Storage;
  /** The security keys that answer a second factor (absent: none is offered on the page). */
  passkeys?: Pick<SecondFactorKeys, 'secondFactorOptions'>;
}

// What the hosted pages (login form, second-factor form, confirmation, social) share: the browser's
// binding cookie, the checks every form post starts with, and how a sign-in's next step is answered.

/**
 * Whether a form post may come from Ward's own login page. The page is `Referrer-Policy: no-referrer`,
 * so browsers send `Origin: null` for its POST (Fetch, "append a request Origin header"): `null` means
 * "not said", not "foreign", and the CSRF token decides. A real foreign Origin, or Sec-Fetch-Site
 * other than same-origin, is refused.
 */
export function sameOriginPost(req: FastifyRequest, issuer: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== new URL(issuer).origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** Validates an authorization request; a refusal is thrown with what is known of the request (page or redirect). */
export async function validatedRequest(
  r: Pick<HostedFormDeps, 'clients' | 'resources'> & Partial<Pick<HostedFormDeps, 'requestObjects'>>,
  query: unknown,
  signed = false,
): Promise<AuthorizeRequest> {
  const { params, duplicates } = singleValued(query);
  const v = await validateAuthorizeRequest(params, duplicates, (id) => r.clients.find(id), r.resources, {
    requestObjects: r.requestObjects,
    signed,
  });
  if (!v.ok) throw v.error.at(v.partial);
  return v.req;
}

/**
 * The pre-login cookie (set now when the browser has none): it binds stored interactions to this
 * browser, and the forms' CSRF token is its HMAC (ASVS 7.6.2).
 */
export function browserCookie(req: FastifyRequest, reply: FastifyReply): string {
  let cookie = req.cookies[CSRF_COOKIE];
  if (!cookie || cookie.length > 100) {
    cookie = newCsrfCookie();
    req.cookies[CSRF_COOKIE] = cookie;
    reply.setCookie(CSRF_COOKIE, cookie, { path: '/', secure: true, httpOnly: true, sameSite: 'lax' });
  }
  return cookie;
}

/** The form token of a hosted page, bound to the pre-login cookie. */
export function ensureCsrf(r: Pick<HostedFormDeps, 'masterKey'>, req: FastifyRequest, reply: FastifyReply): string {
  return csrfToken(r.masterKey, browserCookie(req, reply));
}

/** A hosted form whose interaction is gone: in the language of its request when known, else Accept-Language. */
export const expiredPage = (req: FastifyRequest, reply: FastifyReply, request?: AuthorizeRequest): FastifyReply =>
  sendRendered(reply, expiredFormPage(pageLanguage(req, request)));

/**
 * The checks every hosted-page POST starts with: no parameter twice, the same origin, the CSRF token
 * of the pre-login cookie, then the stored interaction the form names, bound to this browser.
 * Null when already answered.
 */
export async function acceptHostedPost(
  r: Pick<HostedFormDeps, 'config' | 'masterKey'>,
  interactions: InteractionService,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ params: Record<string, unknown>; interaction: Interaction; handle: string } | null> {
  const { params, duplicates } = singleValued(req.body);
  const cookie = req.cookies[CSRF_COOKIE];
  if (duplicates.length || !sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, cookie, params.csrf)) {
    expiredPage(req, reply);
    return null;
  }
  const interaction = await interactions.open(params.interaction, cookie);
  if (!interaction) {
    expiredPage(req, reply);
    return null;
  }
  return { params, interaction, handle: params.interaction as string };
}

/** The stored interaction a hosted page's GET names (`?interaction=`), bound to this browser and at its login step. */
export async function interactionAtLogin(
  interactions: InteractionService,
  req: FastifyRequest,
): Promise<{ handle: string; interaction: Interaction } | null> {
  const handle = (req.query as Record<string, unknown>).interaction;
  const interaction = await interactions.open(handle, req.cookies[CSRF_COOKIE]);
  return interaction?.step === 'login' ? { handle: handle as string, interaction } : null;
}

/**
 * The browser state a sign-in's next step reads (the binding cookie is set only if an interaction is
 * stored). Its language is the one rule's, given the user's stored locale once the next step knows the
 * user: ui_locales, then that locale, then Accept-Language, then the account's default.
 */
export function browserState(
  req: FastifyRequest,
  reply: FastifyReply,
  request: Pick<AuthorizeRequest, 'uiLocales'>,
): BrowserState {
  return {
    sessionCookie: req.cookies[SESSION_COOKIE],
    trustedDeviceCookie: req.cookies[TRUSTED_DEVICE_COOKIE],
    bind: () => browserCookie(req, reply),
    language: (userLocale) => requestLanguage(req, { uiLocales: request.uiLocales, userLocale }),
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  };
}

/** How a refused code request or verification reads on the second-factor page. */
export function secondFactorMessage(e: unknown, language: Language = 'en'): string | null {
  if (!(e instanceof WardError)) return null;
  if (e.status === 429) return hostedMessage(language, 'tooManyCodes');
  if (e.error === 'invalid_grant') return hostedMessage(language, 'wrongCode');
  return e.userMessage(language);
}

/** The hosted second-factor page of an interaction at its `mfa` step. */
export async function secondFactorPage(
  r: Pick<HostedFormDeps, 'masterKey' | 'storage' | 'passkeys'> & Partial<Pick<HostedFormDeps, 'account' | 'config'>>,
  req: FastifyRequest,
  reply: FastifyReply,
  at: { handle: string; interaction: Interaction; stepUp: string; channel: SecondFactorType },
  status: number,
  extra: { challengeId?: string; notice?: string; error?: string },
): Promise<FastifyReply> {
  const userId = at.interaction.userId;
  const channels: SecondFactorType[] = userId ? (await verifiedFactors(r.storage, userId)).map((c) => c.type) : [];
  // A recovery code is typed on the page of another factor (the authenticator app's, else the key's).
  let channel = at.channel === 'recovery_code' ? (channels.includes('totp') ? 'totp' : 'webauthn') : at.channel;
  let recovery = !!userId && channels.includes('totp') && (await r.storage.recoveryCodes.countUnused(userId)) > 0;
  // A registered security key or passkey answers too (when passkeys are on), its options bound to this step-up.
  let webauthnOptions: unknown;
  // Not after a passkey sign-in: the same key twice is one factor.
  const keyed =
    !!userId &&
    !!r.passkeys &&
    !!r.account &&
    !!r.config &&
    !at.interaction.amr?.includes('webauthn') &&
    hostedCeremonies(r.account(), r.config.issuer);
  if (keyed && (await r.storage.passkeys.listOfUser(userId)).length > 0) {
    channels.unshift('webauthn');
    // Recovery codes come with an app, or with a key registered at a required enrolment.
    recovery ||= (await r.storage.recoveryCodes.countUnused(userId)) > 0;
    if (channel === 'webauthn')
      webauthnOptions = await r.passkeys!.secondFactorOptions(userId, {
        clientId: at.interaction.request.client.client_id,
        origin: new URL(r.config!.issuer).origin,
        stepUpDigest: sha256(at.stepUp),
      });
  } else if (channel === 'webauthn') channel = channels.find((c) => c !== 'recovery_code') ?? 'email';
  return sendRendered(
    reply,
    renderSecondFactor(status, {
      clientName: at.interaction.request.client.name,
      interaction: at.handle,
      csrf: ensureCsrf(r, req, reply),
      stepUp: at.stepUp,
      challengeId: extra.challengeId ?? '',
      channel: channel as Exclude<SecondFactorType, 'recovery_code'>,
      channels: [...new Set([channel, ...channels])].filter((c) => c !== 'recovery_code'),
      webauthnOptions,
      recovery,
      target: at.interaction.request.target,
      notice: extra.notice,
      error: extra.error,
      language: pageLanguage(req, at.interaction.request),
    }),
  );
}

/** The consent page of a third-party client, for an interaction at its `consent` step. */
export async function consentPage(
  r: Pick<HostedFormDeps, 'masterKey' | 'storage'>,
  req: FastifyRequest,
  reply: FastifyReply,
  at: { handle: string; interaction: Interaction },
): Promise<FastifyReply> {
  const { request, userId } = at.interaction;
  const user = userId ? await r.storage.users.findById(userId) : undefined;
  return sendRendered(
    reply,
    renderConsent({
      client: request.client,
      scopes: request.scopes,
      who: user?.email ?? user?.phone_number ?? userId ?? '',
      interaction: at.handle,
      csrf: ensureCsrf(r, req, reply),
      target: request.target,
      language: pageLanguage(req, request),
      device: !!request.device,
    }),
  );
}

/** The page of a required second factor's enrolment (interaction/enrolment.ts), at the `enrol` step. */
export function enrolPage(
  r: Pick<HostedFormDeps, 'masterKey'>,
  req: FastifyRequest,
  reply: FastifyReply,
  at: Pick<Extract<Outcome, { kind: 'enrol' }>, 'handle' | 'interaction' | 'totp' | 'skipsLeft' | 'channels' | 'keys'>,
  status: number,
  error?: string,
  sent?: { channel: 'email' | 'sms'; to: string },
  keyOptions?: unknown,
): FastifyReply {
  const { request } = at.interaction;
  return sendRendered(
    reply,
    enrolmentPage(status, {
      clientName: request.client.name,
      interaction: at.handle,
      csrf: ensureCsrf(r, req, reply),
      target: request.target,
      language: pageLanguage(req, request),
      totp: at.totp,
      skipsLeft: at.skipsLeft,
      channels: at.channels,
      keys: at.keys,
      keyOptions,
      sent,
      error,
    }),
  );
}

/**
 * Answers what a sign-in's next step decided: the second-factor page, the consent page, the enrolment
 * page, the consents to accept again, the authorization response
 * (a POST ends with 303, so the browser never re-posts credentials: RFC 9700 4.12), or the expired page.
 */
export async function answerOutcome(
  r: Pick<HostedFormDeps, 'account' | 'config' | 'masterKey' | 'storage' | 'passkeys'>,
  req: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome,
): Promise<FastifyReply> {
  if (outcome.kind === 'expired') return expiredPage(req, reply, outcome.request);
  if (outcome.kind === 'second_factor') {
    const noMessage = outcome.channel === 'totp' || outcome.channel === 'webauthn';
    if (outcome.challengeId !== null || (noMessage && outcome.error === undefined))
      return secondFactorPage(r, req, reply, outcome, 200, { challengeId: outcome.challengeId ?? '' });
    const msg = secondFactorMessage(outcome.error, pageLanguage(req, outcome.interaction.request));
    if (!msg) throw outcome.error;
    const status = outcome.error instanceof WardError ? outcome.error.status : 500;
    return secondFactorPage(r, req, reply, outcome, status, { error: msg });
  }
  if (outcome.kind === 'enrol') return enrolPage(r, req, reply, outcome, 200);
  if (outcome.kind === 'reconsent') return sendReconsentPage(r, req, reply, outcome, ensureCsrf(r, req, reply));
  if (outcome.sessionCookie) setSessionCookie(reply, outcome.sessionCookie, r.account().session_ttl);
  if (outcome.kind === 'consent') return consentPage(r, req, reply, outcome);
  return sendAuthorizationResponse(
    reply,
    outcome.request,
    r.config.issuer,
    outcome.values,
    req.method === 'POST' ? 303 : 302,
  );
}

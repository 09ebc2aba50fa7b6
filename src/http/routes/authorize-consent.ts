import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { consentFormSchema } from './schemas/authorize.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import { WardError } from '../../errors/ward-error.js';
import { confirmPage } from '../../interaction/pages/confirm.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizationResponse } from '../authorization-response.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import type { SignInDeps } from '../sign-in.js';
import { acceptHostedPost, answerOutcome, browserState, ensureCsrf, expiredPage } from './hosted-form.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Storage } from '../../storage/storage.js';
import type { Interaction } from '../../interaction/service.js';
import type { Clock } from '../../lib/clock.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeConsentDeps {
  account: () => AccountSettings;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  masterKey: Buffer;
  sessions: SessionService;
  storage: Storage;
  users: UserService;
}

/**
 * A question before anything is issued or signed in from what the browser did not ask for itself:
 * Messenger linking from an SSO cookie (`confirmPage`, ML-05, linking CSRF: "Link your Messenger
 * account to <client>?") and a tkn opened in another browser (`signInConfirmPage`, login CSRF:
 * "Sign in to <client> on this device?"). The answer comes to /oauth/authorize/consent.
 */
export function confirmationPage(
  r: Pick<AuthorizeConsentDeps, 'masterKey'>,
  req: FastifyRequest,
  reply: FastifyReply,
  at: { handle: string; request: AuthorizeRequest },
  who: string,
  page: typeof confirmPage = confirmPage,
): FastifyReply {
  const csrf = ensureCsrf(r, req, reply);
  const { client, target } = at.request;
  const language = pageLanguage(req, at.request);
  return sendRendered(reply, page({ clientName: client.name, interaction: at.handle, csrf, who, target, language }));
}

/**
 * The answer to the confirmation, and the Cancel button of the login page: cancelling sends the
 * client (Messenger included) its error=access_denied and no code (ML-04).
 */
export function consentRoutes(app: WardApp, r: AuthorizeConsentDeps, deps: SignInDeps): void {
  const { interactions, nextStep } = deps;
  app.post('/oauth/authorize/consent', { schema: consentFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction } = accepted;
    const ar = interaction.request;
    if (params.decision !== 'allow') {
      if (!(await interactions.finish(interaction))) return expiredPage(req, reply, ar);
      const who = interaction.userId ? { user_id: interaction.userId } : {};
      const reason = interaction.step === 'consent' ? 'the user denied consent' : 'the user cancelled';
      await r.events.emit('authorize.denied', { client_id: ar.client.client_id, ...who }, reason);
      // A device's sign-in: its request is denied (the device's next poll gets access_denied).
      if (ar.device) {
        const denied = await r.storage.deviceAuthorizations.deny(ar.device, interaction.userId, r.clock.now());
        return sendAuthorizationResponse(reply, ar, r.config.issuer, { device: denied ? 'denied' : 'expired' });
      }
      throw new WardError('authorizeAccessDenied', {
        description: 'The user cancelled',
        authorizeRequest: ar,
        redirectStatus: 303,
      });
    }
    if (interaction.step === 'tkn') {
      // A tkn's sign-in, confirmed in this browser: it goes on as if the tkn had been bound to it.
      const user = interaction.userId ? await r.users.find(interaction.userId) : undefined;
      if (!user || user.disabled || !interaction.amr || interaction.authTime === null)
        return expiredPage(req, reply, ar);
      // A tkn's sign-in was recorded where the tkn was issued (method null: not again).
      const who = { user, amr: interaction.amr, authTime: interaction.authTime, method: null };
      return answerOutcome(
        r,
        req,
        reply,
        await nextStep.afterFirstFactor(interaction, who, browserState(req, reply, interaction.request)),
      );
    }
    if (interaction.step === 'consent') return consented(r, req, reply, deps, interaction);
    // Only the confirmation page's interaction is allowed through, in the session it was shown for.
    if (interaction.step !== 'confirm') return expiredPage(req, reply, ar);
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    const user = session?.user;
    if (!session || !user || user.disabled) {
      throw new WardError('authorizeLoginRequired', { description: 'The session has ended', authorizeRequest: ar });
    }
    if (!(await interactions.finish(interaction))) return expiredPage(req, reply, ar);
    const values = await nextStep.fromSession(ar, { ...session, user });
    return sendAuthorizationResponse(reply, ar, r.config.issuer, values, 303);
  });
}

/**
 * Allow on a third-party client's consent page: the scopes it asked are remembered for this user
 * (consent.granted), then the code is issued in the session the sign-in started (the page was shown
 * to the user of that session only).
 */
async function consented(
  r: AuthorizeConsentDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  deps: SignInDeps,
  interaction: Interaction,
): Promise<FastifyReply> {
  const ar = interaction.request;
  const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
  const user = session?.user;
  if (!session || !user || user.disabled || user.id !== interaction.userId) {
    throw new WardError('authorizeLoginRequired', { description: 'The session has ended', authorizeRequest: ar });
  }
  if (!(await deps.interactions.finish(interaction))) return expiredPage(req, reply, ar);
  const clientId = ar.client.client_id;
  // A first-party client's device approval grants no consent to remember (it never asks one).
  if (!ar.device || !ar.client.first_party) {
    const granted = await r.storage.consents.grant(user.id, clientId, ar.scopes, r.clock.now());
    await r.events.emit(
      'consent.granted',
      { client_id: clientId, user_id: user.id, scopes: ar.scopes, granted },
      'the user granted scopes to a third-party client',
    );
  }
  const values = await deps.nextStep.fromSession(ar, { ...session, user });
  if (ar.device)
    await r.events.emit(
      values.device === 'approved' ? 'device.approved' : 'device.approval_expired',
      { client_id: clientId, user_id: user.id, device_authorization: ar.device, scopes: ar.scopes },
      values.device === 'approved' ? 'the user approved a device (RFC 8628)' : 'a device approval came too late',
    );
  return sendAuthorizationResponse(reply, ar, r.config.issuer, values, 303);
}

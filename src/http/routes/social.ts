import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest, notFound } from '../../errors/api-error.js';
import { AuthorizeError } from '../../errors/oauth-error.js';
import { CSRF_COOKIE, csrfValid } from '../../flows/login/csrf.js';
import { formActionSource } from '../../flows/login/page.js';
import type { SocialService } from '../../flows/social/service.js';
import { stepUpRequiredAtLogin } from '../../flows/stepup/factors.js';
import { randomToken } from '../../lib/random.js';
import { completeAuthorization } from '../../protocol/authorize/complete.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizeError } from '../../protocol/authorize/respond.js';
import { verifyBearer } from '../../protocol/bearer.js';
import type { Registry } from '../../registry.js';
import type { User } from '../../storage/sql/users.js';
import { escapeHtml, sendPage } from '../pages.js';
import { requireSingle, singleValued } from '../params.js';
import { ensureCsrf, queryParams, sameOriginPost, startLoginSession, validateOrAnswer } from './hosted-form.js';
import { TRUSTED_DEVICE_COOKIE, isTrustedDevice } from './trusted-device.js';

/** Binds a social login to the browser that started it (SameSite=Lax: sent on the provider's redirect back). */
const SOCIAL_COOKIE = '__Host-ward_social';

type MfaBegin = (
  req: FastifyRequest,
  reply: FastifyReply,
  ar: AuthorizeRequest,
  rawQuery: string,
  user: User,
  baseAmr: string[],
) => Promise<FastifyReply>;

/** Social login: the start from /oauth/authorize, the provider's callback, the link page, unlink. */
export function socialRoutes(app: FastifyInstance, r: Registry, social: SocialService, mfaBegin: MfaBegin) {
  const expired = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      'Sign-in expired',
      '<h1>This sign-in has expired or did not start here</h1><p>Go back to the application and start again.</p>',
    );

  /** After the provider: the MFA policy still applies, then a session and the authorization. */
  async function finish(req: FastifyRequest, reply: FastifyReply, request: string, user: User, amr: string[]) {
    const ar = await validateOrAnswer(r, reply, queryParams(request));
    if (!ar) return reply;
    if (
      (await stepUpRequiredAtLogin(r.storage, r.account(), user.id)) &&
      !(await isTrustedDevice(r, req.cookies[TRUSTED_DEVICE_COOKIE], user.id))
    ) {
      return mfaBegin(req, reply, ar, request, user, amr);
    }
    const authTime = r.clock.now();
    const sessionId = await startLoginSession(r, req, reply, user.id, amr, authTime);
    await completeAuthorization(r, reply, ar, { user, sessionId, authTime, amr }, req.method === 'POST' ? 303 : 302);
    return reply;
  }

  function linkPage(
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    p: { linkToken: string; email: string; provider: string; target: string | null; error?: string },
  ) {
    const label = social.providers().find((x) => x.name === p.provider)?.label ?? p.provider;
    return sendPage(
      reply,
      status,
      'Link your account',
      `<h1>You already have an account</h1><p>An account exists for ${escapeHtml(p.email)}. Enter its password to link your ${escapeHtml(label)} sign-in to it.</p>${p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : ''}
<form method="post" action="/identity/v1/oauth/link"><input type="hidden" name="link_token" value="${escapeHtml(p.linkToken)}"><input type="hidden" name="csrf" value="${escapeHtml(ensureCsrf(r, req, reply))}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required><button type="submit">Link and sign in</button></form>`,
      { formAction: formActionSource(p.target) },
    );
  }

  /** Called by /oauth/authorize when `provider` is given. */
  async function start(
    reply: FastifyReply,
    ar: AuthorizeRequest,
    rawQuery: string,
    provider: unknown,
  ): Promise<FastifyReply> {
    if (!social.has(provider))
      return sendAuthorizeError(
        reply,
        new AuthorizeError('invalid_request', 'Unknown provider', true),
        ar,
        r.config.issuer,
      );
    const browser = randomToken(24);
    const url = await social.begin(provider, ar.client.client_id, rawQuery, browser).catch(() => null);
    if (!url)
      return sendAuthorizeError(
        reply,
        new AuthorizeError('server_error', 'The identity provider cannot be reached', true),
        ar,
        r.config.issuer,
      );
    reply.setCookie(SOCIAL_COOKIE, browser, { path: '/', secure: true, httpOnly: true, sameSite: 'lax', maxAge: 600 });
    return reply
      .code(302)
      .header('Location', url)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  }

  app.get<{ Params: { name: string } }>('/identity/v1/oauth/callback/:name', async (req, reply) => {
    const { params } = singleValued(req.query);
    const outcome = await social.callback(req.params.name, params, req.cookies[SOCIAL_COOKIE]);
    reply.clearCookie(SOCIAL_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'lax' });
    if (outcome.kind === 'bad_state') return expired(reply);
    if (outcome.kind === 'refused') {
      const ar = await validateOrAnswer(r, reply, queryParams(outcome.request));
      if (!ar) return reply;
      return sendAuthorizeError(
        reply,
        new AuthorizeError(outcome.error, outcome.description, true),
        ar,
        r.config.issuer,
      );
    }
    if (outcome.kind === 'link') {
      const ar = await validateOrAnswer(r, reply, queryParams(outcome.request));
      if (!ar) return reply;
      return linkPage(req, reply, 200, {
        linkToken: outcome.linkToken,
        email: outcome.email,
        provider: outcome.provider,
        target: ar.target,
      });
    }
    return finish(req, reply, outcome.request, outcome.user, ['social', outcome.provider]);
  });

  app.post('/identity/v1/oauth/link', async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    if (
      duplicates.length ||
      !sameOriginPost(req, r.config.issuer) ||
      !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf)
    )
      return expired(reply);
    const done = await social.confirmLink(params.link_token, params.password);
    if (!done) {
      const pending = await social.pendingLink(params.link_token);
      if (!pending) return expired(reply);
      const ar = await validateOrAnswer(r, reply, queryParams(pending.request));
      if (!ar) return reply;
      return linkPage(req, reply, 401, {
        linkToken: params.link_token as string,
        email: pending.email,
        provider: pending.provider,
        target: ar.target,
        error: 'The password is incorrect.',
      });
    }
    return finish(req, reply, done.request, done.user, ['pwd', 'social', done.provider]);
  });

  app.post('/identity/v1/unlink', async (req, reply) => {
    const body = requireSingle(req.body ?? {}, !!req.headers['content-type']?.startsWith('application/json'));
    const ctx = await verifyBearer(r, req.headers.authorization);
    const identities = await r.storage.identities.listOfUser(ctx.user.id);
    const target = identities.find((i) => i.id === body.identity_id || i.provider === body.provider);
    if (body.identity_id === undefined && body.provider === undefined)
      throw invalidRequest('identity_id or provider is required');
    if (!target) throw notFound('No such linked identity');
    await r.storage.identities.delete(target.id, ctx.user.id);
    return reply.code(204).send();
  });

  return { start };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { AuthorizeError } from '../../errors/oauth-error.js';
import { formActionSource } from '../../flows/login/page.js';
import { completeAuthorization } from '../../protocol/authorize/complete.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizeError } from '../../protocol/authorize/respond.js';
import type { Registry } from '../../registry.js';
import { escapeHtml, sendPage } from '../pages.js';
import { acceptHostedPost, ensureCsrf } from './hosted-form.js';

/**
 * Messenger linking never issues a code silently from an SSO cookie (ML-05, linking CSRF): the user
 * first sees "Link your Messenger account to <client>?" and chooses. Cancelling (here or on the
 * login page) sends Messenger back its URL with error=access_denied and no code (ML-04).
 */
export function consentRoutes(app: FastifyInstance, r: Registry) {
  function page(
    req: FastifyRequest,
    reply: FastifyReply,
    ar: AuthorizeRequest,
    rawQuery: string,
    who: string,
  ): FastifyReply {
    const hidden = `<input type="hidden" name="request" value="${escapeHtml(rawQuery)}"><input type="hidden" name="csrf" value="${escapeHtml(ensureCsrf(r, req, reply))}">`;
    return sendPage(
      reply,
      200,
      'Link your Messenger account',
      `<h1>Link your Messenger account to ${escapeHtml(ar.client.name)}?</h1><p>You are signed in as ${escapeHtml(who)}. ${escapeHtml(ar.client.name)} will know your name and email address.</p>
<form method="post" action="/oauth/authorize/consent">${hidden}<button type="submit" name="decision" value="allow">Link my account</button></form>
<form method="post" action="/oauth/authorize/consent">${hidden}<button type="submit" name="decision" value="deny">Cancel</button></form>`,
      { formAction: formActionSource(ar.target) },
    );
  }

  app.post('/oauth/authorize/consent', async (req, reply) => {
    const accepted = await acceptHostedPost(r, req, reply);
    if (!accepted) return reply;
    const { params, ar } = accepted;
    if (params.decision !== 'allow') {
      await r.events.emit('authorize.denied', { client_id: ar.client.client_id }, 'the user cancelled');
      return sendAuthorizeError(
        reply,
        new AuthorizeError('access_denied', 'The user cancelled', true),
        ar,
        r.config.issuer,
        303,
      );
    }
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    const user = session?.user;
    if (!session || !user || user.disabled)
      return sendAuthorizeError(
        reply,
        new AuthorizeError('login_required', 'The session has ended', true),
        ar,
        r.config.issuer,
      );
    await completeAuthorization(
      r,
      reply,
      ar,
      { user, sessionId: session.id, authTime: session.authTime, amr: session.amr },
      303,
    );
    return reply;
  });

  return { page };
}

import type { FastifyReply } from 'fastify';
import { WardError } from '../../errors/ward-error.js';
import type { SocialService } from '../../social/service.js';
import type { Interaction } from '../../interaction/service.js';
import { randomToken } from '../../lib/random.js';

/** Binds a social login to the browser that started it (SameSite=Lax: sent on the provider's redirect back). */
export const SOCIAL_COOKIE = '__Host-ward_social';

/** Sends the user to the provider for a stored interaction (from /oauth/authorize or the login page's button). */
export async function startSocialLogin(
  social: SocialService,
  reply: FastifyReply,
  interaction: Interaction,
  provider: string,
): Promise<FastifyReply> {
  const browser = randomToken(24);
  const ar = interaction.request;
  const url = await social.begin(provider, ar.client.client_id, interaction.digest, browser).catch(() => null);
  if (!url) throw new WardError('authorizeServerError', { authorizeRequest: ar });
  reply.setCookie(SOCIAL_COOKIE, browser, { path: '/', secure: true, httpOnly: true, sameSite: 'lax', maxAge: 600 });
  return reply
    .code(302)
    .header('Location', url)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send();
}

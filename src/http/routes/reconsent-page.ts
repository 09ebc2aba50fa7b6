import type { FastifyReply, FastifyRequest } from 'fastify';
import { renewalText } from '../../accounts/consent-renewal.js';
import type { ConsentDefinitionSetting } from '../../config/types.js';
import { reconsentPage } from '../../interaction/pages/reconsent.js';
import type { Interaction } from '../../interaction/service.js';
import type { Storage } from '../../storage/storage.js';
import { pageLanguage } from '../page-language.js';
import { sendRendered } from '../pages.js';

/**
 * The page of the consents to accept again (interaction/reconsent.ts), for an interaction at its
 * `reconsent` or `reconsent_session` step, in the request's language. `refused`: shown again because
 * a required one was left unchecked (its boxes as they were posted).
 */
export async function sendReconsentPage(
  r: { storage: Pick<Storage, 'users'> },
  req: FastifyRequest,
  reply: FastifyReply,
  at: { handle: string; interaction: Interaction; consents: readonly ConsentDefinitionSetting[] },
  csrf: string,
  again?: { status: number; checked: ReadonlySet<string> },
): Promise<FastifyReply> {
  const { request, userId } = at.interaction;
  const user = userId ? await r.storage.users.findById(userId) : undefined;
  const language = pageLanguage(req, request);
  const consents = at.consents.map((d) => renewalText(d, language));
  const checked = again?.checked ?? new Set<string>();
  return sendRendered(
    reply,
    reconsentPage(again?.status ?? 200, {
      clientName: request.client.name,
      who: user?.email ?? user?.phone_number ?? userId ?? '',
      consents,
      checked,
      refused: again && consents.filter((c) => c.required && !checked.has(c.key)).map((c) => c.title),
      interaction: at.handle,
      csrf,
      target: request.target,
      language,
    }),
  );
}

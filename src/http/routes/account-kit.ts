// What the hosted account page's routes share (account.ts builds it and hands it to the modules that
// add sections to the page: account-app.ts, account-leave.ts): the checks of a post and its answers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountPageInput, AccountSection } from '../../interaction/pages/account.js';
import type { Params } from '../../protocol/params.js';
import type { User } from '../../storage/sql/users.js';
import type { Language } from '../../errors/ward-error.js';

/** The signed-in user of a post, as account.ts reads it (what the section modules use of it). */
export interface AccountWho {
  session: { user: User };
  /** The language of the page (as far as Ward speaks it). */
  language: Language;
  messageLanguage: string;
}

/** A post that passed the page's checks. */
export interface AccountPost<W extends AccountWho> {
  who: W;
  params: Params;
  back: AccountPageInput['back'];
}

/** The page's checks and answers, `Extra` being what a section adds to the page it renders. */
export interface AccountKit<W extends AccountWho, Extra> {
  acceptPost(req: FastifyRequest, reply: FastifyReply): Promise<AccountPost<W> | null>;
  attempt(
    req: FastifyRequest,
    reply: FastifyReply,
    a: AccountPost<W>,
    at: AccountSection,
    extra: Extra,
    change: () => Promise<FastifyReply>,
  ): Promise<FastifyReply>;
  render(req: FastifyRequest, reply: FastifyReply, who: W, status: number, extra: Extra): Promise<FastifyReply>;
  requireFresh(who: W): Promise<void>;
}

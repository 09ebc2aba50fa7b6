import type { FastifyReply } from 'fastify';
import type { WardApp } from '../typed-app.js';
import type { AccountNotice } from '../../interaction/pages/account-text.js';
import type { AccountPageInput } from '../../interaction/pages/account.js';
import type { StrongFactors } from '../../stepup/strong-factors.js';
import { accountFormSchema } from './schemas/account.js';
import type { AccountKit, AccountWho } from './account-kit.js';

type Who = AccountWho;

type AppExtra = Pick<AccountPageInput, 'back' | 'enrolment' | 'newCodes'>;

/** What the account page's routes share (account.ts): the checks of a post, its answers. */
export interface AccountPageKit<W extends Who> extends AccountKit<W, AppExtra> {
  seeOther(reply: FastifyReply, notice: AccountNotice | null, back: AccountPageInput['back']): FastifyReply;
}

const PATH = '/identity/v1/account';

/**
 * The account page's authenticator app (docs/mfa.md): set it up (the QR code and key shown on the page
 * answered, never stored in the page's URL), turn it on with a first code (its recovery codes shown
 * once), remove it, make new recovery codes. Each change needs "Confirm it's you" once the user has a
 * factor, like the other changes of the page.
 */
export function accountAppRoutes<W extends Who>(
  app: WardApp,
  r: { strongFactors: StrongFactors },
  page: AccountPageKit<W>,
): void {
  app.post(
    `${PATH}/app`,
    { schema: accountFormSchema('the account page: set up an authenticator app') },
    async (req, reply) => {
      const a = await page.acceptPost(req, reply);
      if (!a) return reply;
      return page.attempt(req, reply, a, 'app', {}, async () => {
        await page.requireFresh(a.who);
        const started = await r.strongFactors.startTotp(a.who.session.user);
        return page.render(req, reply, a.who, 200, { back: a.back, enrolment: { ...started } });
      });
    },
  );

  app.post(
    `${PATH}/app/verify`,
    { schema: accountFormSchema('the account page: the first code of the app') },
    async (req, reply) => {
      const a = await page.acceptPost(req, reply);
      if (!a) return reply;
      return page.attempt(req, reply, a, 'app', {}, async () => {
        await page.requireFresh(a.who);
        const { recoveryCodes } = await r.strongFactors.confirmTotp(
          a.who.session.user,
          a.params.verification_code,
          a.who.messageLanguage,
        );
        return page.render(req, reply, a.who, 200, { back: a.back, newCodes: recoveryCodes ?? undefined });
      });
    },
  );

  app.post(
    `${PATH}/app/remove`,
    { schema: accountFormSchema('the account page: remove the app') },
    async (req, reply) => {
      const a = await page.acceptPost(req, reply);
      if (!a) return reply;
      return page.attempt(req, reply, a, 'app', {}, async () => {
        await page.requireFresh(a.who);
        await r.strongFactors.removeTotp(a.who.session.user, a.who.messageLanguage);
        return page.seeOther(reply, 'app_removed', a.back);
      });
    },
  );

  app.post(
    `${PATH}/recovery-codes`,
    { schema: accountFormSchema('the account page: new recovery codes') },
    async (req, reply) => {
      const a = await page.acceptPost(req, reply);
      if (!a) return reply;
      return page.attempt(req, reply, a, 'app', {}, async () => {
        await page.requireFresh(a.who);
        const codes = await r.strongFactors.regenerateRecoveryCodes(a.who.session.user);
        return page.render(req, reply, a.who, 200, { back: a.back, newCodes: codes });
      });
    },
  );
}

import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { exportUser } from '../../accounts/data-export.js';
import type { SignInProtection } from '../../accounts/sign-in-protection.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings } from '../../config/types.js';
import { accountLeftPage, DATA_PATH } from '../../interaction/pages/account-leave.js';
import type { AccountPageInput } from '../../interaction/pages/account.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import { type AccountDeletion, deletionAddressOf } from '../../self-service/account-deletion.js';
import type { Storage } from '../../storage/storage.js';
import type { Language } from '../../errors/ward-error.js';
import { clearSessionCookie } from '../cookies.js';
import { sendRendered } from '../pages.js';
import { accountDataSchema, accountDeleteSchema, accountFormSchema } from './schemas/account.js';
import type { AccountKit, AccountWho } from './account-kit.js';

/** The signed-in user of a post, as account.ts reads it (what this module uses of it). */
interface Who extends AccountWho {
  language: Language;
}

type LeaveExtra = Pick<AccountPageInput, 'back'> & { codeSent?: 'email' | 'sms' };

/** What the account page's routes share (account.ts): the checks of a post, its answers. */
export interface AccountLeaveKit<W extends Who> extends AccountKit<W, LeaveExtra> {
  signedIn(req: FastifyRequest): Promise<W | null>;
}

export interface AccountLeaveDeps {
  account: () => AccountSettings;
  accountDeletion: AccountDeletion;
  clock: Clock;
  events: SecurityEvents;
  limiter: Limiter;
  storage: Storage;
  users: { protection: SignInProtection };
}

const PATH = '/identity/v1/account';

/**
 * The account page's "Download my data" (GDPR article 20: the same JSON as the management API's
 * export of one user) and "Delete my account" (article 17: self-service/account-deletion.ts). Both
 * need "Confirm it's you" first when the user has a second factor, like the page's other changes.
 */
export function accountLeaveRoutes<W extends Who>(app: WardApp, r: AccountLeaveDeps, page: AccountLeaveKit<W>): void {
  app.get(DATA_PATH, { schema: accountDataSchema }, async (req, reply) => {
    const who = await page.signedIn(req);
    if (!who) return reply.code(303).header('Cache-Control', 'no-store').redirect(PATH, 303);
    await r.limiter('self_service', req.ip, r.account().rate_limits.verification);
    await page.requireFresh(who);
    const u = who.session.user;
    const now = r.clock.now();
    const out = await exportUser({ storage: r.storage, protection: r.users.protection, now }, u);
    await r.events.emit('account.data_exported', { user_id: u.id }, 'the user downloaded their data');
    const day = new Date(now).toISOString().slice(0, 10);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="my-data-${day}.json"`)
      .send(JSON.stringify(out, null, 2));
  });

  // A user without a password confirms with a code sent to their address.
  app.post(
    `${PATH}/delete/code`,
    { schema: accountFormSchema('the account page: a code to delete the account (no password)') },
    async (req, reply) => {
      const a = await page.acceptPost(req, reply);
      if (!a) return reply;
      return page.attempt(req, reply, a, 'delete', {}, async () => {
        await page.requireFresh(a.who);
        const sent = await r.accountDeletion.sendCode(a.who.session.user, a.who.messageLanguage);
        return page.render(req, reply, a.who, 200, { back: a.back, codeSent: sent.channel });
      });
    },
  );

  app.post(`${PATH}/delete`, { schema: accountDeleteSchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    const u = a.who.session.user;
    // A wrong code keeps the code form (the code sent still works, within its attempts).
    const codeSent = u.password_hash ? undefined : deletionAddressOf(u)?.channel;
    return page.attempt(req, reply, a, 'delete', { codeSent }, async () => {
      await page.requireFresh(a.who);
      const { dueAt } = await r.accountDeletion.request(
        u,
        { password: a.params.password, code: a.params.verification_code, confirmed: a.params.confirm === 'yes' },
        a.who.messageLanguage,
      );
      clearSessionCookie(reply);
      return sendRendered(reply, accountLeftPage(a.who.language, dueAt));
    });
  });
}

import type { WardApp } from '../typed-app.js';
import type { AccountPageInput } from '../../interaction/pages/account.js';
import type { AccountStepUp } from '../../self-service/account-step-up.js';
import { authenticationResponse } from '../../passkeys/wire.js';
import { invalidField } from '../../errors/refusals.js';
import { setSessionCookie } from '../cookies.js';
import { accountKeySchema, accountKeyVerifySchema } from './schemas/account.js';
import type { AccountPageKit } from './account-app.js';
import type { AccountKit, AccountWho } from './account-kit.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Storage } from '../../storage/storage.js';

type Who = AccountWho & { session: { userId: string; amr: string[] }; cookie: string };

type KeyExtra = Pick<AccountPageInput, 'back'> & { keyStarted?: { stepUp: string; options: unknown } };

const PATH = '/identity/v1/account';

/**
 * "Confirm it's you" with a security key or passkey (docs/mfa.md): a button starts a step-up whose
 * request options the page's script hands to the browser (user verification discouraged, the user's
 * keys allowed); the assertion comes back with the form and replaces the session with a stepped-up one.
 */
export function accountKeyRoutes<W extends Who>(
  app: WardApp,
  r: { accountStepUp: AccountStepUp; account: () => AccountSettings; config: WardConfig },
  page: AccountKit<W, KeyExtra> & Pick<AccountPageKit<W>, 'seeOther'>,
): void {
  app.post(`${PATH}/step-up/key`, { schema: accountKeySchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    return page.attempt(req, reply, a, 'step_up', {}, async () => {
      const keyStarted = await r.accountStepUp.startKey(a.who.session, new URL(r.config.issuer).origin);
      return page.render(req, reply, a.who, 200, { back: a.back, keyStarted });
    });
  });

  app.post(`${PATH}/step-up/key/verify`, { schema: accountKeyVerifySchema }, async (req, reply) => {
    const a = await page.acceptPost(req, reply);
    if (!a) return reply;
    return page.attempt(req, reply, a, 'step_up', {}, async () => {
      let parsed: unknown;
      try {
        parsed = typeof a.params.assertion === 'string' ? JSON.parse(a.params.assertion) : undefined;
      } catch {
        throw invalidField('assertion', 'must be the JSON of an assertion');
      }
      const cookie = await r.accountStepUp.confirmWithKey(
        a.who.session,
        a.who.cookie,
        a.params.step_up,
        authenticationResponse(parsed, ''),
      );
      setSessionCookie(reply, cookie, r.account().session_ttl);
      return page.seeOther(reply, 'confirmed', a.back);
    });
  });
}

/** How many security keys or passkeys of the user answer a step-up (none while passkeys are off). */
export async function keyCount(
  r: { account: () => AccountSettings; storage: Pick<Storage, 'passkeys'> },
  userId: string,
): Promise<number> {
  return r.account().passkeys.enabled ? (await r.storage.passkeys.listOfUser(userId)).length : 0;
}

// Account recovery for a user who lost their passkeys: a code (email or SMS) and, when the app gave a
// page for it, an emailed link to that page; with them the user registers a new passkey
// (`webauthn/reset-options`, `webauthn/reset`). The request answers the same whether an account exists
// (address-request.ts). The new passkey replaces the old ones when the account says so
// (passkeys.recovery_replaces), the address that received the code becomes verified, every session and
// refresh token of the user ends, and the user is told.
import type { AccountCodes, CheckedCode } from '../accounts/codes.js';
import type { SecurityEvents } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { AfterAnswer, Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import { endSessionsOfUser } from '../logout/backchannel.js';
import type { Passkey } from '../storage/sql/passkeys.js';
import type { User } from '../storage/sql/users.js';
import type { Storage } from '../storage/storage.js';
import { requestForAddress, type ResetAddress, userAt } from './address-request.js';
import { endUnprovenAccess, isFirstProof } from './first-proof.js';
import { withQuery } from './return-url.js';

export interface RecoveryDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  clients: ClientService;
  logoutDelivery: { kick(): void };
}

export function createAccountRecovery(deps: RecoveryDeps) {
  const { storage, codes } = deps;
  return {
    /**
     * account-recovery: the code (and a link to `redirectUrl` with the address and the link's token),
     * looked up and sent once the answer has left (`later`).
     */
    request: (input: {
      clientId: string;
      address: ResetAddress;
      redirectUrl?: string;
      locale?: string;
      later: AfterAnswer;
    }) =>
      requestForAddress(deps, {
        later: input.later,
        purpose: 'account_recovery',
        address: input.address,
        clientId: input.clientId,
        locale: input.locale,
        link: (_userId, token) =>
          input.redirectUrl
            ? withQuery(input.redirectUrl, { [input.address.field]: input.address.address, verification_code: token })
            : undefined,
      }),

    /** The user and the unused recovery code (or link token) for an address; a wrong one counts as an attempt. */
    async check(address: ResetAddress, code: unknown): Promise<{ user: User; row: CheckedCode }> {
      const user = await userAt(storage, address);
      if (!user || user.disabled) throw new WardError('invalidVerificationCode');
      const row = await codes.checkCodeOrLink({
        purpose: 'account_recovery',
        destination: address.address,
        code,
        userId: user.id,
      });
      return { user, row };
    },

    /** Uses the code once and stores the new passkey (replacing the old ones when the account says so). */
    async complete(user: User, row: CheckedCode, passkey: Passkey): Promise<void> {
      await codes.consume(row);
      const replaces = deps.account().passkeys.recovery_replaces;
      const field = row.channel === 'sms' ? 'phone_number' : 'email';
      // Pre-hijacking: a first proof of the address ends what someone made before it (their passkeys too).
      if (isFirstProof(user, field, row.destination)) await endUnprovenAccess(deps, user, field);
      const now = deps.clock.now();
      await storage.transaction(async (tx) => {
        if (replaces) await tx.passkeys.deleteOfUser(user.id);
        await tx.passkeys.insert(passkey);
      });
      await storage.users.markVerified(user.id, field, row.destination, now);
      await codes.supersedeOfUser(user.id, 'account_recovery');
      const ended = await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, user.id);
      const to = row.channel === 'sms' ? { channel: 'sms' as const } : { channel: 'email' as const };
      deps.background.run(() =>
        deps.delivery.sendAccountMessage({ kind: 'passkeys_reset', ...to, to: row.destination, at: now }),
      );
      await deps.events.emit(
        'account.recovered',
        { user_id: user.id, channel: row.channel, replaced: replaces, ...ended },
        'account recovered with a new passkey',
      );
    },
  };
}

export type AccountRecovery = ReturnType<typeof createAccountRecovery>;

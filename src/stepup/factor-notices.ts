/**
 * Tells a user that a second factor of their account, or a passkey, was added or removed (ASVS 6.3.7,
 * checklist MF-03), through the channels the account already had: its email address, its verified phone
 * number, and its verified factors as they were before the change (a removed factor is told it was
 * removed). A factor just added is not told: the user proved it is theirs a moment ago. A passkey is
 * no channel: every channel of the account is told, and the passkey is not named (its name is the
 * caller's words).
 *
 * The notices leave in the background: the change is made and answered whatever becomes of them. A
 * failed notice is logged by the delivery (destination masked) and counted; `drain()` (at shutdown)
 * waits for those still on their way.
 */
import { maskDestination, type Delivery, type DeliveryChannel } from '../integrations/delivery.js';
import type { FactorChange } from '../integrations/notices.js';
import type { CredentialRow } from '../storage/sql/mfa.js';
import type { User } from '../storage/sql/users.js';

export interface FactorChangeInput {
  user: User;
  change: FactorChange;
  /** A passkey, an authenticator app or a recovery code has no destination: it is not named. */
  factor: { type: DeliveryChannel; destination: string } | { type: 'passkey' | 'totp' | 'recovery_code' | 'all' };
  /** The recovery codes left (change `recovery_code_used`). */
  left?: number;
  /** The user's verified factors before the change. */
  before: CredentialRow[];
  at: number;
  locale?: string;
}

/** Where to tell: distinct (channel, destination) pairs, the changed factor left out when it is new. */
export function noticeRecipients(input: FactorChangeInput): Array<{ channel: DeliveryChannel; to: string }> {
  const { user, change, factor, before } = input;
  const all: Array<{ channel: DeliveryChannel; to: string }> = [];
  if (user.email) all.push({ channel: 'email', to: user.email });
  if (user.phone_number && user.phone_number_verified) all.push({ channel: 'sms', to: user.phone_number });
  for (const f of before)
    if (f.verified_at !== null && f.type !== 'totp') all.push({ channel: f.type, to: f.destination });
  // A factor with an address is told at it; an authenticator app, a passkey or a recovery code has none.
  const changed = 'destination' in factor && (factor.type === 'email' || factor.type === 'sms') ? factor : null;
  if (changed && change === 'factor_removed') all.push({ channel: changed.type, to: changed.destination });
  const keyOf = (channel: DeliveryChannel, to: string) => `${channel}:${channel === 'email' ? to.toLowerCase() : to}`;
  const seen = new Set(changed && change === 'factor_added' ? [keyOf(changed.type, changed.destination)] : []);
  return all.filter((r) => {
    const key = keyOf(r.channel, r.to);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function createFactorNotices(deps: {
  delivery: Delivery;
  sent?: (channel: DeliveryChannel, outcome: 'sent' | 'failed') => void;
}) {
  const inFlight = new Set<Promise<void>>();
  return {
    /** Sends the notices of one change in the background; returns at once. */
    factorChanged(input: FactorChangeInput): void {
      const f = input.factor;
      const masked =
        'destination' in f && (f.type === 'email' || f.type === 'sms') ? maskDestination(f.destination) : '';
      for (const r of noticeRecipients(input)) {
        const p = deps.delivery
          .sendNotice({
            channel: r.channel,
            to: r.to,
            change: input.change,
            factor: input.factor.type,
            masked,
            left: input.left,
            at: input.at,
            locale: input.locale,
          })
          .then(
            () => deps.sent?.(r.channel, 'sent'),
            () => deps.sent?.(r.channel, 'failed'),
          )
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    },
    /** Resolves once every notice sent so far has been handed over or has failed. */
    async drain(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}

export type FactorNotices = ReturnType<typeof createFactorNotices>;

/**
 * Tells a user, once per lockout, that failed passwords paused password sign-in to their account
 * (sign-in-protection.ts): by email when the account has an address, else by SMS to its phone number, in
 * the language of the request that locked it (the user's stored locale in its place in the rule).
 * The notice leaves in the background (the sign-in is answered whatever becomes of it); `drain()` (at
 * shutdown) waits for those on their way.
 */
import type { Delivery, DeliveryChannel } from '../integrations/delivery.js';
import type { User } from '../storage/sql/users.js';
import type { LanguageFor } from '../texts/choose-language.js';

export function createLockNotices(deps: {
  delivery: Pick<Delivery, 'sendLockNotice'>;
  sent?: (channel: DeliveryChannel, outcome: 'sent' | 'failed') => void;
  /** The user's stored profile locale, which the language rule puts after ui_locales. */
  userLocale(userId: string): Promise<string | null>;
}) {
  const inFlight = new Set<Promise<void>>();
  return {
    locked(user: User, at: number, until: number, language?: LanguageFor): void {
      const to = user.email
        ? { channel: 'email' as const, to: user.email }
        : user.phone_number
          ? { channel: 'sms' as const, to: user.phone_number }
          : null;
      if (!to) return;
      const send = async () => {
        const locale = language?.(await deps.userLocale(user.id).catch(() => null));
        await deps.delivery.sendLockNotice({ ...to, at, until, locale });
      };
      const p = send().then(
        () => deps.sent?.(to.channel, 'sent'),
        () => deps.sent?.(to.channel, 'failed'),
      );
      const tracked = p.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
    async drain(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}

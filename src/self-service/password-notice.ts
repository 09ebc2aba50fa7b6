import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { User } from '../storage/sql/users.js';

/** Tells the user their password changed: by email when the account has one, else by SMS to a verified number. */
export function tellPasswordChanged(
  deps: { delivery: Pick<Delivery, 'sendAccountMessage'>; background: Background },
  user: Pick<User, 'email' | 'phone_number' | 'phone_number_verified'>,
  at: number,
): void {
  const to = user.email
    ? { channel: 'email' as const, to: user.email }
    : user.phone_number && user.phone_number_verified
      ? { channel: 'sms' as const, to: user.phone_number }
      : null;
  if (!to) return;
  deps.background.run(() => deps.delivery.sendAccountMessage({ kind: 'password_changed', ...to, at }));
}

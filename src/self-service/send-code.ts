import type { AccountCodePurpose, AccountCodes } from '../accounts/codes.js';
import type { SecurityEvents } from '../audit/events.js';
import { WardError } from '../errors/ward-error.js';
import type { AccountMessageKind } from '../integrations/account-messages.js';
import type { Delivery } from '../integrations/delivery.js';

export interface SendCodeDeps {
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  events: SecurityEvents;
  /** The caller already counted this message against the address's limit. */
  admitted?: boolean;
}

export interface SendCodeInput {
  /** Null for a passwordless sign-in of an address without an account yet. */
  userId: string | null;
  purpose: AccountCodePurpose;
  /** The message, when it is not the purpose's own (an invitation is a reset_password code). */
  kind?: AccountMessageKind;
  channel: 'email' | 'sms';
  address: string;
  clientId?: string;
  data?: Record<string, string>;
  locale?: string;
  /** The URL the email's link opens, around its token (undefined: the message carries the code only). */
  linkUrl: (token: string) => string | undefined;
}

/**
 * Issues a code (and, by email, a link) for an address and sends it, once the address's limit
 * admitted it. A message that could not be sent is killed at once: no code stays valid that nobody
 * received; the caller gets deliveryFailed (503).
 */
export async function sendAccountCode(deps: SendCodeDeps, input: SendCodeInput): Promise<void> {
  const { codes } = deps;
  if (!deps.admitted) await codes.admit(input.purpose, input.address);
  const issued = await codes.issue({
    purpose: input.purpose,
    userId: input.userId,
    channel: input.channel,
    destination: input.address,
    clientId: input.clientId,
    data: input.data,
  });
  try {
    await deps.delivery.sendAccountMessage({
      kind: input.kind ?? input.purpose,
      channel: input.channel,
      to: input.address,
      code: issued.code,
      link: issued.link ? input.linkUrl(issued.link) : undefined,
      codeTtl: issued.codeTtl,
      linkTtl: issued.linkTtl,
      address: input.address,
      locale: input.locale,
    });
  } catch {
    await codes.kill(issued.id);
    throw new WardError('deliveryFailed', {
      description: `The ${input.channel === 'sms' ? 'SMS' : 'email'} could not be sent; try again later`,
    });
  }
  await deps.events.emit(
    'account.code_sent',
    { user_id: input.userId, purpose: input.purpose, channel: input.channel },
    'account code sent',
  );
}

/**
 * Sends verification codes by email (SMTP, when smtpUrl is set) or SMS (Twilio-compatible API, when
 * smsUrl is set). A channel without a transport: in development mode the message, code included, is
 * written to the log as the development outbox; in production mode a warning (no code) is logged and
 * a DeliveryError thrown. Every failure is a DeliveryError (no code, no secret in it): answer a 5xx.
 * A code is never logged except in the development outbox; destinations are masked in other lines.
 */
import type { Logger } from 'pino';
import type { DeliveryConfig } from '../config/types.js';
import type { Outbound } from '../lib/outbound/client.js';
import { DeliveryError, scrub, type DeliveryChannel } from './errors.js';
import { createMailer, type Mailer } from './mailer.js';
import type { MimeWriter } from './tuning/mime.js';
import { renderAccountMessage, type AccountMessageInput } from './account-messages.js';
import { renderVerificationMessage, resolveLocale, type CodePurpose, type MessageLocale } from './messages.js';
import { renderLockNotice, type LockNoticeInput } from './lock-notice.js';
import { renderNotice, type NoticeInput } from './notices.js';
import { createSmsSender, type SmsSender } from './sms.js';
import { templateFolder } from './template-folder.js';

export { DeliveryError, type DeliveryChannel, type DeliveryFailure } from './errors.js';

export interface SendCodeInput {
  channel: DeliveryChannel;
  /** An email address or an E.164 phone number, already normalised. */
  to: string;
  purpose: CodePurpose;
  code: string;
  ttlSeconds: number;
  locale?: string;
}

export interface SendNoticeInput extends Omit<NoticeInput, 'appName'> {
  channel: DeliveryChannel;
  to: string;
}

export interface SendLockNoticeInput extends Omit<LockNoticeInput, 'appName'> {
  channel: DeliveryChannel;
  to: string;
}

export interface SendAccountMessageInput extends Omit<AccountMessageInput, 'appName'> {
  channel: DeliveryChannel;
  to: string;
}

export interface Delivery {
  sendCode(input: SendCodeInput): Promise<void>;
  /**
   * A message of account self-service (account-messages.ts); its code and link never reach a log but the dev outbox.
   */
  sendAccountMessage(input: SendAccountMessageInput): Promise<void>;
  /** A security notice (a factor added or removed); fails like sendCode, with a DeliveryError. */
  sendNotice(input: SendNoticeInput): Promise<void>;
  /** The notice of a lockout (accounts/sign-in-protection.ts); fails like sendCode. */
  sendLockNotice(input: SendLockNoticeInput): Promise<void>;
  /** Whether a channel can carry a message: it has a transport, or the development outbox takes it. */
  canSend(channel: DeliveryChannel): boolean;
  /** Closes the transports' kept connections (SMTP pool) at shutdown. */
  close(): Promise<void>;
}

export interface DeliveryOptions {
  /** The name the messages show; default 'Ward'. */
  appName?: string;
  /** Transports to use instead of those the config describes (tests). */
  mailer?: Mailer;
  sms?: SmsSender;
  /** The `mime_writer` speed-up for the configured mailer (config/tuning.ts). */
  mimeWriter?: MimeWriter;
  /** The guarded outbound client (lib/outbound/) of the configured SMS provider; required with WARD_SMS_URL. */
  outbound?: Pick<Outbound, 'fetch'>;
  /**
   * The language of a message asked in no language Ward speaks (one an administrator's action sends, a
   * background notice): the account's `default_language`, read when the message leaves. Default English.
   */
  defaultLanguage?: () => MessageLocale;
}

/** 'alice@example.com' → 'a***@example.com'; '+33612345678' → '+33******78'. */
export function maskDestination(to: string): string {
  const at = to.lastIndexOf('@');
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  return to.length > 5 ? `${to.slice(0, 3)}${'*'.repeat(to.length - 5)}${to.slice(-2)}` : '***';
}

const MISSING: Record<DeliveryChannel, string> = {
  email: 'no SMTP server is configured (WARD_SMTP_URL)',
  sms: 'no SMS provider is configured (WARD_SMS_URL, WARD_SMS_ACCOUNT_SID, WARD_SMS_AUTH_TOKEN, WARD_SMS_FROM)',
};

export function createDelivery(config: DeliveryConfig, log: Logger, options: DeliveryOptions = {}): Delivery {
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mimeWriter: options.mimeWriter })
      : null);
  let sms = options.sms ?? null;
  if (!sms && config.smsUrl) {
    if (!config.smsAccountSid || !config.smsAuthToken || !config.smsFrom)
      throw new Error('WARD_SMS_URL needs WARD_SMS_ACCOUNT_SID, WARD_SMS_AUTH_TOKEN and WARD_SMS_FROM too');
    if (!options.outbound) throw new Error('the SMS provider needs the outbound client');
    sms = createSmsSender({
      outbound: options.outbound,
      baseUrl: config.smsUrl,
      accountSid: config.smsAccountSid,
      authToken: config.smsAuthToken,
      from: config.smsFrom,
    });
  }
  const secrets = [config.smsAuthToken];
  /** Every message's language: the one it was asked in when Ward speaks it, else the account's default. */
  const languageOf = (locale?: string) => resolveLocale(locale, options.defaultLanguage?.() ?? 'en');
  // Read once and again on change, not per message.
  const templates = config.templatesDir ? templateFolder(config.templatesDir) : undefined;

  /**
   * Hands one message to its channel's transport. `what` names it in the log ('verification code',
   * 'security notice'); `fields` are logged with it; `secret` (the code) never leaves here, not even
   * in an error. Without a transport: the development outbox, or a DeliveryError in production.
   */
  async function send(
    channel: DeliveryChannel,
    rawTo: unknown,
    content: { subject: string; text: string; html: string; sms: string },
    what: string,
    fields: Record<string, unknown>,
    secret?: string,
  ): Promise<void> {
    if (channel !== 'email' && channel !== 'sms') throw new TypeError(`unknown channel ${String(channel)}`);
    const to = typeof rawTo === 'string' ? rawTo.trim() : '';
    if (!to)
      throw new DeliveryError(
        channel,
        'invalid_destination',
        `no ${channel === 'email' ? 'email address' : 'phone number'} to send the ${what} to`,
      );
    const where = { channel, ...fields, to: maskDestination(to) };

    const transport = channel === 'email' ? mailer : sms;
    if (!transport) {
      if (config.mode === 'development') {
        const body = channel === 'email' ? content.text : content.sms;
        log.info(
          { dev_outbox: { channel, ...fields, to, subject: channel === 'email' ? content.subject : undefined, body } },
          `DEVELOPMENT OUTBOX (not sent: ${MISSING[channel]}): ${channel} ` +
            `to ${to}, ${what}${secret ? ` ${secret}` : ''}`,
        );
        return;
      }
      log.warn(where, `${what} not sent: ${MISSING[channel]}`);
      throw new DeliveryError(channel, 'not_configured', `cannot send a ${what} by ${channel}: ${MISSING[channel]}`);
    }

    const hidden = [secret, ...secrets];
    try {
      if (channel === 'email')
        await (transport as Mailer).send(to, { subject: content.subject, text: content.text, html: content.html });
      else await (transport as SmsSender).send(to, content.sms);
    } catch (e) {
      const safe =
        e instanceof DeliveryError
          ? new DeliveryError(channel, e.failure, scrub(e.message, hidden), e.status)
          : new DeliveryError(
              channel,
              'unavailable',
              `${channel} delivery failed: ${scrub(e instanceof Error ? e.message : String(e), hidden)}`,
            );
      log.error({ ...where, failure: safe.failure, status: safe.status }, `${what} delivery failed: ${safe.message}`);
      throw safe;
    }
    log.info(where, `${what} sent`);
  }

  return {
    async close() {
      await mailer?.close();
    },
    canSend: (channel) => config.mode === 'development' || (channel === 'email' ? !!mailer : !!sms),
    async sendCode(input) {
      const { channel, purpose, code } = input;
      const message = renderVerificationMessage({
        purpose,
        code,
        ttlSeconds: input.ttlSeconds,
        locale: languageOf(input.locale),
        appName: options.appName,
      });
      await send(channel, input.to, message, 'verification code', { purpose }, code);
    },
    async sendAccountMessage(input) {
      const { channel, to, ...message } = input;
      const content = renderAccountMessage(
        { ...message, locale: languageOf(message.locale), appName: options.appName },
        templates,
      );
      const secret = [message.code, message.link].filter(Boolean).join(' ') || undefined;
      await send(channel, to, content, 'account message', { message: message.kind }, secret);
    },
    async sendNotice(input) {
      const { channel, to, ...notice } = input;
      let content: ReturnType<typeof renderNotice>;
      try {
        content = renderNotice({ ...notice, locale: languageOf(notice.locale), appName: options.appName });
      } catch (e) {
        // Notices leave in the background: nobody else would see why one never left.
        log.error(
          {
            channel,
            notice: notice.change,
            to: typeof to === 'string' ? maskDestination(to) : undefined,
            err: { message: (e as Error).message },
          },
          'security notice could not be written',
        );
        throw e;
      }
      await send(channel, to, content, 'security notice', { notice: notice.change });
    },
    async sendLockNotice(input) {
      const { channel, to, ...notice } = input;
      await send(
        channel,
        to,
        renderLockNotice({ ...notice, locale: languageOf(notice.locale), appName: options.appName }),
        'security notice',
        {
          notice: 'sign_in_locked',
        },
      );
    },
  };
}

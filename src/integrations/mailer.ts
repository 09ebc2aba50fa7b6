/**
 * Email through SMTP (nodemailer). `smtps://host[:465]` is TLS from the first byte. `smtp://` on a
 * loopback host is plain SMTP (a local relay or test sink; STARTTLS ignored); `smtp://` on any other
 * host must upgrade with STARTTLS (codes never cross a network in clear) unless the URL says
 * `?requireTLS=false`. Credentials go in the URL (`smtp://user:pass@host:587`). Every failure is a
 * DeliveryError whose message holds no credential.
 */
import type { ConnectionOptions } from 'node:tls';
import type { Transporter } from 'nodemailer';
import { DeliveryError, scrub } from './errors.js';
import type { MimeWriter } from './tuning/mime.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(to: string, content: MailContent): Promise<void>;
  /** Closes the pooled SMTP connections (at shutdown); a later send opens new ones. */
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string;
  /** The From header, e.g. 'Ward <no-reply@example.com>'. */
  from: string;
  /** Extra TLS options (e.g. `ca` for a private CA). */
  tls?: ConnectionOptions;
  /** Connection, greeting and idle timeouts; default 10 s. */
  timeoutMs?: number;
  /** Builds the messages it can (the `mime_writer` speed-up); without it, nodemailer composes each. */
  mimeWriter?: MimeWriter;
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' || host === '::1';

function transportOptions(opts: MailerOptions) {
  let u: URL;
  try {
    u = new URL(opts.smtpUrl);
  } catch {
    throw new Error('the SMTP URL is not a valid URL');
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new Error('the SMTP URL must start with smtp:// or smtps://');
  const secure = u.protocol === 'smtps:';
  const loopback = isLoopback(u.hostname);
  let requireTLS = !secure && !loopback;
  for (const [key, value] of u.searchParams) {
    if (key === 'requireTLS' && (value === 'true' || value === 'false')) requireTLS = !secure && value === 'true';
    else throw new Error(`the SMTP URL has an unknown parameter ${key} (only requireTLS=true|false is understood)`);
  }
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  const timeout = opts.timeoutMs ?? 10_000;
  return {
    secrets: [pass, u.password],
    options: {
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      ...(u.port ? { port: Number(u.port) } : {}),
      secure,
      requireTLS,
      ignoreTLS: !secure && !requireTLS,
      ...(user || pass ? { auth: { user, pass } } : {}),
      ...(opts.tls ? { tls: opts.tls } : {}),
      // Up to 5 connections kept and reused (100 messages each): no TCP, TLS and EHLO per code.
      pool: true,
      maxConnections: 5,
      maxMessages: 100,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      disableFileAccess: true,
      disableUrlAccess: true,
      logger: false,
      debug: false,
    },
  };
}

function toDeliveryError(e: unknown, secrets: string[]): DeliveryError {
  const err = e as { code?: unknown; responseCode?: unknown; message?: unknown };
  const status = typeof err.responseCode === 'number' ? err.responseCode : undefined;
  const kind = typeof err.code === 'string' ? err.code : 'error';
  // Refused: the server said no to these credentials or this message. A failed STARTTLS is a setup
  // problem (unavailable) even when the server answered it with a 5xx.
  const refused = kind === 'EAUTH' || (kind !== 'ETLS' && status !== undefined && status >= 500);
  const detail = scrub(typeof err.message === 'string' ? err.message : String(e), secrets);
  return new DeliveryError(
    'email',
    refused ? 'refused' : 'unavailable',
    `email delivery failed (${kind}${status ? ` ${status}` : ''}): ${detail}`,
    status,
  );
}

const HEADERS = { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' };

export function createMailer(opts: MailerOptions): Mailer {
  const { options, secrets } = transportOptions(opts);
  const compose = opts.mimeWriter?.(opts.from);
  // nodemailer is loaded with the first email, not at start-up.
  let transporter: Promise<Transporter> | undefined;
  const transport = () => (transporter ??= import('nodemailer').then((m) => m.default.createTransport(options)));
  return {
    async close() {
      const t = transporter;
      transporter = undefined;
      if (t) (await t.catch(() => undefined))?.close();
    },
    async send(to, content) {
      if (typeof to !== 'string' || to.trim() === '')
        throw new DeliveryError('email', 'invalid_destination', 'no email address to send to');
      try {
        // What the MIME writer cannot write (or all, without it) goes through nodemailer's composer.
        const mail = compose?.(to.trim(), content, HEADERS) ?? {
          from: opts.from,
          // An address object: the value is one mailbox, never parsed as a list.
          to: { name: '', address: to.trim() },
          subject: content.subject,
          text: content.text,
          html: content.html,
          headers: HEADERS,
        };
        await (await transport()).sendMail(mail);
      } catch (e) {
        throw toDeliveryError(e, secrets);
      }
    },
  };
}

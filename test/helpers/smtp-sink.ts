// A real SMTP server on 127.0.0.1 (port 0) that keeps what it receives, one Received per envelope
// recipient, parsed by mailparser. Plain SMTP with no auth by default; 'starttls' also offers
// STARTTLS and 'smtps' speaks TLS from the first byte, both with the given certificate.
// rejectNext(code) makes the next RCPT TO fail with that SMTP reply code.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createInbox } from './inbox.js';

export interface Received {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Lower-cased header name → its raw value. */
  headers: Map<string, string>;
  /** The message as it went over the wire. */
  raw: string;
  /** The SMTP session was TLS (smtps or STARTTLS). */
  secure: boolean;
}

export interface SmtpSinkOptions {
  mode?: 'plain' | 'starttls' | 'smtps';
  tls?: { key: string; cert: string };
  /** The server drops a connection idle this long (smtp-server's socketTimeout); default 60 s. */
  idleTimeoutMs?: number;
}

export interface SmtpSink {
  url: string;
  messages: Received[];
  next(to: string, timeoutMs?: number): Promise<Received>;
  rejectNext(responseCode?: number): void;
  /** SMTP connections accepted so far, and how many are open now. */
  connections(): { accepted: number; open: number };
  close(): Promise<void>;
}

export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mode = opts.mode ?? 'plain';
  if (mode !== 'plain' && !opts.tls) throw new Error(`an SMTP sink in ${mode} mode needs tls {key, cert}`);
  const inbox = createInbox<Received>('email');
  const rejections: number[] = [];
  let accepted = 0;
  let open = 0;

  const server = new SMTPServer({
    secure: mode === 'smtps',
    ...(opts.tls ? { key: opts.tls.key, cert: opts.tls.cert } : {}),
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: mode === 'starttls' ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    logger: false,
    ...(opts.idleTimeoutMs ? { socketTimeout: opts.idleTimeoutMs } : {}),
    onConnect(_session, callback) {
      accepted++;
      open++;
      callback();
    },
    onClose() {
      open--;
    },
    onRcptTo(_address, _session, callback) {
      const code = rejections.shift();
      if (code === undefined) return callback();
      const err = Object.assign(new Error('Mailbox unavailable (sink rejection)'), { responseCode: code });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then((mail) => {
          const headers = new Map(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]));
          for (const rcpt of session.envelope.rcptTo) {
            inbox.add({
              to: rcpt.address,
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: mail.html || '',
              headers,
              raw: raw.toString('utf8'),
              secure: session.secure,
            });
          }
          callback();
        }, callback);
      });
    },
  });

  // A client that drops the connection (e.g. refusing the certificate) is not the sink's failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `${mode === 'smtps' ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    messages: inbox.messages,
    next: inbox.next,
    rejectNext(responseCode = 550) {
      rejections.push(responseCode);
    },
    connections: () => ({ accepted, open }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

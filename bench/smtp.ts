// A local SMTP sink for the verification codes (smtp-server, plain SMTP on 127.0.0.1, no auth):
// it keeps the latest code per recipient, read from the Subject ("123456 is your ... code").
// Ward awaits the SMTP transaction before answering /passwordless/start, and the code is stored
// before the sink accepts the DATA, so a flow finds its code as soon as the answer arrives.
import { SMTPServer } from 'smtp-server';

export interface Sink {
  url: string;
  received(): number;
  /** The latest code sent to `to` and how many messages `to` got so far. */
  latest(to: string): { code: string; n: number } | undefined;
  waitFor(to: string, afterN: number, limitMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const latest = new Map<string, { code: string; n: number }>();
  let total = 0;
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const m = /^Subject: (\d{4,10}) /m.exec(Buffer.concat(chunks).toString('utf8'));
        total++;
        if (m) {
          for (const r of session.envelope.rcptTo) {
            const key = r.address.toLowerCase();
            latest.set(key, { code: m[1]!, n: (latest.get(key)?.n ?? 0) + 1 });
          }
        }
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => total,
    latest: (to) => latest.get(to.toLowerCase()),
    async waitFor(to, afterN, limitMs = 10_000) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const l = latest.get(to.toLowerCase());
        if (l && l.n > afterN) return l.code;
        if (Date.now() > deadline) throw new Error(`no code for ${to} within ${limitMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

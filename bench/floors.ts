// `node --import tsx bench/floors.ts [--seconds S]`: the cost of the parts B8 and B9 cannot do
// without, measured on this machine, to tell how far their goals are from reachable:
// 1. HTTP stack: a small JSON POST answered 400 (B8's shape) by plain node:http, by bare Fastify,
//    and by Fastify with Ward's plugins and hooks (cookie, formbody, request id, access-log hook);
//    autocannon, 50 connections, each server in its own process.
// 2. SQLite durable writes: an autocommitted insert + conditional update (WAL, synchronous=NORMAL,
//    Ward's pragmas) per iteration, in µs per write, on a table shaped like authorization_codes.
// 3. SMTP: CPU per email in the sending process (nodemailer, Ward's message shape) to a local
//    smtp-server sink in another process, one connection per email against a pool of 5.
// Only 127.0.0.1; every load bounded in time or count. Prints one table; nothing is written.
import { fork } from 'node:child_process';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';

const argv = process.argv.slice(2);
const seconds = Number(argv[argv.indexOf('--seconds') + 1] || 4);
const SELF = fileURLToPath(import.meta.url);
const rows: Array<[string, string]> = [];
const say = (what: string, value: string) => {
  rows.push([what, value]);
  process.stdout.write(`  ${what}: ${value}\n`);
};

const BODY = JSON.stringify({
  error: 'invalid_grant',
  error_description: 'The verification code is wrong, expired or already used',
  error_message_key: 'error.invalidVerificationCode',
});

/** Child mode: one HTTP server of the given kind; its port on the IPC channel. */
async function serve(kind: string): Promise<void> {
  if (kind === 'node') {
    const http = await import('node:http');
    const s = http.createServer((req, res) => {
      let d = '';
      req.on('data', (c) => (d += c));
      req.on('end', () => {
        JSON.parse(d);
        res.writeHead(400, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(BODY),
        });
        res.end(BODY);
      });
    });
    s.listen(0, '127.0.0.1', () => process.send!((s.address() as { port: number }).port));
    return;
  }
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  if (kind === 'fastify+ward-plugins') {
    await app.register((await import('@fastify/cookie')).default);
    await app.register((await import('@fastify/formbody')).default);
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('X-Request-Id', req.id);
      done();
    });
    app.addHook('onResponse', (_req, _reply, done) => done());
  }
  app.post('/v', (_req, reply) => {
    reply.code(400).header('content-type', 'application/json; charset=utf-8').send(BODY);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!((app.server.address() as { port: number }).port);
}

async function httpFloor(): Promise<void> {
  const body = JSON.stringify({ challenge_id: 'c'.repeat(32), verification_code: '123456' });
  for (const kind of ['node', 'fastify', 'fastify+ward-plugins']) {
    const rates: number[] = [];
    for (let round = 0; round < 2; round++) {
      const child = fork(SELF, ['--serve', kind], { execArgv: ['--import', 'tsx'] });
      try {
        const port = await new Promise<number>((resolve, reject) => {
          child.once('message', (p) => resolve(p as number));
          child.once('exit', () => reject(new Error(`${kind} server exited`)));
        });
        const r = await autocannon({
          url: `http://127.0.0.1:${port}/v`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          connections: 50,
          duration: seconds,
        });
        if (r.non2xx !== r.requests.total) throw new Error(`${kind}: expected only 400s`);
        rates.push(r.requests.average);
      } finally {
        child.kill();
      }
    }
    say(`HTTP ${kind}: JSON POST → 400`, `${Math.round(Math.max(...rates))} req/s (best of 2 x ${seconds} s)`);
  }
}

function sqliteFloor(): void {
  const dir = mkdtempSync(join(tmpdir(), 'ward-floor-'));
  try {
    const db = new Database(join(dir, 'floor.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(
      'create table codes (digest text primary key, client_id text, user_id text, params text, created_at integer, expires_at integer, consumed_at integer)',
    );
    db.exec('create index codes_exp on codes(expires_at)');
    db.exec('create index codes_user on codes(user_id)');
    const ins = db.prepare('insert into codes values (?, ?, ?, ?, ?, ?, null)');
    const upd = db.prepare('update codes set consumed_at = ? where digest = ? and consumed_at is null');
    const n = 20_000;
    const params = JSON.stringify({
      redirect_uri: 'https://app.example/cb',
      scope: 'openid profile email',
      pad: 'x'.repeat(200),
    });
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      const digest = `d${i}-${'x'.repeat(40)}`;
      ins.run(digest, 'client', `u${i % 500}`, params, Date.now(), Date.now() + 60_000);
      upd.run(Date.now(), digest);
    }
    const us = Number(process.hrtime.bigint() - t0) / 1000 / (2 * n);
    db.close();
    say('SQLite autocommitted write (WAL, synchronous=NORMAL)', `${us.toFixed(1)} µs per write (${2 * n} writes)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function smtpFloor(): Promise<void> {
  const html = '<!doctype html><html><body><p>Your code is <b>123456</b>. It expires in 10 minutes.</p></body></html>';
  const sinkProc = fork(SELF, ['--sink'], { execArgv: ['--import', 'tsx'] });
  try {
    const url = await new Promise<string>((resolve) => sinkProc.once('message', (u) => resolve(u as string)));
    const { port } = new URL(url);
    for (const [label, extra] of [
      ['one connection per email', {}],
      ['pool of 5 connections', { pool: true, maxConnections: 5 }],
    ] as const) {
      const t = nodemailer.createTransport({
        host: '127.0.0.1',
        port: Number(port),
        secure: false,
        ignoreTLS: true,
        ...extra,
      });
      const n = 1500;
      let i = 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (i < n) {
            const k = i++;
            await t.sendMail({
              from: 'Ward <no-reply@example.com>',
              to: { name: '', address: `u${k}@example.com` },
              subject: `${100000 + k} is your verification code`,
              text: `Your code is ${100000 + k}.`,
              html,
            });
          }
        }),
      );
      const c = process.cpuUsage(c0);
      t.close();
      say(
        `SMTP (nodemailer) ${label}`,
        `${((c.user + c.system) / n / 1000).toFixed(2)} ms of sender CPU per email, ${Math.round(n / ((performance.now() - t0) / 1000))} emails/s (${n}, 20 in flight)`,
      );
    }
  } finally {
    sinkProc.kill();
  }
}

if (argv[0] === '--serve') {
  await serve(argv[1]!);
} else if (argv[0] === '--sink') {
  const { startSink } = await import('./smtp.js');
  const sink = await startSink();
  process.send!(sink.url);
} else {
  process.stdout.write(`Floors (node ${process.version}):\n`);
  await httpFloor();
  sqliteFloor();
  await smtpFloor();
  process.stdout.write(`\n| what | measured |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n`);
}

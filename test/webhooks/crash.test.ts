// Webhooks survive a crash (issue #35): Ward runs as a real child process on a SQLite file or a
// PostgreSQL schema, sends to a slow receiver that fails at first, and is killed with SIGKILL while a
// delivery is in flight; a new Ward on the same database delivers every event at least once, in the
// order the events were made (the killed process's in-flight delivery comes back when its 60 s lease
// ends, and nothing behind it goes first).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { sharedDb, startWardProcess, type SharedDb, type WardProcess } from '../helpers/processes.js';
import { MANAGER, SECRET, verify } from './manager.js';

interface Arrival {
  id: string;
  userId: string;
  answered: number;
}

/** A receiver that answers each request after `delayMs`; its first `failing` requests get a 503. */
function slowReceiver(delayMs: number, failing: number) {
  const arrivals: Arrival[] = [];
  const bodies: Array<{ body: string; headers: Record<string, unknown> }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const e = JSON.parse(body) as { id: string; data: { user_id: string } };
      const arrival = { id: e.id, userId: e.data.user_id, answered: 0 };
      arrivals.push(arrival);
      bodies.push({ body, headers: req.headers });
      setTimeout(() => {
        arrival.answered = arrivals.indexOf(arrival) < failing ? 503 : 204;
        if (!res.destroyed) res.writeHead(arrival.answered).end();
      }, delayMs);
    });
  });
  return {
    arrivals,
    bodies,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`),
        ),
      ),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(limitMs: number, ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + limitMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const engine of engines()) {
  describe(`webhooks after a SIGKILL (${engine})`, () => {
    let db: SharedDb;
    let env: Record<string, string>;
    let ward: WardProcess | undefined;
    const receiver = slowReceiver(400, 2);
    before(async () => {
      db = await sharedDb(engine);
      const config = join(db.env.WARD_DATA_DIR!, 'ward.json');
      writeFileSync(config, JSON.stringify({ account: { allow_private_webhook_targets: true }, clients: [MANAGER] }));
      env = { ...db.env, WARD_CONFIG: config, WARD_MODE: 'production' };
    });
    after(async () => {
      await ward?.stop();
      await receiver.close();
      await db?.drop();
    });

    async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
      const token = await fetch(`${ward!.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'ops', client_secret: SECRET }),
      });
      const { access_token } = (await token.json()) as { access_token: string };
      const res = await fetch(`${ward!.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    }

    it('delivers every event at least once and in order after Ward is killed mid-delivery', async () => {
      const url = await receiver.start();
      ward = await startWardProcess(env);
      const { secret } = (await call('POST', '/api/v1/webhooks', { url, events: ['user.created'] })) as {
        secret: string;
      };
      const made: string[] = [];
      for (let i = 0; i < 6; i++) {
        const u = await call('POST', '/api/v1/users', {
          email: `crash-${i}@example.com`,
          password: 'a long password!',
        });
        made.push(u.id as string);
      }
      // Two 503s (retried after backoff), then a delivery in flight on the slow receiver: kill.
      await until(
        30_000,
        () => receiver.arrivals.some((a) => a.answered === 0 && receiver.arrivals.length > 2),
        'a delivery in flight',
      );
      ward.child.kill('SIGKILL');
      await new Promise((r) => ward!.child.once('exit', r));
      const beforeKill = receiver.arrivals.length;
      ward = await startWardProcess(env);
      const delivered = () => new Set(receiver.arrivals.filter((a) => a.answered === 204).map((a) => a.userId));
      await until(120_000, () => made.every((id) => delivered().has(id)), 'every event delivered after the restart');
      assert.ok(receiver.arrivals.length > beforeKill, 'the new Ward sent what was left');
      // In order: the first successful delivery of each event follows the order the users were made.
      const firstOk = receiver.arrivals.filter((a) => a.answered === 204).map((a) => a.userId);
      assert.deepEqual(
        firstOk.filter((id, i) => firstOk.indexOf(id) === i),
        made,
      );
      // Every arrival, retries included, is in order too: never an event before an earlier one was delivered.
      const seen = receiver.arrivals.map((a) => made.indexOf(a.userId));
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, `order: ${seen}`);
      for (const b of receiver.bodies) verify(secret, b);
    });
  });
}

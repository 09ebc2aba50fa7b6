// Two Ward processes on one PostgreSQL database deliver each webhook event once (issue #35, item 3):
// both poll the same queue, each claims due deliveries with FOR UPDATE SKIP LOCKED under a lease, so
// no event reaches the receiver twice while its first attempt stands, and the endpoint's events arrive
// in the order they were made, whichever process made or sent them. PostgreSQL only (SQLite is one
// process by design). Real child processes, a loopback receiver, signatures verified.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { sharedDb, startWardProcess, type SharedDb, type WardProcess } from '../helpers/processes.js';
import { MANAGER, SECRET, verify } from './manager.js';

const EVENTS = 16;

describe('webhooks from two processes on one PostgreSQL', { skip: !engines().includes('postgres') }, () => {
  let db: SharedDb;
  let env: Record<string, string>;
  const wards: WardProcess[] = [];
  const received: Array<{ body: string; headers: Record<string, unknown> }> = [];
  // Each answer takes a moment, so that both processes poll while deliveries are in flight.
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      setTimeout(() => res.writeHead(204).end(), 30);
    });
  });
  before(async () => {
    db = await sharedDb('postgres');
    const config = join(db.env.WARD_DATA_DIR!, 'ward.json');
    writeFileSync(config, JSON.stringify({ account: { allow_private_webhook_targets: true }, clients: [MANAGER] }));
    env = { ...db.env, WARD_CONFIG: config, WARD_MODE: 'production' };
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    for (const w of wards) await w.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db?.drop();
  });

  async function call(ward: WardProcess, method: string, path: string, body?: unknown) {
    const token = await fetch(`${ward.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'ops', client_secret: SECRET }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const res = await fetch(`${ward.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  }

  it('sends each event once, in the order the events were made', { timeout: 180_000 }, async () => {
    wards.push(await startWardProcess(env));
    wards.push(await startWardProcess(env));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    const { secret } = (await call(wards[0]!, 'POST', '/api/v1/webhooks', { url, events: ['user.created'] })) as {
      secret: string;
    };
    const made: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      // One after the other, through either process: the events' order is the users' order.
      const u = await call(wards[i % 2]!, 'POST', '/api/v1/users', {
        email: `two-${i}@example.com`,
        password: 'a long password!',
      });
      made.push(u.id as string);
    }
    const end = Date.now() + 90_000;
    while (received.length < EVENTS && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    // Both keep polling a while: a second delivery of anything would show now.
    await new Promise((r) => setTimeout(r, 3000));
    const events = received.map((r) => verify(secret, r) as { id: string; data: { user_id: string } });
    const ids = events.map((e) => e.id);
    assert.equal(ids.length, EVENTS, `${ids.length} deliveries for ${EVENTS} events`);
    assert.equal(new Set(ids).size, EVENTS, 'no event twice');
    assert.deepEqual(
      events.map((e) => e.data.user_id),
      made,
      'in the order the events were made',
    );
  });
});

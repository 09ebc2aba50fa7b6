// Graceful shutdown and `ward start --workers N`, on real processes: after SIGTERM a request already
// in flight (its body half sent) still gets its whole answer, new connections are refused, and the
// process exits 0; a request that never completes cannot hold the process past
// WARD_SHUTDOWN_TIMEOUT. With idle keep-alive clients connected, the process exits as soon as the
// answer in flight is out (it says Connection: close), far below the timeout, and a request whose
// headers arrive after SIGTERM gets 503 in Ward's error format with Retry-After (the document fast
// path's URLs too; /readyz answers its own not_ready). With two workers, /metrics sums both
// processes (a scrape reaches one of them), each worker runs with the server's node flags, and
// SIGTERM to the primary stops the cluster cleanly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../src/lib/tuning/heap-flags.js';
import { sharedDb, startWardProcess, type SharedDb } from '../helpers/processes.js';
import { metricValue } from '../helpers/metrics.js';

const exitOf = (child: import('node:child_process').ChildProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => {
    // Already gone (by its own exit or by a signal): the 'exit' event will not come again.
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, at: Date.now() });
    child.once('exit', (code) => resolve({ code, at: Date.now() }));
  });

/** A GET on a connection of its own (cluster workers share connections, not requests). */
function getFresh(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens a connection and sends a token request's headers and the first half of its body; the
 * client asks to close the connection after it, unless `keepAlive`.
 */
async function halfSentTokenRequest(
  url: string,
  body: string,
  keepAlive = false,
): Promise<{ socket: Socket; rest: string; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  const done = new Promise<string>((resolve) => {
    socket.on('data', (d) => (answer += String(d)));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
  const half = Math.floor(body.length / 2);
  const head =
    `POST /oauth/token HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    'Content-Type: application/x-www-form-urlencoded\r\n';
  const connection = keepAlive ? 'keep-alive' : 'close';
  socket.write(`${head}Content-Length: ${body.length}\r\nConnection: ${connection}\r\n\r\n${body.slice(0, half)}`);
  return { socket, rest: body.slice(half), answer: done };
}

describe('graceful shutdown of one process', { timeout: 60_000 }, () => {
  let db: SharedDb;
  before(async () => {
    db = await sharedDb('sqlite');
  });
  after(() => db.drop());

  it('finishes the request in flight after SIGTERM, refuses new connections, exits 0', async () => {
    const ward = await startWardProcess(db.env);
    const exited = exitOf(ward.child);
    const inFlight = await halfSentTokenRequest(
      ward.url,
      'grant_type=client_credentials&client_id=no-such-client&client_secret=x',
    );
    await new Promise((r) => setTimeout(r, 200));
    ward.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 400));
    await assert.rejects(getFresh(`${ward.url}/healthz`), /ECONNREFUSED|ECONNRESET/);
    assert.equal(ward.child.exitCode, null, 'still running: a request is in flight');
    inFlight.socket.write(inFlight.rest);
    const answer = await inFlight.answer;
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /"error_message_key":"error\.invalidClient"/);
    assert.equal((await exited).code, 0);
  });

  it('does not wait past WARD_SHUTDOWN_TIMEOUT for a request that never completes', async () => {
    const ward = await startWardProcess({ ...db.env, WARD_SHUTDOWN_TIMEOUT: '1' });
    const exited = exitOf(ward.child);
    const stuck = await halfSentTokenRequest(ward.url, 'grant_type=client_credentials&client_id=never-finished');
    await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    ward.child.kill('SIGTERM');
    const { code, at } = await exited;
    assert.equal(code, 0);
    assert.ok(at - sent >= 900, `waited for the request first (${at - sent} ms)`);
    assert.ok(at - sent < 8000, `then stopped (${at - sent} ms)`);
    stuck.socket.destroy();
  });
});

/** Opens a connection and sends the start of a request's headers, not the blank line that ends them. */
async function unfinishedHeaders(url: string, path: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  const done = new Promise<string>((resolve) => {
    socket.on('data', (d) => (answer += String(d)));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
  return { socket, answer: done };
}

/** `p`, or a failure naming `what` after `ms`: a connection the server never closes fails the test, not its timeout. */
function settledWithin<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Ward's refusal while shutting down: 503, Retry-After, the connection closed, its error format. */
function assertShuttingDown(raw: string): void {
  const [head, body] = raw.split('\r\n\r\n') as [string, string];
  assert.match(head, /^HTTP\/1\.1 503 /);
  assert.match(head, /\r\nretry-after: [1-9][0-9]*\r\n/i);
  assert.match(head, /\r\nconnection: close\r\n/i);
  const json = JSON.parse(body) as Record<string, unknown>;
  assert.equal(json.error, 'temporarily_unavailable');
  assert.equal(json.error_message_key, 'error.serviceUnavailable');
  assert.equal(typeof json.error_description, 'string');
}

describe('prompt shutdown with keep-alive clients', { timeout: 60_000 }, () => {
  let db: SharedDb;
  before(async () => {
    db = await sharedDb('sqlite');
  });
  after(() => db.drop());

  it('exits once the answer in flight is out, closes its connection, refuses later requests', async () => {
    // A timeout of 30 s: an exit that waited for it (or for the 72 s keep-alive) cannot pass.
    const ward = await startWardProcess({ ...db.env, WARD_SHUTDOWN_TIMEOUT: '30' });
    const exited = exitOf(ward.child);
    // Five idle keep-alive clients, connected before SIGTERM.
    const agent = new Agent({ keepAlive: true, maxSockets: 5 });
    const keepAliveGet = () =>
      new Promise<string | undefined>((resolve, reject) => {
        const req = httpRequest(`${ward.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection));
        });
        req.on('error', reject).end();
      });
    const idle = await Promise.all(Array.from({ length: 5 }, keepAliveGet));
    assert.deepEqual(idle, Array(5).fill('keep-alive'));
    // One request in flight (half its body sent), one whose headers are not finished, for each of
    // the plain route and the fast path's document.
    const tokenBody = 'grant_type=client_credentials&client_id=no-such-client&client_secret=x';
    const inFlight = await halfSentTokenRequest(ward.url, tokenBody, true);
    const later = await unfinishedHeaders(ward.url, '/healthz');
    const laterDocument = await unfinishedHeaders(ward.url, '/jwks.json');
    const laterProbe = await unfinishedHeaders(ward.url, '/readyz');
    await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    ward.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    later.socket.write('\r\n');
    laterDocument.socket.write('\r\n');
    laterProbe.socket.write('\r\n');
    inFlight.socket.write(inFlight.rest);
    const answer = await settledWithin(inFlight.answer, 5000, 'the in-flight answer and its connection closed');
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /"error_message_key":"error\.invalidClient"/);
    assertShuttingDown(await settledWithin(later.answer, 5000, 'the refusal of /healthz'));
    assertShuttingDown(await settledWithin(laterDocument.answer, 5000, 'the refusal of /jwks.json'));
    // The balancer's probe is answered, not refused: it says why the process is not ready.
    const probe = await settledWithin(laterProbe.answer, 5000, 'the answer of /readyz');
    assert.match(probe, /^HTTP\/1\.1 503 [\s\S]*\r\nconnection: close\r\n/i);
    assert.match(probe, /"status":"not_ready"/);
    assert.match(probe, /"accepting":false/);
    const { code, at } = await settledWithin(exited, 5000, 'exit after SIGTERM');
    assert.equal(code, 0);
    assert.ok(at - sent < 2000, `exited ${at - sent} ms after SIGTERM`);
    agent.destroy();
  });
});

describe('ward start --workers 2', { timeout: 90_000 }, () => {
  let db: SharedDb;
  before(async () => {
    db = await sharedDb('sqlite');
  });
  after(() => db.drop());

  it('exposes the metrics of both workers in one scrape and stops on SIGTERM', async () => {
    const ward = await startWardProcess(db.env, ['--workers', '2']);
    const exited = exitOf(ward.child);
    try {
      for (let i = 0; i < 40; i++) {
        const res = await getFresh(`${ward.url}/healthz`);
        assert.equal(res.status, 200);
      }
      // Three back-channel logouts queued (not due for an hour): one table that both workers count.
      const file = new SqliteDatabase(join(db.env.WARD_DATA_DIR!, 'ward.db'));
      file.pragma('busy_timeout = 5000');
      const now = Date.now();
      const insert = file.prepare(
        'insert into logout_deliveries (id, client_id, user_id, sid, attempts, next_attempt_at, last_error, created_at) values (?, ?, ?, ?, 0, ?, null, ?)',
      );
      for (const i of [1, 2, 3]) insert.run(`queued-${i}`, 'spa', 'u-1', `sid-${i}`, now + 3_600_000, now);
      file.close();
      // Each scrape reaches one worker; the sum is the same whichever it is.
      for (let i = 0; i < 4; i++) {
        const scrape = await getFresh(`${ward.url}/metrics`);
        assert.equal(scrape.status, 200, scrape.body);
        assert.equal(metricValue(scrape.body, 'ward_processes'), 2);
        // prom-client's AggregatorRegistry: the queue is the max of the workers' readings, not their sum;
        // the process metrics are aggregated into one family each.
        assert.equal(metricValue(scrape.body, 'ward_backchannel_logout_queue_depth'), 3);
        assert.equal(scrape.body.match(/^# TYPE nodejs_eventloop_lag_seconds gauge$/gm)?.length, 1);
        assert.ok(metricValue(scrape.body, 'process_resident_memory_bytes') > 20_000_000);
        assert.equal(
          metricValue(
            scrape.body,
            'ward_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}',
          ),
          40,
        );
      }
      assert.ok(ward.output().includes('(2 workers)'));
      // Each worker runs with the server's heap settings and environment, though this primary was
      // started without them (an operator's own value of a variable would win).
      const pids = [...ward.output().matchAll(/Ward worker (\d+) is listening/g)].map((m) => m[1]!);
      assert.equal(pids.length, 2, ward.output());
      for (const pid of pids) {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        for (const flag of SERVER_NODE_FLAGS) assert.ok(argv.includes(flag), `worker ${pid}: ${argv.join(' ')}`);
        const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        for (const [name, value] of Object.entries(SERVER_ENV))
          assert.ok(env.includes(`${name}=${process.env[name] ?? value}`), `worker ${pid}: ${name}`);
      }
    } finally {
      ward.child.kill('SIGTERM');
    }
    assert.equal((await exited).code, 0);
  });
});

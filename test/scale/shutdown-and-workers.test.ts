// Graceful shutdown and `ward start --workers N`, on real processes: after SIGTERM a request already
// in flight (its body half sent) still gets its whole answer, new connections are refused, and the
// process exits 0; a request that never completes cannot hold the process past
// WARD_SHUTDOWN_TIMEOUT. With two workers, /metrics sums both processes (a scrape reaches one of
// them), each worker runs with the server's node flags, and SIGTERM to the primary stops the
// cluster cleanly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SERVER_NODE_FLAGS } from '../../src/lib/server-node-flags.js';
import { sharedDb, startWardProcess, type SharedDb } from '../helpers/processes.js';
import { metricValue } from '../helpers/metrics.js';

const exitOf = (child: import('node:child_process').ChildProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => {
    if (child.exitCode !== null) return resolve({ code: child.exitCode, at: Date.now() });
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

/** Opens a connection and sends a token request's headers and the first half of its body. */
async function halfSentTokenRequest(
  url: string,
  body: string,
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
  socket.write(
    `POST /oauth/token HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
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
      // Each scrape reaches one worker; the sum is the same whichever it is.
      for (let i = 0; i < 4; i++) {
        const scrape = await getFresh(`${ward.url}/metrics`);
        assert.equal(scrape.status, 200, scrape.body);
        assert.equal(metricValue(scrape.body, 'ward_processes'), 2);
        assert.equal(
          metricValue(
            scrape.body,
            'ward_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}',
          ),
          40,
        );
      }
      assert.ok(ward.output().includes('(2 workers)'));
      // Each worker runs with the server's heap settings, though this primary was started without them.
      const pids = [...ward.output().matchAll(/Ward worker (\d+) is listening/g)].map((m) => m[1]!);
      assert.equal(pids.length, 2, ward.output());
      for (const pid of pids) {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        for (const flag of SERVER_NODE_FLAGS) assert.ok(argv.includes(flag), `worker ${pid}: ${argv.join(' ')}`);
      }
    } finally {
      ward.child.kill('SIGTERM');
    }
    assert.equal((await exited).code, 0);
  });
});

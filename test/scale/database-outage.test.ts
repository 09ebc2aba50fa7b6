// PostgreSQL going away never ends Ward. Its connections terminated under load (pg_terminate_backend
// on the shared server, Ward's own sessions only): the process stays up, answers resume, and every
// signup answered 200 is in the database. A private server stopped (`pg_ctl stop -m fast`) and
// started again, with one process and with `--workers 2`: meanwhile requests get 503 in Ward's
// error format with Retry-After, /readyz is 503, the process (every worker) is alive; once the
// server is back Ward serves again by itself within seconds. Audit rows buffered when the server
// stopped are written once it is back, not dropped; the outage is logged once per interval.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../../src/lib/clock.js';
import { createSecurityEvents } from '../../src/audit/events.js';
import { createWardMetrics } from '../../src/observability/ward-metrics.js';
import { connect, migrate } from '../../src/storage/connect.js';
import { createStorage } from '../../src/storage/storage.js';
import { outageLog } from '../../src/storage/unavailable.js';
import { testPostgresUrl } from '../helpers/databases.js';
import { memoryLogger } from '../helpers/memory-log.js';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { sharedDb, startWardProcess, within, type SharedDb, type WardProcess } from '../helpers/processes.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own (with workers, each connection may reach another process). */
function call(base: string, method: string, path: string, json?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const headers: Record<string, string> = {};
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const req = httpRequest(`${base}${path}`, { method, agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${method} ${path} in 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

let emails = 0;
const signup = (w: WardProcess) => {
  const email = `outage${++emails}-${randomBytes(3).toString('hex')}@example.com`;
  const data = { email, password: 'a good long password' };
  return call(w.url, 'POST', '/identity/v1/signup', { client_id: 'spa', data });
};

/** The config every Ward here runs with: one public client, and no per-IP limit on signups (the load is one IP). */
function configIn(dir: string): string {
  const file = join(dir, 'ward.json');
  writeFileSync(
    file,
    JSON.stringify({
      account: { rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } } },
      clients: [{ client_id: 'spa', type: 'public', allowed_callback_urls: ['https://app.example/cb'] }],
    }),
  );
  return file;
}

/** Ward's answer while the database is unreachable: 503, Retry-After, its error format. */
function assertUnavailable(a: Answer): void {
  assert.equal(a.status, 503, a.body);
  assert.match(String(a.headers['retry-after']), /^[1-9][0-9]*$/);
  assert.equal(a.headers['cache-control'], 'no-store');
  assert.match(String(a.headers['content-type']), /^application\/json/);
  const body = JSON.parse(a.body) as Record<string, unknown>;
  assert.equal(body.error, 'server_error');
  assert.equal(body.error_message_key, 'error.serviceUnavailable');
  assert.equal(typeof body.error_description, 'string');
}

const needsPostgres = { skip: !testPostgresUrl() && 'needs WARD_TEST_DATABASE_URL', timeout: 90_000 };

describe("Ward's PostgreSQL connections terminated under load", needsPostgres, () => {
  let db: SharedDb;
  let ward: WardProcess;
  let admin: pg.Client;
  const appName = `ward_outage_${randomBytes(4).toString('hex')}`;
  before(async () => {
    db = await sharedDb('postgres');
    const url = new URL(db.env.WARD_DATABASE_URL!);
    url.searchParams.set('application_name', appName);
    const config = configIn(db.env.WARD_DATA_DIR!);
    ward = await startWardProcess({ ...db.env, WARD_DATABASE_URL: url.toString(), WARD_CONFIG: config });
    admin = new pg.Client({ connectionString: testPostgresUrl()! });
    await admin.connect();
  });
  after(async () => {
    await ward?.stop();
    await admin?.end();
    await db?.drop();
  });

  /** Ends Ward's own sessions (named by its application_name), never another test's. */
  const terminate = async () => {
    const text =
      'select pg_terminate_backend(pid) from pg_stat_activity' +
      ' where application_name = $1 and pid <> pg_backend_pid()';
    return (await admin.query(text, [appName])).rowCount ?? 0;
  };

  it('stays up, keeps answering, and keeps every signup it answered 200', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let terminated = 0;
    let stop = false;
    // Four clients, at most 40 signups each, while Ward's sessions are terminated eight times.
    const load = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 40 && !stop; i++) {
        const a = await signup(ward);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status === 200) acknowledged.push((JSON.parse(a.body) as { id: string }).id);
        else assertUnavailable(a);
      }
    });
    for (let round = 0; round < 8; round++) {
      await new Promise((r) => setTimeout(r, 250));
      terminated += await terminate();
    }
    stop = true;
    await Promise.all(load);
    assert.ok(terminated >= 8, `Ward's sessions were terminated (${terminated})`);
    assert.equal(ward.child.exitCode, null, `the process is alive: ${ward.output().slice(-2000)}`);
    const others = [...statuses.keys()].filter((s) => s !== 200 && s !== 503);
    assert.deepEqual(others, [], `only 200 or 503: ${[...statuses]}`);
    // Answers resume on new connections.
    const again = await signup(ward);
    assert.equal(again.status, 200, again.body);
    acknowledged.push((JSON.parse(again.body) as { id: string }).id);
    assert.equal((await call(ward.url, 'GET', '/readyz')).status, 200);
    const schema = new URL(db.env.WARD_DATABASE_URL!).searchParams.get('options')!.replace('-c search_path=', '');
    const stored = await admin.query(`select id from ${schema}.users where id = any($1)`, [acknowledged]);
    assert.equal(stored.rowCount, acknowledged.length, 'every signup answered 200 is in the database');
  });
});

const needsServerBinaries = { skip: privatePostgresUnavailable() ?? false, timeout: 180_000 };

describe('a private PostgreSQL stopped and started again', needsServerBinaries, () => {
  let server: PrivatePostgres;
  let env: Record<string, string>;
  before(async () => {
    server = await startPrivatePostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'ward-outage-'));
    env = {
      WARD_DATABASE_URL: server.url,
      WARD_DATA_DIR: dataDir,
      WARD_CONFIG: configIn(dataDir),
      WARD_MASTER_KEY: randomBytes(32).toString('base64'),
      WARD_LOG_LEVEL: 'warn',
      WARD_DEMO_CLIENTS: 'off',
      WARD_ADMIN_PASSWORD: 'operator-password-for-tests',
    };
  });
  // Always: the server is stopped and its directory removed, whatever the tests did.
  after(() => server?.destroy());

  it('keeps the audit rows buffered when the server stopped, and writes them once it is back', async () => {
    const { log, parsed } = memoryLogger();
    const outage = outageLog(log);
    const schema = `audit_${randomBytes(4).toString('hex')}`;
    const d = connect({ sqlitePath: '', postgresUrl: server.url, pgSchema: schema, outage });
    await sql.raw(`create schema ${schema}`).execute(d.db);
    await migrate(d);
    const storage = createStorage(d);
    const events = createSecurityEvents({ storage, log, clock: systemClock, metrics: createWardMetrics(), outage });
    try {
      for (let i = 0; i < 3; i++) {
        await events.emit('login.failed', { client_id: 'spa', ip: '127.0.0.1' }, 'login failed', 'warn');
      }
      // Stopped before the 100 ms batch is written.
      server.stop();
      await new Promise((r) => setTimeout(r, 1500));
      server.start();
      const stored = () => storage.audit.list({ action: 'login.failed', limit: 10 }).catch(() => []);
      await within(10_000, async () => (await stored()).length === 3);
      const outageLines = parsed().filter((l) => l.event === 'database_unavailable');
      assert.ok(
        outageLines.some((l) => l.source === 'audit write'),
        'the outage is logged',
      );
      assert.ok(outageLines.length <= 2, `once per interval, not once per failure (${outageLines.length} lines)`);
      assert.ok(!parsed().some((l) => /audit write failed/.test(l.msg)), 'no row given up');
    } finally {
      await events.flush(true);
      await d.close();
    }
  });

  for (const workers of [1, 2]) {
    const how = workers === 1 ? 'one process' : `--workers ${workers}`;
    it(`answers 503 meanwhile and serves again by itself (${how})`, async () => {
      const ward = await startWardProcess(env, workers > 1 ? ['--workers', String(workers)] : []);
      try {
        for (let i = 0; i < 4; i++) assert.equal((await signup(ward)).status, 200);
        server.stop();
        // Several requests on connections of their own: with workers, each reaches one of them.
        for (let i = 0; i < 6; i++) {
          assertUnavailable(await signup(ward));
          const ready = await call(ward.url, 'GET', '/readyz');
          assert.equal(ready.status, 503, ready.body);
          assert.equal((JSON.parse(ready.body) as { checks: { database: boolean } }).checks.database, false);
          assert.equal((await call(ward.url, 'GET', '/healthz')).status, 200);
        }
        // The background loops (change poller every 250 ms, audit writes) meet the outage too.
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(ward.child.exitCode, null, ward.output().slice(-2000));
        assertUnavailable(await signup(ward));

        server.start();
        const took = await within(10_000, async () => (await signup(ward)).status === 200);
        assert.ok(took < 10_000, `served again after ${took} ms`);
        for (let i = 0; i < 6; i++) {
          assert.equal((await signup(ward)).status, 200);
          assert.equal((await call(ward.url, 'GET', '/readyz')).status, 200);
        }
        assert.equal(ward.child.exitCode, null);
        // No worker died and was replaced: the same processes rode the outage out.
        assert.doesNotMatch(ward.output(), /exited \(/);
      } finally {
        await ward.stop();
      }
    });
  }
});

// Bulk import as a job (issue 36), over real HTTP on SQLite and PostgreSQL: the body is taken whole
// (202, Location), the lines are applied in the background and `GET /api/v1/users/import/:jobId`
// shows the state, the counts as they grow, and the refused and skipped lines with their line number
// and code, a page at a time; a job whose process stopped beating is failed (`interrupted`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const NO_LIMITS = { rate_limits: { bulk_users: { limit: null } } };
type Job = Record<string, any>;

for (const engine of engines()) {
  describe(`management API: bulk import as a job (${engine})`, () => {
    let ward: TestWard;
    let token: string;
    let viewerToken: string;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT], account: NO_LIMITS });
      token = (await consoleToken(ward, 'manager')).token;
      viewerToken = (await consoleToken(ward, 'viewer')).token;
    });
    after(() => ward.close());

    const start = async (body: string, query = '', bearer = token) => {
      const res = await ward.fetch(`/api/v1/users/import/jobs${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as Job };
    };
    const read = async (path: string, bearer = token) => {
      const res = await ward.fetch(path, { headers: { authorization: `Bearer ${bearer}` } });
      return { status: res.status, body: (await res.json()) as Job };
    };
    const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    async function untilEnded(location: string, seen: Job[] = []): Promise<Job> {
      for (let i = 0; i < 600; i++) {
        const { status, body } = await read(location);
        assert.equal(status, 200, JSON.stringify(body));
        seen.push(body);
        if (body.status !== 'running') return body;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the job did not end');
    }

    it('answers 202 with the job, applies each line on its own, and lists the problems by line', async () => {
      const existing = `exists-${engine}@jobs.example`;
      await ward.registry.storage.users.create(
        {
          id: `pre-${engine}`,
          email: existing,
          phone_number: null,
          password_hash: null,
          given_name: null,
          family_name: null,
          email_verified: false,
          phone_number_verified: false,
          disabled: false,
          role: null,
        } as never,
        ward.clock.now(),
      );
      const body = ndjson([
        { email: `a-${engine}@jobs.example`, given_name: 'Ada' },
        'not json',
        { email: existing },
        { email: `b-${engine}@jobs.example`, password_hash: 'nope', password_hash_algorithm: 'bcrypt' },
        { email: `c-${engine}@jobs.example`, password_hash: 'x', password_hash_algorithm: 'rot13' },
        { email: `d-${engine}@jobs.example`, external_id: `d-${engine}` },
      ]);
      const res = await start(body);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.match(res.location ?? '', /^\/api\/v1\/users\/import\/[A-Za-z0-9_-]+$/);
      assert.equal(res.location, `/api/v1/users/import/${res.body.id}`);
      assert.ok(['running', 'done'].includes(res.body.status));
      const job = await untilEnded(res.location!);
      assert.equal(job.status, 'done', JSON.stringify(job));
      assert.deepEqual(
        [job.lines, job.created, job.updated, job.skipped, job.refused, job.lines_kept, job.lines_truncated],
        [6, 2, 0, 1, 3, 4, false],
      );
      assert.deepEqual(
        job.results.map((l: Job) => [l.line, l.status, l.code]),
        [
          [2, 'refused', 'invalid_json'],
          [3, 'skipped', 'exists'],
          [4, 'refused', 'malformed_password_hash'],
          [5, 'refused', 'unknown_hash_algorithm'],
        ],
      );
      assert.ok(job.finished_at);
      assert.ok(await ward.registry.storage.users.findByEmail(`a-${engine}@jobs.example`));
      assert.ok(await ward.registry.storage.users.findByEmail(`d-${engine}@jobs.example`));
      assert.equal(await ward.registry.storage.users.findByEmail(`b-${engine}@jobs.example`), undefined);
      // Pages: after_line and limit; next_after_line until the last page.
      const first = await read(`${res.location}?limit=2`);
      assert.deepEqual(
        first.body.results.map((l: Job) => l.line),
        [2, 3],
      );
      assert.equal(first.body.next_after_line, 3);
      const second = await read(`${res.location}?limit=2&after_line=${first.body.next_after_line}`);
      assert.deepEqual(
        second.body.results.map((l: Job) => l.line),
        [4, 5],
      );
      const third = await read(`${res.location}?limit=2&after_line=5`);
      assert.deepEqual([third.body.results, third.body.next_after_line], [[], undefined]);
      // Started and ended are audited (counts, never a line's content).
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ target: `import:${job.id}`, limit: 10 });
      assert.deepEqual(audit.map((a) => a.action).sort(), ['users.import_started', 'users.imported']);
      assert.doesNotMatch(JSON.stringify(audit), /jobs\.example/);
    });

    it('shows the progress while the job runs', async () => {
      const count = 3000;
      const lines = Array.from({ length: count }, (_, i) => ({ email: `p${i}-${engine}@jobs.example` }));
      const res = await start(ndjson(lines));
      assert.equal(res.status, 202);
      const seen: Job[] = [res.body];
      const job = await untilEnded(res.location!, seen);
      assert.deepEqual([job.status, job.lines, job.created], ['done', count, count]);
      assert.ok(
        seen.some((s) => s.status === 'running'),
        'seen running',
      );
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.lines >= seen[i - 1]!.lines, 'lines only grow');
    });

    it('refuses bad calls with a clear 4xx', async () => {
      const viewer = await start(ndjson([{ email: `v-${engine}@jobs.example` }]), '', viewerToken);
      assert.equal(viewer.status, 403);
      const unknown = await read('/api/v1/users/import/no-such-job');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error_message_key, 'error.notFound');
      const badQuery = await start(ndjson([{ email: `q-${engine}@jobs.example` }]), '?report=all');
      assert.equal(badQuery.status, 400);
      assert.ok(badQuery.body.error_message_key);
      const badPage = await read('/api/v1/users/import/x?limit=-1');
      assert.equal(badPage.status, 400);
      assert.equal((await read('/api/v1/users/import/no-such-job', viewerToken)).status, 403);
    });

    it('fails a job whose process stopped (not resumed)', async () => {
      const s = ward.registry.storage;
      const id = `dead-${engine}`;
      await s.userImportJobs.create({ id, mode: 'create', format: 'ndjson', actor: 'user:x', now: ward.clock.now() });
      assert.equal((await read(`/api/v1/users/import/${id}`)).body.status, 'running');
      ward.clock.advance(61_000);
      const job = await read(`/api/v1/users/import/${id}`);
      assert.equal(job.body.status, 'failed');
      assert.equal(job.body.error.code, 'interrupted');
      // And at start: the same rule (registry.ts runs it before serving).
      await s.userImportJobs.create({ id: `${id}-2`, mode: 'create', format: 'ndjson', actor: 'user:x', now: 0 });
      assert.equal(await ward.registry.importJobs.failInterrupted(), 1);
      assert.equal((await s.userImportJobs.find(`${id}-2`))!.error_code, 'interrupted');
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, any> };
      assert.ok(doc.paths['/api/v1/users/import/jobs']?.post?.responses?.['202']);
      assert.ok(doc.paths['/api/v1/users/import/{jobId}']?.get);
    });
  });
}

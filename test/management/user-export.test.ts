// Bulk export through the management API (SQLite and PostgreSQL): NDJSON in the import's shape,
// streamed; password hashes only with include_password_hashes=true and the export:secrets permission;
// and the round trip: exported from one Ward, imported into a fresh one, the users sign in there with
// the same passwords (a foreign bcrypt hash not yet replaced, and Ward's own argon2id after a sign-in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { fixtures } from '../helpers/foreign-hashes.js';
import { CONSOLE_CLIENT, clientCredentialsToken, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { exportUserLines, pagesOf, type ExportOptions } from '../../src/accounts/import/export-users.js';
import { prefetchedPages } from '../../src/accounts/import/tuning/export-prefetch.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const NO_LIMITS = {
  rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null }, bulk_users: { limit: null } },
};
const PASSWORD = 'the password they know';
/** A management client allowed password hashes in exports (export:secrets is no console role's). */
const EXPORTER = {
  client_id: 'exporter',
  type: 'confidential',
  client_secret: 'exporter-secret-of-at-least-32-bytes!!!',
  grant_types: ['client_credentials'],
  management_scopes: ['read:users', 'manage:users', 'export:secrets'],
};

for (const engine of engines()) {
  describe(`management API: bulk user export (${engine})`, () => {
    let source: TestWard;
    let target: TestWard;
    let admin: string;
    let manager: string;
    before(async () => {
      source = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT, EXPORTER], account: NO_LIMITS });
      target = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT, EXPORTER], account: NO_LIMITS });
      admin = await clientCredentialsToken(source, 'exporter', EXPORTER.client_secret);
      manager = (await consoleToken(source, 'manager')).token;
    });
    after(async () => {
      await source.close();
      await target.close();
    });

    const call = (ward: TestWard, token: string, path: string, init: { method?: string; body?: string } = {}) =>
      ward.fetch(path, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body ? { 'content-type': 'application/x-ndjson' } : {}),
        },
        body: init.body,
      });
    const login = (ward: TestWard, email: string, password: string) =>
      ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password }),
      });
    const lines = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));

    it('exports NDJSON in the import shape, hashes only with export:secrets; it imports into a fresh Ward', async () => {
      const { bcrypt_2b, pbkdf2_sha512 } = await fixtures(PASSWORD);
      const users = [
        {
          external_id: 'x-1',
          email: `kept-${engine}@export.example`,
          email_verified: true,
          given_name: 'Kept',
          nickname: 'k',
          password_hash: bcrypt_2b!.hash,
          password_hash_algorithm: 'bcrypt',
          identities: [{ provider: 'google', subject: `exp-${engine}` }],
          second_factors: [{ type: 'sms', destination: '+33612345678' }],
        },
        {
          email: `rehashed-${engine}@export.example`,
          password_hash: pbkdf2_sha512!.hash,
          password_hash_algorithm: 'pbkdf2',
        },
      ];
      const imported = await call(source, admin, '/api/v1/users/import', {
        method: 'POST',
        body: users.map((u) => JSON.stringify(u)).join('\n'),
      });
      assert.equal(((await imported.json()) as { created: number }).created, 2);
      assert.equal((await login(source, users[1]!.email, PASSWORD)).status, 200, 'rehashed to argon2id on the source');

      const plain = await call(source, manager, '/api/v1/users/export');
      assert.equal(plain.status, 200);
      assert.match(plain.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const exported = lines(await plain.text());
      const kept = exported.find((l) => l.email === users[0]!.email);
      assert.deepEqual(
        {
          ...kept,
          created_at: undefined,
        },
        {
          external_id: 'x-1',
          email: users[0]!.email,
          email_verified: true,
          blocked: false,
          given_name: 'Kept',
          nickname: 'k',
          identities: [{ provider: 'google', subject: `exp-${engine}` }],
          second_factors: [{ type: 'sms', destination: '+33612345678' }],
          created_at: undefined,
        },
      );
      assert.ok(
        exported.every((l) => l.password_hash === undefined),
        'no hash without include_password_hashes',
      );
      const refused = await call(source, manager, '/api/v1/users/export?include_password_hashes=true');
      assert.equal(refused.status, 403, 'a Manager lacks export:secrets');
      const adminToken = (await consoleToken(source, 'administrator')).token;
      const fromConsole = await call(source, adminToken, '/api/v1/users/export?include_password_hashes=true');
      assert.equal(fromConsole.status, 403, 'no console role holds export:secrets');

      const secret = await call(source, admin, '/api/v1/users/export?include_password_hashes=true');
      assert.equal(secret.status, 200);
      const withHashes = await secret.text();
      const byEmail = Object.fromEntries(lines(withHashes).map((l) => [l.email, l]));
      assert.equal(byEmail[users[0]!.email].password_hash, bcrypt_2b!.hash, 'the foreign hash as imported');
      assert.equal(byEmail[users[1]!.email].password_hash_algorithm, 'argon2');
      assert.match(byEmail[users[1]!.email].password_hash, /^\$argon2id\$/);
      const audit = await source.registry.storage.audit.list({ action: 'users.exported', limit: 10 });
      assert.ok(audit.some((e) => JSON.parse(e.details).include_password_hashes === true));

      const targetToken = (await consoleToken(target, 'manager')).token;
      const into = await call(target, targetToken, '/api/v1/users/import', { method: 'POST', body: withHashes });
      const report = (await into.json()) as { refused: number; created: number; results: unknown[] };
      assert.equal(report.refused, 0, JSON.stringify(report.results));
      for (const u of users) assert.equal((await login(target, u.email, PASSWORD)).status, 200, u.email);
      const moved = (await target.registry.storage.users.findByEmail(users[0]!.email))!;
      assert.equal((await target.registry.storage.identities.find('google', `exp-${engine}`))?.user_id, moved.id);
      assert.equal((await target.registry.storage.profiles.find(moved.id))?.nickname, 'k');
      const since = await call(
        source,
        manager,
        `/api/v1/users/export?updated_since=${new Date(Date.now() + 86_400_000).toISOString()}`,
      );
      assert.equal((await since.text()).trim(), '', 'updated_since filters');
    });

    it('reads page after page: every user once, in id order, a chunk of whole lines a page', async () => {
      const emails = ['pa', 'pb', 'pc', 'pd', 'pe'].map((p) => `${p}-pages-${engine}@export.example`);
      const res = await call(source, manager, '/api/v1/users/import', {
        method: 'POST',
        body: emails.map((email) => JSON.stringify({ email })).join('\n'),
      });
      assert.equal(res.status, 200, await res.text());
      const chunks: string[] = [];
      for await (const c of exportUserLines(source.registry, {
        since: null,
        includePasswordHashes: false,
        pageSize: 2,
      }))
        chunks.push(c);
      const all = (await source.registry.storage.userImport.exportPage(null, 10_000, null)).users.map((u) => u.email);
      const exported = chunks.flatMap((c) => {
        assert.match(c, /^(\{.*\}\n){1,2}$/, 'one or two whole lines');
        return lines(c).map((l) => l.email ?? null);
      });
      assert.deepEqual(exported, all, 'each user once, in id order');
      for (const e of emails) assert.ok(exported.includes(e), e);
    });

    it('gives the same lines page by page as at once, read one after another or one ahead', async () => {
      // Users whose rows in the other tables (identities, factors, external ids, profiles) fall on
      // every side of a page's bounds: each page reads them by its id range, or (filtered) by its ids.
      const users = ['qa', 'qb', 'qc', 'qd', 'qe', 'qf', 'qg'].map((p, i) => ({
        email: `${p}-same-${engine}@export.example`,
        ...(i % 2 ? { external_id: `same-${engine}-${p}`, nickname: `n-${p}` } : {}),
        ...(i % 3 ? { identities: [{ provider: 'google', subject: `same-${engine}-${p}` }] } : {}),
        ...(i % 3 === 1 ? { second_factors: [{ type: 'sms', destination: `+3361000000${i}` }] } : {}),
      }));
      const res = await call(source, manager, '/api/v1/users/import', {
        method: 'POST',
        body: users.map((u) => JSON.stringify(u)).join('\n'),
      });
      assert.equal(res.status, 200, await res.text());
      const text = async (opts: Partial<ExportOptions>) => {
        let out = '';
        for await (const c of exportUserLines(source.registry, { since: null, includePasswordHashes: false, ...opts }))
          out += c;
        return out;
      };
      const whole = await text({ pageSize: 10_000 });
      for (const u of users) assert.ok(whole.includes(u.email), u.email);
      assert.ok(whole.includes(`same-${engine}-qb`) && whole.includes('+33610000001'), 'rows of the other tables');
      const since = Date.now() - 3_600_000;
      const wholeSince = await text({ pageSize: 10_000, since });
      for (const pages of [pagesOf, prefetchedPages])
        for (const pageSize of [1, 2, 3]) {
          assert.equal(await text({ pageSize, pages }), whole, `${pages.name}, pages of ${pageSize}`);
          assert.equal(await text({ pageSize, pages, since }), wholeSince, `${pages.name}, ${pageSize}, filtered`);
        }
    });
  });
}

// Bulk import's body is a stream (SQLite and PostgreSQL): a 20,000-line NDJSON body, generated as it
// is sent, lands whole and answers a report without per-line results; the calls are rate-limited.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const NO_LIMITS = { rate_limits: { bulk_users: { limit: null } } };

for (const engine of engines()) {
  describe(`management API: a streamed bulk import (${engine})`, () => {
    let ward: TestWard;
    let token: string;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT], account: NO_LIMITS });
      token = (await consoleToken(ward, 'manager')).token;
    });
    after(() => ward.close());

    const importBody = async (body: string | Readable): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await ward.fetch('/api/v1/users/import', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: body as never,
        ...(typeof body === 'string' ? {} : { duplex: 'half' as const }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n');

    it('streams a 20,000-line body', async () => {
      const count = 20_000;
      async function* generate() {
        for (let i = 0; i < count; i++)
          yield `${JSON.stringify({ email: `bulk${i}-${engine}@import.example`, given_name: `Bulk ${i}`, external_id: `bulk-${engine}-${i}` })}\n`;
      }
      const started = Date.now();
      const res = await importBody(Readable.from(generate()));
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
      assert.deepEqual([res.body.lines, res.body.created, res.body.results.length], [count, count, 0]);
      assert.ok(await ward.registry.storage.users.findByEmail(`bulk${count - 1}-${engine}@import.example`));
      ward.logs.push(`imported ${count} lines in ${Date.now() - started} ms`);
    });

    it('is rate-limited per client IP (rate_limits.bulk_users)', async () => {
      ward.setAccount({ rate_limits: { bulk_users: { limit: 1, window_seconds: 3600 } } });
      try {
        await importBody(ndjson([{ email: `limited1-${engine}@import.example` }]));
        const second = await importBody(ndjson([{ email: `limited2-${engine}@import.example` }]));
        assert.equal(second.status, 429);
        assert.equal(await ward.registry.storage.users.findByEmail(`limited2-${engine}@import.example`), undefined);
      } finally {
        ward.setAccount({ rate_limits: { bulk_users: { limit: null } } });
      }
    });
  });
}

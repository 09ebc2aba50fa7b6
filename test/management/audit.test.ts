// GET /api/v1/audit paging: the cursor is the last event seen (before = its time, before_id = its id),
// so events that share one millisecond (a busy server, or a test's fake clock) are neither skipped
// nor repeated across pages; the filters target, since and until narrow the list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startWard, type TestWard } from '../helpers/ward.js';

type Event = { id: string; at: string; action: string; target: string | null; actor_id: string };

describe('management API audit paging and filters', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [CONSOLE_CLIENT] });
  });
  after(() => ward.close());

  it('pages through events of the same millisecond with before + before_id, none skipped or repeated', async () => {
    const { token, userId } = await consoleToken(ward, 'administrator');
    const a = api(ward, token);
    for (let i = 0; i < 7; i++) assert.equal((await a.get('/api/v1/clients')).status, 200);
    const all = (await a.get(`/api/v1/audit?actor=${userId}&action=clients.read&limit=100`)).body.events as Event[];
    assert.equal(all.length, 7);
    assert.equal(new Set(all.map((e) => e.at)).size, 1, 'the fake clock did not move: every event has the same time');

    const seen: Event[] = [];
    let query = '';
    for (let page = 0; page < 5; page++) {
      const r = await a.get(`/api/v1/audit?actor=${userId}&action=clients.read&limit=3${query}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const events = r.body.events as Event[];
      if (!events.length) break;
      seen.push(...events);
      const last = events[events.length - 1]!;
      query = `&before=${encodeURIComponent(last.at)}&before_id=${last.id}`;
    }
    assert.deepEqual(
      seen.map((e) => e.id),
      all.map((e) => e.id),
      'the pages together are the whole list, in order',
    );
    // The time alone as a cursor would lose the rest of the millisecond.
    const timeOnly = await a.get(
      `/api/v1/audit?actor=${userId}&action=clients.read&before=${encodeURIComponent(all[2]!.at)}`,
    );
    assert.equal(timeOnly.body.events.length, 0);
    assert.equal((await a.get('/api/v1/audit?before_id=../x')).status, 400);
  });

  it('filters by target and by a since / until window', async () => {
    const { token } = await consoleToken(ward, 'administrator');
    const a = api(ward, token);
    const t0 = ward.clock.now();
    ward.clock.advance(60_000);
    assert.equal((await a.post('/api/v1/site/keys', {})).status, 201);
    ward.clock.advance(60_000);
    assert.equal((await a.patch('/api/v1/settings/account', { access_token_ttl: 1800 })).status, 200);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

    const byTarget = (await a.get('/api/v1/audit?target=account')).body.events as Event[];
    assert.ok(byTarget.length >= 1 && byTarget.every((e) => e.target === 'account'));
    assert.ok(byTarget.some((e) => e.action === 'settings.updated'));

    const window = (await a.get(`/api/v1/audit?since=${iso(t0 + 30_000)}&until=${iso(t0 + 90_000)}`)).body
      .events as Event[];
    assert.deepEqual(
      [...new Set(window.map((e) => e.action))],
      ['key.rotated'],
      'only the rotation lies in the window',
    );
    const later = (await a.get(`/api/v1/audit?since=${iso(t0 + 90_000)}`)).body.events as Event[];
    assert.ok(later.some((e) => e.action === 'settings.updated') && !later.some((e) => e.action === 'key.rotated'));
  });
});

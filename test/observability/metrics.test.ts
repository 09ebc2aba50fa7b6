// /metrics from prom-client after real requests, on each engine: the process's default metrics,
// the HTTP histogram by route pattern and status, the database statement histogram by engine and
// kind, sign-ins by method and outcome, the back-channel logout queue's depth (and PostgreSQL's pool).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { metricValue, seriesOf } from '../helpers/metrics.js';
import { PUBLIC_CLIENT, passwordLogin, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`metrics from prom-client (${engine})`, () => {
    let ward: TestWard;
    const scrape = async () => {
      const res = await ward.fetch('/metrics');
      assert.equal(res.status, 200);
      return res.text();
    };
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT] });
    });
    after(() => ward.close());

    it('exposes the process, event-loop, HTTP, database and sign-in families with their labels', async () => {
      const user = await signup(ward, 'spa');
      const before = await scrape();
      await passwordLogin(ward, user.email, user.password);
      const wrong = await ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: user.email, password: 'not-the-password-1' }),
      });
      assert.equal(wrong.status, 400);
      const text = await scrape();
      const grew = (s: string) => metricValue(text, s) - metricValue(before, s);

      // prom-client's default metrics, once each.
      for (const family of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'ward_processes',
      ])
        assert.equal(text.match(new RegExp(`^# TYPE ${family} `, 'gm'))?.length, 1, family);
      assert.equal(metricValue(text, 'ward_processes'), 1);
      assert.ok(metricValue(text, 'process_resident_memory_bytes') > 10_000_000);

      // Requests by route pattern and status.
      const login = '{method="POST",route="/identity/v1/password/login",status="200"}';
      assert.equal(grew(`ward_http_request_duration_seconds_count${login}`), 1);
      assert.equal(
        grew(
          'ward_http_request_duration_seconds_count{method="POST",route="/identity/v1/password/login",status="400"}',
        ),
        1,
      );

      // Sign-ins by method and outcome (the sign-in audit's events).
      assert.equal(grew('ward_sign_ins_total{method="password",outcome="succeeded"}'), 1);
      assert.equal(grew('ward_sign_ins_total{method="password",outcome="failed"}'), 1);

      // Database statements by engine, kind and outcome: the sign-in read and wrote.
      const db = seriesOf(text, 'ward_db_query_duration_seconds_count');
      assert.ok(db.length > 0);
      for (const s of db) {
        assert.equal(s.labels.engine, engine);
        assert.match(
          s.labels.operation!,
          /^(select|insert|update|delete|with|begin|commit|rollback|savepoint|release|pragma|create|alter|drop|set|listen|notify|merge|other)$/,
        );
        assert.match(s.labels.outcome!, /^(ok|error)$/);
      }
      assert.ok(grew(`ward_db_query_duration_seconds_count{engine="${engine}",operation="select",outcome="ok"}`) >= 1);
      assert.ok(grew(`ward_db_query_duration_seconds_count{engine="${engine}",operation="insert",outcome="ok"}`) >= 1);
      const buckets = seriesOf(text, 'ward_db_query_duration_seconds_bucket').filter(
        (s) => s.labels.operation === 'select' && s.labels.outcome === 'ok',
      );
      assert.equal(
        buckets.find((b) => b.labels.le === '+Inf')?.value,
        metricValue(text, `ward_db_query_duration_seconds_count{engine="${engine}",operation="select",outcome="ok"}`),
      );

      if (engine === 'postgres') {
        const pool = seriesOf(text, 'ward_db_pool_connections')
          .map((s) => s.labels.state)
          .sort();
        assert.deepEqual(pool, ['busy', 'idle', 'waiting']);
      } else assert.doesNotMatch(text, /ward_db_pool_connections/);
      // Nothing of the user's in any label.
      assert.doesNotMatch(text, new RegExp(user.email.replace(/[.+]/g, '\\$&')));
    });

    it("gives the back-channel logout queue's depth", async () => {
      assert.equal(metricValue(await scrape(), 'ward_backchannel_logout_queue_depth'), 0);
      const now = Date.now();
      // Not due for an hour: the delivery loop leaves them where they are.
      const rows = [1, 2, 3].map((i) => ({
        id: `queued-${engine}-${i}`,
        client_id: 'spa',
        user_id: 'u-1',
        sid: `sid-${i}`,
        attempts: 0,
        next_attempt_at: now + 3_600_000,
        last_error: null,
        created_at: now,
      }));
      await ward.registry.storage.logoutDeliveries.enqueue(rows);
      assert.equal(metricValue(await scrape(), 'ward_backchannel_logout_queue_depth'), 3);
    });
  });
}

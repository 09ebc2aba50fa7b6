// Operations: /healthz, /readyz (database, keys, shutting down), Prometheus metrics at /metrics
// (request rate and latency per route, tokens issued, codes sent, verification failures, rate
// limits hit; loopback or the metrics token only), request ids in the answers and in the JSON log
// lines (never a query string).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT, codeFor, redeem, signup } from '../helpers/oauth.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { emailCode, mfaUser, stepUpOf, verify, wrong } from '../stepup/support.js';
import { metricValue } from '../helpers/metrics.js';
import { startWard } from '../helpers/ward.js';

describe('operations endpoints and metrics', () => {
  let m: MfaWard;
  const metrics = async (headers: Record<string, string> = {}) => {
    const res = await m.ward.fetch('/metrics', { headers });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: {
        rate_limits: { signup: { limit: 3, window_seconds: 600 }, login: { limit: null }, token: { limit: null } },
      },
    });
  });
  after(() => m.close());

  it('answers /healthz and /readyz with the checks named', async () => {
    const h = await m.ward.fetch('/healthz');
    assert.equal(h.status, 200);
    assert.deepEqual(await h.json(), { status: 'ok' });
    const r = await m.ward.fetch('/readyz');
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      status: 'ready',
      checks: { database: true, keys: true, accepting: true, schema: true },
    });
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });

  it('counts requests per route pattern with their latency, and tokens by grant', async () => {
    const before = (await metrics()).text;
    const series = 'ward_http_request_duration_seconds_count{method="POST",route="/oauth/token",status="200"}';
    const { code, verifier } = await codeFor(m.ward);
    const tokens = await redeem(m.ward, code, verifier);
    assert.equal(tokens.res.status, 200);
    assert.ok(tokens.body.id_token);
    const after = await metrics();
    assert.equal(after.status, 200);
    assert.match(after.type ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(metricValue(after.text, series), metricValue(before, series) + 1);
    assert.match(after.text, /# TYPE ward_http_request_duration_seconds histogram/);
    assert.ok(
      metricValue(
        after.text,
        'ward_http_request_duration_seconds_bucket{method="POST",route="/oauth/token",status="200",le="+Inf"}',
      ) >= 1,
    );
    for (const token of ['access_token', 'id_token']) {
      const s = `ward_tokens_issued_total{grant_type="authorization_code",token="${token}"}`;
      assert.equal(metricValue(after.text, s), metricValue(before, s) + 1, s);
    }
    // Path parameters and unknown paths never become label values of their own.
    await m.ward.fetch('/api/v1/clients/some-client-id-1234');
    await m.ward.fetch('/no/such/path/abc123');
    const text = (await metrics()).text;
    assert.match(text, /route="\/api\/v1\/clients\/:clientId"/);
    assert.match(text, /route="unmatched",status="404"/);
    assert.doesNotMatch(text, /some-client-id-1234|abc123/);
  });

  it('counts codes sent, verification failures and rate limits hit', async () => {
    const before = (await metrics()).text;
    const user = await mfaUser(m);
    const stepUp = await stepUpOf(m, user);
    const { challengeId, code } = await emailCode(m, user, stepUp.token);
    assert.equal((await verify(m, challengeId, wrong(code))).status, 400);
    for (let i = 0; i < 4; i++) await signup(m.ward).catch(() => undefined);
    const text = (await metrics()).text;
    const grew = (s: string) => metricValue(text, s) - metricValue(before, s);
    assert.equal(grew('ward_verification_codes_sent_total{channel="email"}'), 1);
    assert.equal(grew('ward_verification_failures_total'), 1);
    assert.ok(grew('ward_rate_limited_total{limit="signup"}') >= 1);
    assert.ok(grew('ward_security_events_total{event="mfa.stepup_started"}') >= 1);
    assert.equal(metricValue(text, 'ward_processes'), 1);
    assert.ok(metricValue(text, 'process_resident_memory_bytes') > 10_000_000);
  });

  it('gives /metrics only to loopback callers, or to the holder of the metrics token when one is set', async () => {
    const config = m.ward.registry.config as { metricsToken: string | null };
    config.metricsToken = 'metrics-token-0123456789';
    try {
      const none = await metrics();
      assert.equal(none.status, 403);
      assert.equal(JSON.parse(none.text).error_message_key, 'error.forbidden');
      assert.equal((await metrics({ authorization: 'Bearer not-the-token-000000' })).status, 403);
      assert.equal((await metrics({ authorization: 'Bearer metrics-token-0123456789' })).status, 200);
    } finally {
      config.metricsToken = null;
    }
  });

  it('echoes a sane X-Request-Id (or a fresh one) and logs one line per request with it and no query string', async () => {
    const given = await m.ward.fetch('/jwks.json?client_id=spa&secret=do-not-log-me', {
      headers: { 'x-request-id': 'trace-abc-12345' },
    });
    assert.equal(given.headers.get('x-request-id'), 'trace-abc-12345');
    const odd = await m.ward.fetch('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const line = m.ward.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.reqId === 'trace-abc-12345' && l.msg === 'request');
    assert.ok(line, 'an access-log line carries the request id');
    assert.equal(line.route, '/jwks.json');
    assert.equal(line.path, '/jwks.json');
    assert.equal(line.status, 200);
    assert.ok(!m.ward.logs.some((l) => l.includes('do-not-log-me')));
  });
});

describe('/readyz when the database is gone', () => {
  it('answers 503 naming the failed check', async () => {
    const ward = await startWard();
    try {
      await ward.registry.db.close();
      const res = await ward.fetch('/readyz');
      assert.equal(res.status, 503);
      const body = (await res.json()) as { status: string; checks: Record<string, boolean> };
      assert.equal(body.status, 'not_ready');
      assert.equal(body.checks.database, false);
      assert.equal(body.checks.keys, true);
      assert.equal((await ward.fetch('/healthz')).status, 200, 'liveness does not depend on the database');
    } finally {
      await ward.close().catch(() => undefined);
    }
  });
});

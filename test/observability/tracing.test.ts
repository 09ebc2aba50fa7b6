// OpenTelemetry traces over OTLP/HTTP to a local receiver (a plain HTTP server on loopback taking
// POST /v1/traces in OTLP's JSON encoding, the exporter's): a sign-in on the hosted login page gives a
// server span per request with its route pattern and status, the interaction id (its stored digest,
// never the handle) once known, and one span per database statement under the request's span. No
// secret in anything exported: not the password, the interaction handle, the CSRF token or the code.
// Without OTEL_EXPORTER_OTLP_ENDPOINT there is no tracing at all.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/lib/secrets.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** The collector's side of OTLP/HTTP: every body posted to /v1/traces, as received. */
async function otlpReceiver(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
      assert.match(req.headers['content-type'] ?? '', /^application\/json/);
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

for (const engine of engines()) {
  describe(`OpenTelemetry traces to an OTLP/HTTP receiver (${engine})`, () => {
    let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
    let ward: TestWard;
    before(async () => {
      receiver = await otlpReceiver();
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'ward-under-test' },
      });
    });
    after(async () => {
      await ward.close();
      receiver.server.close();
    });

    it('exports a span per request and per statement of a sign-in, with the interaction id and no secret', async () => {
      const user = await signup(ward, 'spa');
      const browser = new Browser(ward);
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: 'st-1',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(page.status, 200);
      const html = await page.text();
      const handle = /name="interaction" value="([^"]+)"/.exec(html)![1]!;
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
      const posted = await submitLoginPage(browser, html, user.email, user.password);
      assert.equal(posted.status, 303);
      const code = new URL(posted.headers.get('location')!).searchParams.get('code');
      assert.ok(code);
      // The login's span ends when its answer has left (onResponse): flushed once it has.
      const exportedSpans = () => receiver.bodies.flatMap((b) => (JSON.parse(b) as OtlpExport).resourceSpans);
      for (let i = 0; i < 50; i++) {
        await ward.registry.tracing!.flush();
        const done = exportedSpans().some((r) =>
          r.scopeSpans.some((x) => x.spans.some((sp) => attr(sp, 'http.route') === '/oauth/authorize/login')),
        );
        if (done) break;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      const resources = exportedSpans();
      assert.ok(
        resources.every((r) =>
          r.resource.attributes.some((a) => a.key === 'service.name' && a.value.stringValue === 'ward-under-test'),
        ),
      );
      const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));

      // The login form's POST: a server span with the route pattern, the status and the interaction id.
      const login = spans.find((s) => attr(s, 'http.route') === '/oauth/authorize/login');
      assert.ok(login, `no span of the login POST among ${spans.map((s) => s.name).join(', ')}`);
      assert.equal(login.name, 'POST /oauth/authorize/login');
      assert.equal(login.kind, 2, 'SERVER');
      assert.equal(login.parentSpanId ?? '', '');
      assert.equal(attr(login, 'http.request.method'), 'POST');
      assert.equal(attr(login, 'http.response.status_code'), 303);
      assert.equal(attr(login, 'ward.interaction.id'), sha256(handle));
      // The authorize GET that opened the interaction carries its id too.
      const authorize = spans.find((s) => attr(s, 'http.route') === '/oauth/authorize' && s.kind === 2);
      assert.equal(attr(authorize!, 'http.response.status_code'), 200);
      assert.equal(attr(authorize!, 'ward.interaction.id'), sha256(handle));

      // Its database statements: client spans under it, of this engine, with their kind and text.
      const statements = spans.filter((s) => s.parentSpanId === login.spanId);
      assert.ok(statements.length >= 3, `statements under the login: ${statements.length}`);
      for (const s of statements) {
        assert.equal(s.kind, 3, 'CLIENT');
        assert.equal(s.traceId, login.traceId);
        assert.equal(attr(s, 'db.system.name'), engine === 'postgres' ? 'postgresql' : 'sqlite');
        assert.equal(s.name, attr(s, 'db.operation.name'));
        assert.ok(String(attr(s, 'db.query.text')).length > 0);
      }
      assert.ok(statements.some((s) => s.name === 'select'));
      assert.ok(statements.some((s) => s.name === 'update' || s.name === 'insert'));

      // No secret anywhere in what was exported.
      const all = receiver.bodies.join('\n');
      for (const secret of [user.password, handle, csrf, code, encodeURIComponent(user.password)])
        assert.ok(!all.includes(secret), `a secret was exported: ${secret.slice(0, 4)}...`);
      // No header, query string or full URL was recorded (only the route pattern and method).
      for (const key of new Set(spans.flatMap((sp) => sp.attributes.map((a) => a.key))))
        assert.doesNotMatch(key, /header|url\.(query|full|path)|cookie/, key);
    });
  });
}

describe('OpenTelemetry: outbound calls', () => {
  it('gives each call of the guarded client a client span: method, host, port, status; never the path or query', async () => {
    const receiver = await otlpReceiver();
    const ward = await startWard({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    try {
      const res = await ward.registry.outbound.fetch(`${receiver.url}/elsewhere/private-path?code=outbound-secret-42`);
      assert.equal(res.status, 404);
      let call: OtlpSpan | undefined;
      for (let i = 0; i < 50 && !call; i++) {
        await ward.registry.tracing!.flush();
        call = receiver.bodies
          .flatMap((b) => (JSON.parse(b) as OtlpExport).resourceSpans)
          .flatMap((r) => r.scopeSpans.flatMap((x) => x.spans))
          .find((sp) => sp.kind === 3 && attr(sp, 'http.request.method') === 'GET');
        if (!call) await new Promise((ok) => setTimeout(ok, 100));
      }
      assert.ok(call, 'no outbound span');
      assert.equal(call.name, 'GET');
      assert.equal(attr(call, 'server.address'), '127.0.0.1');
      assert.equal(attr(call, 'server.port'), Number(new URL(receiver.url).port));
      assert.equal(attr(call, 'http.response.status_code'), 404);
      const all = receiver.bodies.join('\n');
      assert.ok(!all.includes('outbound-secret-42') && !all.includes('private-path'));
    } finally {
      await ward.close();
      receiver.server.close();
    }
  });
});

describe('no tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('builds no tracer, and the documents are answered as usual', async () => {
    const ward = await startWard({ clients: [PUBLIC_CLIENT] });
    try {
      assert.equal(ward.registry.tracing, null);
      assert.equal(ward.registry.config.otlpEndpoint, null);
      assert.equal((await ward.fetch('/jwks.json')).status, 200);
    } finally {
      await ward.close();
    }
  });
});

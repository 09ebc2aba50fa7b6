// B10: signups with one webhook endpoint (user.created) and one before.signup hook, both on loopback
// in this process. The receiver records each event's delivery lag: its arrival time minus the event's
// `timestamp` (the change's time; Ward and the bench share the machine's clock). Printed after each
// run: p50 and p99 of the events delivered during the run, and how many were still queued at its end.
// B10s is the same signups without them (the baseline).
import { createServer, type Server } from 'node:http';
import type { Flow } from './flow.js';
import { json, send } from './http.js';
import { adminHeaders, PASSWORD, SCOPE, SPA } from './flows-ward.js';

const JSONH = { 'content-type': 'application/json' };

export interface WebhookLoad {
  flow: Flow;
  beforeRun(): Promise<void>;
  settle(): void;
}

function listen(handle: (body: string) => string | null): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const answer = handle(body);
      if (answer === null) res.writeHead(204).end();
      else res.writeHead(200, JSONH).end(answer);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/h` }),
    ),
  );
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Registers the endpoint and the hook through the management API (bench-admin) and answers B10's flow. */
export async function webhookLoad(url: string, adminSecret: string, tag: string, wired = true): Promise<WebhookLoad> {
  let lags: number[] = [];
  let delivered = 0;
  let signups = 0;
  const receiver = await listen((body) => {
    const e = json<{ type: string; timestamp: string }>(body);
    if (e.type === 'user.created') {
      delivered++;
      lags.push(Date.now() - Date.parse(e.timestamp));
    }
    return null;
  });
  const hook = await listen(() => '{"decision":"allow"}');
  receiver.server.unref();
  hook.server.unref();
  const auth = await adminHeaders(url, adminSecret, 'manage:webhooks', 'B10');
  const made = [
    await send(url, {
      method: 'POST',
      path: '/api/v1/webhooks',
      headers: auth,
      body: JSON.stringify({ url: receiver.url, events: ['user.created'], description: 'bench B10' }),
    }),
    await send(url, {
      method: 'POST',
      path: '/api/v1/hooks',
      headers: auth,
      body: JSON.stringify({ url: hook.url, event: 'before.signup', description: 'bench B10' }),
    }),
  ];
  for (const m of made) if (m.status !== 201) throw new Error(`B10 setup: ${m.status} ${m.body}`);
  // B10s, the baseline: the same signups with neither (removed again, so the two compare).
  if (!wired)
    for (const m of made) {
      const { id } = json<{ id: string }>(m.body);
      const kind = m.body.includes('"event"') ? 'hooks' : 'webhooks';
      const del = await send(url, {
        method: 'DELETE',
        path: `/api/v1/${kind}/${id}`,
        headers: { authorization: auth.authorization },
      });
      if (del.status !== 204) throw new Error(`B10s setup: ${del.status} ${del.body}`);
    }

  let n = 0;
  const flow: Flow = {
    name: 'signup with a webhook and a hook',
    steps: [
      {
        name: 'signup',
        expect: [200],
        build: () => ({
          method: 'POST',
          path: '/identity/v1/signup',
          headers: JSONH,
          body: JSON.stringify({
            client_id: SPA,
            scope: SCOPE,
            data: { email: `b10-${tag}-${n++}@example.com`, password: PASSWORD, given_name: 'Ada' },
          }),
        }),
        after: () => {
          signups++;
          return true;
        },
      },
    ],
  };
  return {
    flow,
    async beforeRun() {
      // The previous run's backlog drains first (at most 60 s), so each run's lags are its own.
      for (let i = 0; wired && i < 600 && delivered < signups; i++) await new Promise((r) => setTimeout(r, 100));
      lags = [];
    },
    settle() {
      if (!wired || !lags.length) return;
      process.stdout.write(
        `  B10 delivery lag (event to receiver) over ${lags.length} events delivered during the run: ` +
          `p50 ${pct(lags, 50).toFixed(0)} ms, p99 ${pct(lags, 99).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms; ` +
          `${Math.max(0, signups - delivered)} still queued when the load stopped\n`,
      );
    },
  };
}

// The Messenger webhook kit against the checklist's WH-01..WH-08: the verification handshake,
// X-Hub-Signature-256 over the raw bytes, object != page, a 200 in well under a second while Ward's
// token endpoint takes 30 s, duplicate deliveries processed once, batched entries, and a crash of the
// bot process after the 200 (SIGKILL mid-exchange) with the event processed after a restart.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createNodeListener, signBody, type MessengerWebhook } from '../../src/messenger-kit/index.js';
import { MessengerSimulator } from '../helpers/messenger-sim.js';
import { waitForOutput } from '../helpers/processes.js';
import {
  APP_SECRET,
  CALLBACK_BASE,
  CLIENT_ID,
  FakeWard,
  VERIFY_TOKEN,
  makeKit,
  tempQueuePath,
  tokenRequestsReach,
} from './support.js';

async function serve(kit: MessengerWebhook): Promise<{ url: string; server: Server }> {
  const server = createServer(createNodeListener(kit, { path: '/webhook' }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhook`, server };
}
const sim = (webhookUrl: string, extra = {}) =>
  new MessengerSimulator({ appSecret: APP_SECRET, webhookUrl, deliveryTimeoutMs: 2000, maxDeliveries: 1, ...extra });

describe('Messenger webhook kit: WH-01..WH-08', () => {
  let ward: FakeWard;
  before(async () => {
    ward = await new FakeWard().start();
  });
  after(() => ward.close());

  it('WH-01/WH-02: the handshake echoes hub.challenge as text/plain only for subscribe + the right token', async () => {
    const { kit } = makeKit(ward);
    const { url, server } = await serve(kit);
    try {
      const ok = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=12345`);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(await ok.text(), '12345');
      const refused = [
        `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=%3Cscript%3Ealert(1)%3C%2Fscript%3E`,
        `hub.mode=subscribe&hub.challenge=%3Cscript%3E`,
        `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`,
        `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.verify_token=x&hub.challenge=%3Cscript%3E`,
        `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN.toUpperCase()}&hub.challenge=%3Cscript%3E`,
      ];
      for (const q of refused) {
        const res = await fetch(`${url}?${q}`);
        assert.equal(res.status, 403, q);
        const body = await res.text();
        assert.equal(body, 'Forbidden', q);
        assert.ok(!body.includes('script'));
      }
      // The handler itself, with a parsed query object (Fastify / Express style).
      assert.deepEqual(
        kit.handleVerification({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': 'abc' }),
        { status: 200, contentType: 'text/plain; charset=utf-8', body: 'abc' },
      );
    } finally {
      server.close();
      await kit.close();
    }
  });

  it('WH-03/WH-04: only a lowercase sha256 HMAC of the raw bytes passes; nothing refused is queued', async () => {
    const { kit } = makeKit(ward, { autoStart: false });
    // Raw bytes with a literal é and a \u00e9 escape: re-serialising changes them, so a signature over
    // JSON.stringify(JSON.parse(raw)) must not pass.
    const raw = Buffer.from(
      '{"object":"page","entry":[{"id":"P","time":1,"messaging":[{"sender":{"id":"psid-é"},"recipient":{"id":"P"},"timestamp":1,"message":{"mid":"m1","text":"caf\\u00e9 é"}}]}]}',
      'utf8',
    );
    const reserialised = JSON.stringify(JSON.parse(raw.toString('utf8')));
    assert.notEqual(reserialised, raw.toString('utf8'));
    const good = signBody(raw, APP_SECRET);
    const hex = good.slice('sha256='.length);
    const sha1 = `sha1=${(await import('node:crypto')).createHmac('sha1', APP_SECRET).update(raw).digest('hex')}`;
    const refused: Array<[string, Record<string, string | string[]>]> = [
      ['no header', {}],
      ['bare sha256', { 'x-hub-signature-256': 'sha256' }],
      ['empty sha256=', { 'x-hub-signature-256': 'sha256=' }],
      ['md5=', { 'x-hub-signature-256': `md5=${hex}` }],
      ['uppercase hex', { 'x-hub-signature-256': `sha256=${hex.toUpperCase()}` }],
      ['truncated', { 'x-hub-signature-256': good.slice(0, -2) }],
      ['too long', { 'x-hub-signature-256': `${good}00` }],
      ['legacy sha1 only', { 'x-hub-signature': sha1 }],
      ['re-serialised body', { 'x-hub-signature-256': signBody(reserialised, APP_SECRET) }],
      ['other secret', { 'x-hub-signature-256': signBody(raw, 'another-secret') }],
      ['repeated header', { 'x-hub-signature-256': [good, good] }],
    ];
    for (const [name, headers] of refused) {
      assert.deepEqual(
        kit.handleEvent(raw, headers),
        { status: 403, contentType: 'text/plain; charset=utf-8', body: 'Forbidden' },
        name,
      );
    }
    assert.deepEqual(kit.stats(), { pending: 0, done: 0, failed: 0 });
    assert.equal(kit.handleEvent(raw, { 'X-Hub-Signature-256': good }).status, 200);
    assert.equal(kit.handleEvent(raw, new Headers({ 'x-hub-signature-256': good })).body, 'EVENT_RECEIVED');
    assert.deepEqual(kit.stats(), { pending: 1, done: 0, failed: 0 }); // the second was a duplicate
    await kit.close();
  });

  it('WH-04 over HTTP: the node:http adapter hands the unmodified bytes (\\u-escaped deliveries pass)', async () => {
    const { kit, rec } = makeKit(ward);
    const { url, server } = await serve(kit);
    try {
      const s = sim(url, { escapeUnicode: true });
      const r = await s.deliver(s.envelope([s.item('psid-1', { message: { mid: 'm-esc', text: 'café é' } })]));
      assert.ok(r.body.includes('caf\\u00e9'));
      assert.deepEqual(
        r.attempts.map((a) => a.status),
        [200],
      );
      await kit.drain();
      assert.equal(rec.messages[0].message?.text, 'café é');
    } finally {
      server.close();
      await kit.close();
    }
  });

  it('WH-05: a signed delivery for another object is answered 200 IGNORED and nothing is processed', async () => {
    const { kit, rec } = makeKit(ward);
    const raw = Buffer.from(
      JSON.stringify({
        object: 'instagram',
        entry: [
          {
            id: 'P',
            time: 1,
            messaging: [{ sender: { id: 'x' }, recipient: { id: 'P' }, message: { mid: 'm', text: 'hi' } }],
          },
        ],
      }),
    );
    assert.deepEqual(kit.handleEvent(raw, { 'x-hub-signature-256': signBody(raw, APP_SECRET) }), {
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'IGNORED',
    });
    const bad = Buffer.from('{"object":"page","entry":{}}');
    assert.equal(kit.handleEvent(bad, { 'x-hub-signature-256': signBody(bad, APP_SECRET) }).status, 400);
    await kit.drain();
    assert.deepEqual(kit.stats(), { pending: 0, done: 0, failed: 0 });
    assert.equal(rec.messages.length, 0);
    await kit.close();
  });

  it('WH-06: answers 200 well under a second while the token endpoint takes 30 s (and when Ward is down)', async () => {
    const slow = await new FakeWard().start();
    slow.mode = 'slow';
    const { kit, rec } = makeKit(slow);
    const { url, server } = await serve(kit);
    try {
      const s = sim(url);
      const arrived = tokenRequestsReach(slow, 1);
      const r = await s.sendLinked('psid-slow', slow.issue());
      assert.deepEqual(
        r.attempts.map((a) => a.status),
        [200],
      );
      assert.ok(r.attempts[0].ms < 1000, `answered in ${r.attempts[0].ms} ms`);
      await arrived; // processing started after the answer and is still waiting on the token endpoint
      assert.equal(rec.linked.length, 0);
      assert.deepEqual(kit.stats(), { pending: 1, done: 0, failed: 0 });
    } finally {
      server.close();
      await kit.close(); // aborts the exchange: the item stays pending for the next start
      await slow.close();
    }
    // Ward down: nothing listens at the issuer.
    const down = makeKit(Object.assign(new FakeWard(), { url: 'http://127.0.0.1:9' }), { retryBaseMs: 60_000 });
    const served = await serve(down.kit);
    const r = await sim(served.url).sendLinked('psid-down', 'code-x');
    assert.deepEqual(
      r.attempts.map((a) => a.status),
      [200],
    );
    assert.ok(r.attempts[0].ms < 1000);
    served.server.close();
    await down.kit.close();
  });

  it('WH-07: a redelivered event is processed once (one exchange, one onLinked); a spent code fails without unlinking', async () => {
    const { kit, rec } = makeKit(ward);
    const { url, server } = await serve(kit);
    try {
      const s = sim(url);
      const before = ward.tokenRequests.length;
      const code = ward.issue({ sub: 'user-dup' });
      const payload = s.envelope([
        s.item('psid-dup', { account_linking: { status: 'linked', authorization_code: code } }),
      ]);
      await Promise.all([s.deliver(payload), s.deliver(payload)]);
      await kit.drain();
      // The platform retries the same code in a new envelope (other timestamp), after processing too.
      await s.sendLinked('psid-dup', code);
      await s.deliver(payload);
      await kit.drain();
      assert.equal(ward.tokenRequests.length - before, 1);
      assert.deepEqual(
        rec.linked.map((l) => [l.psid, l.profile.sub]),
        [['psid-dup', 'user-dup']],
      );
      // A code already spent elsewhere: invalid_grant is recorded once, never retried, no unlink.
      const spent = ward.issue({ sub: 'user-spent' });
      await fetch(`${ward.url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: spent,
          client_id: CLIENT_ID,
          redirect_uri: CALLBACK_BASE,
        }),
      });
      const mark = ward.tokenRequests.length;
      await s.sendLinked('psid-spent', spent);
      await kit.drain();
      await kit.drain();
      assert.equal(ward.tokenRequests.length - mark, 1);
      assert.deepEqual(
        rec.failed.map((f) => [f.psid, f.kind, f.attempts]),
        [['psid-spent', 'linked', 1]],
      );
      assert.match(rec.failed[0].error, /invalid_grant/);
      assert.deepEqual(
        kit.failures().map((f) => f.psid),
        ['psid-spent'],
      );
      assert.deepEqual(rec.unlinked, []);
      assert.deepEqual(
        rec.linked.map((l) => l.psid),
        ['psid-dup'],
      );
      assert.deepEqual(kit.stats(), { pending: 0, done: 1, failed: 1 });
    } finally {
      server.close();
      await kit.close();
    }
  });

  it('WH-08: every item of every batched entry is handled, in order per PSID', async () => {
    const { kit, rec } = makeKit(ward);
    const s = sim('http://unused.invalid');
    const payload = s.envelope(
      [
        s.item('psid-a', { account_linking: { status: 'linked', authorization_code: ward.issue({ sub: 'user-a' }) } }),
        s.item('psid-b', { message: { mid: 'm-b', text: 'hello' } }),
        s.item('psid-a', { account_linking: { status: 'unlinked' } }),
        s.item('psid-c', { account_linking: { status: 'linked', authorization_code: ward.issue({ sub: 'user-c' }) } }),
      ],
      2,
    );
    assert.equal((payload.entry as unknown[]).length, 2);
    const raw = Buffer.from(JSON.stringify(payload));
    assert.equal(kit.handleEvent(raw, { 'x-hub-signature-256': signBody(raw, APP_SECRET) }).status, 200);
    await kit.drain();
    assert.deepEqual(rec.linked.map((l) => [l.psid, l.profile.sub]).sort(), [
      ['psid-a', 'user-a'],
      ['psid-c', 'user-c'],
    ]);
    assert.deepEqual(
      rec.messages.map((m) => m.message?.text),
      ['hello'],
    );
    assert.deepEqual(rec.unlinked, ['psid-a']);
    assert.ok(rec.order.indexOf('linked:psid-a') < rec.order.indexOf('unlinked:psid-a'));
    assert.deepEqual(kit.stats(), { pending: 0, done: 4, failed: 0 });
    await kit.close();
  });

  it('crash after the 200: a SIGKILLed bot loses nothing; the restarted kit processes the event once', async () => {
    const held = await new FakeWard().start();
    held.mode = 'hold';
    const queuePath = tempQueuePath();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./kit-process.ts', import.meta.url))],
      {
        env: { ...process.env, MESSENGER_QUEUE: queuePath, MESSENGER_ISSUER: held.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const output = await waitForOutput(child, 'LISTENING');
      const port = /LISTENING (\d+)/.exec(output())![1];
      const code = held.issue({ sub: 'user-crash', email: 'crash@example.com' });
      const arrived = tokenRequestsReach(held, 1);
      const r = await sim(`http://127.0.0.1:${port}/webhook`).sendLinked('psid-crash', code);
      assert.deepEqual(
        r.attempts.map((a) => a.status),
        [200],
      );
      await arrived; // the child is mid-exchange
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      assert.ok(!output().includes('LINKED'));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    held.mode = 'ok';
    const { kit, rec } = makeKit(held, { queuePath });
    await kit.drain();
    assert.deepEqual(
      rec.linked.map((l) => [l.psid, l.profile.sub, l.profile.email]),
      [['psid-crash', 'user-crash', 'crash@example.com']],
    );
    assert.deepEqual(kit.stats(), { pending: 0, done: 1, failed: 0 });
    await kit.close();
    await held.close();
  });
});

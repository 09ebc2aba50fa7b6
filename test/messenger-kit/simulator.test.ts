// The Messenger platform simulator itself (test/helpers/messenger-sim.ts): the Log In button URL, the
// callback rules (known token, once, 5 minutes, a code or nothing delivered), and the redelivery when
// the bot does not answer 200 in time, which the kit then processes once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createNodeListener } from '../../src/messenger-kit/index.js';
import { MessengerSimulator } from '../helpers/messenger-sim.js';
import { APP_SECRET, FakeWard, makeKit } from './support.js';

describe('Messenger platform simulator', () => {
  let ward: FakeWard;
  before(async () => {
    ward = await new FakeWard().start();
  });
  after(() => ward.close());

  it('builds the Log In URL from the button URL, in both spellings of the callback', () => {
    for (const [spelling, base] of [
      ['meta', 'https://www.facebook.com/messenger_platform/account_linking'],
      ['reachfive', 'https://facebook.com/messenger_platform/account_linking/'],
    ] as const) {
      const sim = new MessengerSimulator({ appSecret: APP_SECRET, webhookUrl: 'http://127.0.0.1:9/webhook', spelling });
      const b = sim.logInButton('psid-1', 'https://bot.example/link?nonce=n1');
      const url = new URL(b.url);
      assert.equal(`${url.origin}${url.pathname}`, 'https://bot.example/link');
      assert.deepEqual([...url.searchParams.keys()], ['nonce', 'redirect_uri', 'account_linking_token']);
      assert.equal(url.searchParams.get('account_linking_token'), b.accountLinkingToken);
      assert.equal(url.searchParams.get('redirect_uri'), `${base}?account_linking_token=${b.accountLinkingToken}`);
      assert.match(b.accountLinkingToken, /^[A-Za-z0-9_-]{32}$/);
    }
  });

  it('delivers only a code that came back on a known, unexpired token, once', async () => {
    let t = Date.now();
    const sim = new MessengerSimulator({
      appSecret: APP_SECRET,
      webhookUrl: 'http://127.0.0.1:9/webhook',
      now: () => t,
      maxDeliveries: 1,
    });
    const a = sim.logInButton('psid-a', 'https://bot.example/link');
    assert.deepEqual(await sim.receiveRedirect(`${a.redirectUri}&error=access_denied`), {
      psid: 'psid-a',
      error: 'access_denied',
    });
    await assert.rejects(sim.receiveRedirect(`${a.redirectUri}&authorization_code=c1`), /unknown or repeated/);
    await assert.rejects(
      sim.receiveRedirect(
        'https://www.facebook.com/messenger_platform/account_linking?account_linking_token=forged&authorization_code=c',
      ),
      /unknown/,
    );
    await assert.rejects(
      sim.receiveRedirect('https://evil.example/messenger_platform/account_linking?account_linking_token=x'),
      /not a Messenger callback/,
    );
    const b = sim.logInButton('psid-b', 'https://bot.example/link');
    t += 5 * 60 * 1000 + 1;
    assert.deepEqual(await sim.receiveRedirect(`${b.redirectUri}&authorization_code=c2`), {
      psid: 'psid-b',
      error: 'account_linking_token expired',
    });
    assert.equal(sim.deliveries.length, 0);
  });

  it('redelivers when the bot does not answer 200 within the timeout; the kit processes the event once', async () => {
    const { kit, rec } = makeKit(ward);
    const listener = createNodeListener(kit);
    let calls = 0;
    // The first call is stored by the kit but its answer never leaves (a bot too slow to answer).
    const server = createServer((req, res: ServerResponse) => {
      if (++calls === 1) res.end = (() => res) as typeof res.end;
      listener(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const sim = new MessengerSimulator({
        appSecret: APP_SECRET,
        webhookUrl,
        deliveryTimeoutMs: 300,
        maxDeliveries: 3,
      });
      const r = await sim.sendLinked('psid-slow-bot', ward.issue({ sub: 'user-slow-bot' }));
      assert.deepEqual(
        r.attempts.map((a) => a.status ?? a.error),
        ['timeout', 200],
      );
      assert.equal(r.delivered, true);
      await kit.drain();
      assert.deepEqual(
        rec.linked.map((l) => [l.psid, l.profile.sub]),
        [['psid-slow-bot', 'user-slow-bot']],
      );
      assert.deepEqual(kit.stats(), { pending: 0, done: 1, failed: 0 });

      // A bot that keeps failing: every delivery is tried, then the simulator gives up.
      const failing = new MessengerSimulator({ appSecret: 'wrong-secret', webhookUrl, maxDeliveries: 3 });
      const f = await failing.sendText('psid-x', 'hello');
      assert.deepEqual(
        f.attempts.map((a) => a.status),
        [403, 403, 403],
      );
      assert.equal(f.delivered, false);
    } finally {
      server.closeAllConnections();
      server.close();
      await kit.close();
    }
  });
});

// Issue 33, item 6: the per-IP rate limits cannot be escaped with X-Forwarded-For. Ward runs as in
// the documented proxy layout (WARD_TLS=off, plain HTTP); the test is the proxy, on 127.0.0.1. Its
// header carries what the client sent (any left-most addresses it likes) followed by the address the
// proxy saw: only WARD_TRUSTED_PROXIES's hops are believed, and the client is the right-most address
// that is not one of them. Without the setting the header is not read at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const LIMIT = 3;

for (const engine of engines()) {
  describe(`client addresses behind a proxy (${engine})`, { timeout: 60_000 }, () => {
    let ward: TestWard;
    let direct: TestWard;
    const start = (env: Record<string, string>) =>
      startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        env: { WARD_TLS: 'off', ...env },
        account: { rate_limits: { login: { limit: LIMIT, window_seconds: 60 } } },
      });
    before(async () => {
      // The proxies: this test, on loopback, and a second hop on the private network.
      ward = await start({ WARD_TRUSTED_PROXIES: '127.0.0.1,::1,10.0.0.0/8' });
      direct = await start({});
    });
    after(async () => {
      await ward.close();
      await direct.close();
    });

    let n = 0;
    /** A failed password login whose X-Forwarded-For is `forwarded`. */
    const login = (w: TestWard, forwarded: string) =>
      w.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
        body: JSON.stringify({ client_id: 'spa', email: `nobody-${++n}@example.com`, password: 'wrong password' }),
      });
    const newWindow = (w: TestWard) => w.clock.advance(60_000 - (w.clock.now() % 60_000) + 1);

    it('a client spoofing the left-most X-Forwarded-For address does not escape the login rate limit', async () => {
      newWindow(ward);
      const statuses: number[] = [];
      // Each request claims another origin; the proxy appends the address it saw: 203.0.113.7.
      for (let i = 0; i < LIMIT + 2; i++) statuses.push((await login(ward, `198.51.100.${i}, 203.0.113.7`)).status);
      assert.deepEqual(statuses, [400, 400, 400, 429, 429]);
    });

    it('the client is the right-most address that is not a trusted proxy (two trusted hops)', async () => {
      newWindow(ward);
      for (let i = 0; i < LIMIT; i++)
        assert.equal((await login(ward, `1.2.3.${i}, 203.0.113.8, 10.1.2.3`)).status, 400);
      assert.equal((await login(ward, '9.9.9.9, 203.0.113.8, 10.9.9.9')).status, 429);
      // Another client behind the same proxies has its own count: the layout works.
      assert.equal((await login(ward, '203.0.113.9, 10.1.2.3')).status, 400);
    });

    it('without WARD_TRUSTED_PROXIES the header is ignored: every request counts for the connecting address', async () => {
      newWindow(direct);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) statuses.push((await login(direct, `203.0.113.${i}`)).status);
      assert.deepEqual(statuses, [400, 400, 400, 429]);
    });
  });
}

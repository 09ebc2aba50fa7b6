// Per-IP limits on login, signup and token: 429 rate_limit_reached with Retry-After, the
// contract's error body, and a fresh window after it passes (fake clock).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('rate limits', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      account: {
        rate_limits: {
          login: { limit: 3, window_seconds: 60 },
          signup: { limit: 2, window_seconds: 60 },
          token: { limit: 2, window_seconds: 30 },
        },
      },
    });
  });
  after(() => ward.close());

  const post = (path: string, body: unknown) =>
    ward.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('limits password logins per IP and lifts the limit in the next window', async () => {
    ward.clock.advance(60_000 - (ward.clock.now() % 60_000) + 1);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await post('/identity/v1/password/login', { client_id: 'spa', email: 'a@example.com', password: 'nope nope' }))
          .status,
        400,
      );
    const limited = await post('/identity/v1/password/login', {
      client_id: 'spa',
      email: 'a@example.com',
      password: 'nope nope',
    });
    assert.equal(limited.status, 429);
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    const body = (await limited.json()) as Record<string, string>;
    assert.equal(body.error, 'rate_limit_reached');
    assert.equal(body.error_message_key, 'error.rateLimitReached');
    ward.clock.advance(retry * 1000);
    assert.equal(
      (await post('/identity/v1/password/login', { client_id: 'spa', email: 'a@example.com', password: 'nope nope' }))
        .status,
      400,
    );
  });

  it('limits signups per IP; nothing is created past the limit', async () => {
    ward.clock.advance(60_000 - (ward.clock.now() % 60_000) + 1);
    const data = (i: number) => ({
      client_id: 'spa',
      data: { email: `rl${i}-${ward.clock.now()}@example.com`, password: 'long enough pw' },
    });
    assert.equal((await post('/identity/v1/signup', data(1))).status, 200);
    assert.equal((await post('/identity/v1/signup', data(2))).status, 200);
    const third = data(3);
    assert.equal((await post('/identity/v1/signup', third)).status, 429);
    assert.equal(await ward.registry.storage.users.findByEmail(third.data.email), undefined);
  });

  it('limits token requests per IP', async () => {
    ward.clock.advance(30_000 - (ward.clock.now() % 30_000) + 1);
    const form = () =>
      ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&client_id=spa&code=nope',
      });
    assert.equal((await form()).status, 400);
    assert.equal((await form()).status, 400);
    const limited = await form();
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));
  });
});

// Issue 33, item 11 (SS-04): /identity/v1/sso/data tells who the browser's session is (name, email,
// phone) only to the client it names: a cross-origin caller must be an allowed origin of that
// client. Another client's allowed origin gets no CORS header and a clear 403; an unknown client a
// 400; the client's own origin (the Core SDK's getSessionInfo) and a call without Origin are
// answered as before. Real HTTP, SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, codeFor } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { startSecurityWard } from './support.js';

const SHOP = {
  client_id: 'shop',
  name: 'Another shop',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://shop.example/cb'],
  allowed_origins: ['https://shop.example'],
  sso: true,
};

const corsOf = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-')));

for (const engine of engines()) {
  describe(`issue 33 item 11: /sso/data answers only the client it names (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startSecurityWard({ engine, clients: [PUBLIC_CLIENT, SHOP] });
    });
    after(() => ward.close());

    it('SS-04: another client’s allowed origin reads nothing of the session and gets a clear 403', async () => {
      const { browser } = await codeFor(ward);
      const res = await browser.get('/identity/v1/sso/data?client_id=spa', { origin: 'https://shop.example' });
      const text = await res.text();
      assert.equal(res.status, 403, text);
      assert.deepEqual(corsOf(res), {}, 'no CORS header: the page cannot read the answer');
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.equal(body.error_message_key, 'error.session.origin');
      assert.doesNotMatch(text, /@example\.com|Lovelace/);
    });

    it('the client’s own origin, and a call without Origin, are answered as before', async () => {
      const { browser, user } = await codeFor(ward);
      const own = await browser.get('/identity/v1/sso/data?client_id=spa', { origin: 'https://app.example' });
      assert.equal(own.status, 200);
      assert.equal(own.headers.get('access-control-allow-origin'), 'https://app.example');
      assert.equal(own.headers.get('access-control-allow-credentials'), 'true');
      const body = (await own.json()) as Record<string, unknown>;
      assert.equal(body.is_authenticated, true);
      assert.equal(body.email, user.email);

      const shop = await browser.get('/identity/v1/sso/data?client_id=shop', { origin: 'https://shop.example' });
      assert.equal(shop.status, 200, 'a client with sso: true, from its own origin');
      assert.equal(((await shop.json()) as Record<string, unknown>).email, user.email);

      const noOrigin = await browser.get('/identity/v1/sso/data?client_id=spa');
      assert.equal(noOrigin.status, 200);
      assert.equal(((await noOrigin.json()) as Record<string, unknown>).is_authenticated, true);
    });

    it('an unknown client_id is refused, whatever the origin', async () => {
      const { browser } = await codeFor(ward);
      const res = await browser.get('/identity/v1/sso/data?client_id=nobody', { origin: 'https://app.example' });
      const text = await res.text();
      assert.equal(res.status, 400, text);
      assert.equal((JSON.parse(text) as Record<string, unknown>).error_message_key, 'error.client.notFound');
      assert.doesNotMatch(text, /@example\.com/);
    });
  });
}

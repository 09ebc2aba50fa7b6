// Text PostgreSQL cannot hold (a NUL): the management API refuses it in a user search and a client
// name on both engines, and the error handler turns any refusal of such text by the database that
// validation missed into a 400 with error_message_key, not a 500. (The public endpoints are swept in
// type-confusion.test.ts.)
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { after, before, describe, it } from 'node:test';
import { installErrorHandling } from '../../src/http/errors.js';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines())
  describe(`NUL in management input (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [CONSOLE_CLIENT] });
    });
    after(() => ward.close());

    it('is a 400 in a user search and in a client name, and nothing is created', async () => {
      const admin = api(ward, (await consoleToken(ward, 'administrator')).token);
      const search = await admin.get('/api/v1/users?q=a%00b');
      assert.equal(search.status, 400, JSON.stringify(search.body));
      assert.equal(typeof search.body.error_message_key, 'string');
      const created = await admin.post('/api/v1/clients', {
        client_id: 'nul-name',
        name: 'a\u0000b',
        type: 'public',
        allowed_callback_urls: ['https://x.example/cb'],
      });
      assert.equal(created.status, 400, JSON.stringify(created.body));
      assert.equal(typeof created.body.error_message_key, 'string');
      assert.equal((await admin.get('/api/v1/clients/nul-name')).status, 404);
    });
  });

describe('the error handler and text the database refuses', () => {
  const app = Fastify();
  installErrorHandling(app);
  for (const code of ['22021', '22P05']) {
    app.get(`/refused-${code}`, async () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
    });
  }
  app.get('/other', async () => {
    throw Object.assign(new Error('connection lost'), { code: '08006' });
  });
  after(() => app.close());

  it('answers 400 invalid_request for NUL (22021) or an untranslatable character (22P05)', async () => {
    for (const code of ['22021', '22P05']) {
      const res = await app.inject({ method: 'GET', url: `/refused-${code}` });
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json() as Record<string, unknown>;
      assert.equal(body.error, 'invalid_request');
      assert.equal(body.error_message_key, 'error.invalidRequest');
      assert.doesNotMatch(res.body, /UTF8|0x00|encoding/);
    }
  });

  it('still answers any other database failure as a 500 with an error id', async () => {
    const res = await app.inject({ method: 'GET', url: '/other' });
    assert.equal(res.statusCode, 500);
    assert.equal(typeof (res.json() as Record<string, unknown>).error_id, 'string');
  });
});

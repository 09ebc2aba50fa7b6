// Deleting a user tells the clients that asked for Back-Channel Logout: each gets a logout_token for the
// session the user had (sub = the deleted user, sid of that session), and once it is delivered no row
// with the user's id is left in the queue either. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { codeFor, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`deleting a user ends their sessions at the relying parties (${engine})`, () => {
    let ward: TestWard;
    let server: Server;
    const tokens: string[] = [];
    let arrived: () => void = () => {};
    before(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
          res.writeHead(200).end();
          arrived();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const rp = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      ward = await startWard({
        engine,
        clients: [
          {
            client_id: 'spa',
            type: 'public',
            allowed_callback_urls: ['https://app.example/cb', `${rp}/cb`],
            backchannel_logout_uri: `${rp}/backchannel`,
            backchannel_logout_session_required: true,
            sso: true,
          },
          CONSOLE_CLIENT,
        ],
      });
    });
    after(async () => {
      await ward.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('sends a logout_token for the deleted user, then keeps nothing of theirs in the queue', async () => {
      const browser = new Browser(ward);
      const { code, verifier, user } = await codeFor(ward, { browser });
      const { body } = await redeem(ward, code, verifier);
      assert.ok(body.id_token);
      const manager = api(ward, (await consoleToken(ward, 'manager')).token);
      tokens.length = 0;
      const delivered = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      assert.equal((await manager.del(`/api/v1/users/${user.id}`)).status, 204);
      await delivered;
      const jwks = createLocalJWKSet((await (await ward.fetch('/jwks.json')).json()) as JSONWebKeySet);
      const { payload } = await jwtVerify(tokens[0]!, jwks, {
        issuer: ward.url,
        audience: 'spa',
        typ: 'logout+jwt',
        currentDate: new Date(ward.clock.now()),
      });
      assert.equal(payload.sub, user.id);
      assert.ok(payload.sid);
      // The delivered row leaves the queue: nothing with the user's id remains.
      const left = async () =>
        (await ward.registry.storage.logoutDeliveries.list()).filter((d) => d.user_id === user.id).length;
      for (let i = 0; i < 50 && (await left()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await left(), 0);
    });
  });
}

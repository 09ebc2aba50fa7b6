// Back-Channel Logout 1.0: a relying party's receiver on loopback gets a logout_token when a session
// it had ends, verified here with jose (RS256 through /jwks.json, HS256 with the client secret); a
// failing receiver is retried from the durable queue, rows outlive the loop that claimed them, and
// several loops (processes) share the queue without sending a row twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import { startLogoutDelivery } from '../../src/logout/backchannel.js';
import type { ServerResponse } from 'node:http';
import { Receiver } from '../helpers/backchannel-receiver.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import {
  authorizeUrl,
  CONFIDENTIAL_SECRET,
  codeFor,
  location,
  passwordLogin,
  pkcePair,
  redeem,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The queue once it is empty, or as it is after `limitMs` (Ward deletes a row after the receiver's 200). */
async function queueOnceAnswered<T>(list: () => Promise<T[]>, limitMs = 5000): Promise<T[]> {
  const deadline = Date.now() + limitMs;
  let rows = await list();
  while (rows.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows = await list();
  }
  return rows;
}

for (const engine of engines()) {
  describe(`Back-Channel Logout (${engine})`, () => {
    let ward: TestWard;
    const rp = new Receiver();
    before(async () => {
      await rp.start();
      ward = await startWard({
        engine,
        clients: [
          {
            client_id: 'spa',
            type: 'public',
            allowed_callback_urls: ['https://app.example/cb', `${rp.url}/cb`],
            backchannel_logout_uri: `${rp.url}/backchannel`,
            backchannel_logout_session_required: true,
            sso: true,
          },
          {
            client_id: 'backend',
            type: 'confidential',
            client_secret: CONFIDENTIAL_SECRET,
            jwt_algorithm: 'HS256',
            allowed_callback_urls: ['https://api.example/cb', `${rp.url}/backend-cb`],
            backchannel_logout_uri: `${rp.url}/backend-backchannel`,
            // The spa's session signs the user in here too: only a client with sso: true (issue 33).
            sso: true,
          },
          { client_id: 'quiet', type: 'public', allowed_callback_urls: ['https://quiet.example/cb'] },
          CONSOLE_CLIENT,
        ],
      });
    });
    after(async () => {
      await ward.close();
      await rp.close();
    });

    const jwks = async () => createLocalJWKSet((await (await ward.fetch('/jwks.json')).json()) as JSONWebKeySet);
    const verify = async (token: string, clientId: string): Promise<JWTPayload> => {
      const key = clientId === 'backend' ? new TextEncoder().encode(CONFIDENTIAL_SECRET) : await jwks();
      const { payload, protectedHeader } = await jwtVerify(token, key as never, {
        issuer: ward.url,
        audience: clientId,
        typ: 'logout+jwt',
        currentDate: new Date(ward.clock.now()),
        algorithms: [clientId === 'backend' ? 'HS256' : 'RS256'],
      });
      assert.equal(protectedHeader.typ, 'logout+jwt');
      return payload;
    };
    /** Signs in (a session in `browser`) and returns the ID token of the code flow. */
    const signIn = async (browser: Browser, clientId = 'spa') => {
      const redirectUri = clientId === 'spa' ? 'https://app.example/cb' : 'https://api.example/cb';
      const { code, verifier, user } = await codeFor(ward, { clientId, redirectUri, browser });
      const { res, body } = await redeem(ward, code, verifier, clientId, redirectUri);
      assert.equal(res.status, 200);
      return { user, idToken: body.id_token! };
    };
    const logout = async (browser: Browser) => {
      const res = await browser.get(`/identity/v1/logout?redirect_to=${encodeURIComponent('https://app.example/cb')}`);
      assert.equal(res.status, 302);
      assert.equal(location(res).origin, 'https://app.example');
    };

    it('advertises back-channel logout with sessions in discovery', async () => {
      const d = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
      assert.equal(d.backchannel_logout_supported, true);
      assert.equal(d.backchannel_logout_session_supported, true);
      assert.ok((d.claims_supported as string[]).includes('sid'));
    });

    it('POSTs a valid logout_token to each client that had the session, sid equal to the ID token sid', async () => {
      rp.tokens = [];
      const start = rp.hits;
      const browser = new Browser(ward);
      const first = await signIn(browser, 'spa');
      // The same session signs the user in to the confidential client too (SSO).
      const res = await browser.get(
        `/oauth/authorize?client_id=backend&response_type=code&redirect_uri=${encodeURIComponent('https://api.example/cb')}&scope=openid&state=s`,
      );
      assert.equal(res.status, 302, 'SSO: a code without a login page');
      const code = location(res).searchParams.get('code')!;
      const token = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://api.example/cb',
          client_id: 'backend',
          client_secret: CONFIDENTIAL_SECRET,
        }).toString(),
      });
      const backendIdToken = ((await token.json()) as { id_token: string }).id_token;
      const sid = decodeJwt(first.idToken).sid;
      assert.equal(typeof sid, 'string');
      assert.equal(decodeJwt(backendIdToken).sid, sid, 'one session, one sid for every client');
      await logout(browser);
      await rp.hitsReach(start + 2);
      assert.equal(rp.tokens.length, 2);
      const byAudience = new Map<string, JWTPayload>();
      for (const t of rp.tokens) {
        const aud = decodeJwt(t).aud as string;
        byAudience.set(aud, await verify(t, aud));
      }
      assert.deepEqual([...byAudience.keys()].sort(), ['backend', 'spa']);
      for (const claims of byAudience.values()) {
        assert.equal(claims.sid, sid);
        assert.equal(claims.sub, first.user.id);
        assert.deepEqual(claims.events, { [EVENT]: {} });
        assert.equal(claims.nonce, undefined);
        assert.equal(typeof claims.jti, 'string');
        assert.ok(typeof claims.exp === 'number' && typeof claims.iat === 'number' && claims.exp > claims.iat);
      }
      // The receiver counts a hit before its answer reaches Ward, which deletes the row once the 200 arrives.
      assert.deepEqual(
        await queueOnceAnswered(() => ward.registry.storage.logoutDeliveries.list()),
        [],
        'delivered rows leave the queue',
      );
    });

    it('retries from the queue after the receiver fails, with backoff; the row outlives the loop that claimed it', async () => {
      rp.tokens = [];
      const start = rp.hits;
      rp.next = (res) => res.writeHead(503).end();
      const browser = new Browser(ward);
      const { idToken } = await signIn(browser, 'spa');
      await logout(browser);
      await rp.hitsReach(start + 1);
      await ward.registry.logoutDelivery.tick();
      const [row] = await ward.registry.storage.logoutDeliveries.list();
      assert.ok(row, 'the failed delivery waits in the queue');
      assert.equal(row.attempts, 1);
      assert.equal(row.last_error, 'HTTP 503');
      assert.equal(row.sid, decodeJwt(idToken).sid);
      assert.ok(row.next_attempt_at > ward.clock.now(), 'not due before its backoff');
      await ward.registry.logoutDelivery.tick();
      assert.equal(rp.hits, start + 1, 'nothing is sent before the backoff');

      // This loop stops (a process going away); a new one, reading only the table, delivers the row.
      await ward.registry.logoutDelivery.stop();
      rp.next = (res) => res.writeHead(200).end();
      ward.clock.advance(10_000);
      const r = ward.registry;
      const successor = startLogoutDelivery({
        storage: r.storage,
        clients: r.clients,
        keys: r.keys,
        clock: r.clock,
        log: r.log,
        issuer: r.config.issuer,
        outbound: r.outbound,
      });
      try {
        await successor.tick();
        assert.equal(rp.tokens.length, 1);
        const claims = await verify(rp.tokens[0]!, 'spa');
        assert.equal(claims.sid, decodeJwt(idToken).sid);
        assert.deepEqual(await r.storage.logoutDeliveries.list(), []);
      } finally {
        await successor.stop();
      }
    });

    it('shares the queue between processes: concurrent loops send each row once', async () => {
      rp.tokens = [];
      const r = ward.registry;
      const loops = [1, 2, 3].map(() =>
        startLogoutDelivery({
          storage: r.storage,
          clients: r.clients,
          keys: r.keys,
          clock: r.clock,
          log: r.log,
          issuer: r.config.issuer,
          outbound: r.outbound,
        }),
      );
      const now = r.clock.now();
      const rows = Array.from({ length: 12 }, (_, i) => ({
        id: `row-${i}`,
        client_id: 'spa',
        user_id: `user-${i}`,
        sid: `sid-${i}`,
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        created_at: now,
      }));
      await r.storage.logoutDeliveries.enqueue(rows);
      try {
        await Promise.all(loops.map((l) => l.tick()));
      } finally {
        await Promise.all(loops.map((l) => l.stop()));
      }
      const sids = rp.tokens.map((t) => decodeJwt(t).sid).sort();
      assert.deepEqual(sids, rows.map((x) => x.sid).sort(), 'every row once, none twice');
      assert.deepEqual(await r.storage.logoutDeliveries.list(), []);
    });

    it('stopping does not wait for a receiver that never answers: the row is handed back, due at once', async () => {
      const r = ward.registry;
      let answered: ServerResponse | undefined;
      rp.next = (res) => {
        answered = res;
      };
      const loop = startLogoutDelivery({
        storage: r.storage,
        clients: r.clients,
        keys: r.keys,
        clock: r.clock,
        log: r.log,
        issuer: r.config.issuer,
        outbound: r.outbound,
      });
      const start = rp.hits;
      const now = r.clock.now();
      await r.storage.logoutDeliveries.enqueue([
        {
          id: 'hanging',
          client_id: 'spa',
          user_id: 'u',
          sid: 's',
          attempts: 0,
          next_attempt_at: now,
          last_error: null,
          created_at: now,
        },
      ]);
      loop.kick();
      await rp.hitsReach(start + 1);
      await loop.stop();
      const [row] = await r.storage.logoutDeliveries.list();
      assert.equal(row?.id, 'hanging');
      assert.ok(row.next_attempt_at <= r.clock.now(), 'due again for the next process');
      answered?.writeHead(200).end();
      rp.next = (res) => res.writeHead(200).end();
      await r.storage.logoutDeliveries.remove('hanging');
    });

    it('tells nobody when the session had no client with a back-channel URI', async () => {
      const start = rp.hits;
      const browser = new Browser(ward);
      const { code, verifier } = await codeFor(ward, {
        clientId: 'quiet',
        redirectUri: 'https://quiet.example/cb',
        browser,
      });
      assert.equal((await redeem(ward, code, verifier, 'quiet', 'https://quiet.example/cb')).res.status, 200);
      await logout(browser);
      assert.deepEqual(await ward.registry.storage.logoutDeliveries.list(), []);
      assert.equal(rp.hits, start);
    });

    /** The same user signed in to `spa` in a second browser: that session's ID token. */
    const secondSession = async (user: { email: string; password: string }) => {
      const tkn = await passwordLogin(ward, user.email, user.password, 'spa', 'openid');
      const pkce = pkcePair();
      const res = await new Browser(ward).get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: 's',
          tkn,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const code = location(res).searchParams.get('code')!;
      const { body } = await redeem(ward, code, pkce.verifier, 'spa', 'https://app.example/cb');
      return body.id_token!;
    };
    // The registry's loop was stopped by the retry test above: what these ends queue stays in the table to be read.
    const queued = async () =>
      (await ward.registry.storage.logoutDeliveries.list()).map((d) => ({ client: d.client_id, sid: d.sid }));
    const emptyQueue = async () => {
      for (const d of await ward.registry.storage.logoutDeliveries.list())
        await ward.registry.storage.logoutDeliveries.remove(d.id);
    };

    it('"sign out everywhere else" queues a logout token for the sessions it ends, not for the caller\'s', async () => {
      await emptyQueue();
      const browser = new Browser(ward);
      const { code, verifier, user } = await codeFor(ward, { clientId: 'spa', browser });
      const { body } = await redeem(ward, code, verifier, 'spa', 'https://app.example/cb');
      const other = decodeJwt(await secondSession(user)).sid;
      const res = await ward.fetch('/identity/v1/sessions/others', {
        method: 'DELETE',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await queued(), [{ client: 'spa', sid: other }]);
      assert.notEqual(other, decodeJwt(body.id_token!).sid);
      await emptyQueue();
    });

    it("an operator ending a user's sessions queues a logout token for each of them", async () => {
      await emptyQueue();
      const { code, verifier, user } = await codeFor(ward, { clientId: 'spa' });
      const first = decodeJwt((await redeem(ward, code, verifier, 'spa', 'https://app.example/cb')).body.id_token!).sid;
      const second = decodeJwt(await secondSession(user)).sid;
      const admin = api(ward, (await consoleToken(ward, 'administrator')).token);
      assert.equal((await admin.post(`/api/v1/users/${user.id}/sessions/revoke`, {})).status, 204);
      const sids = (await queued()).map((q) => q.sid).sort();
      assert.deepEqual(sids, [first, second].sort());
      await emptyQueue();
    });

    it('another user signing in in the same browser ends the session there: its clients get a logout token', async () => {
      await emptyQueue();
      const browser = new Browser(ward);
      const first = await signIn(browser, 'spa');
      await signIn(browser, 'spa'); // codeFor signs up and signs in a new user, with the first one's SSO cookie
      assert.deepEqual(await queued(), [{ client: 'spa', sid: decodeJwt(first.idToken).sid }]);
      await emptyQueue();
    });
  });
}

// The user's own sign-ins through the JSON API (issue 38, item 5), on both engines over real HTTPS: two
// browsers (two cookie jars, two User-Agents) are listed with their browser and system, the asking one
// marked; ending the other stops its refresh and access tokens, signs that browser out and sends its
// client a back-channel logout token to a loopback receiver; "sign out everywhere else" ends the rest; the
// recent security events come from the audit trail; another user's session cannot be ended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Receiver } from '../helpers/backchannel-receiver.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { authorizeUrl, location, pkcePair, signup, tokenRequest } from '../helpers/oauth.js';
import { CHROME, FIREFOX, signInAs, startSignInsWard } from '../helpers/sign-ins.js';
import type { TestWard } from '../helpers/ward.js';

const SCOPE = 'openid profile email offline_access';

interface Listed {
  id: string;
  browser: string | null;
  os: string | null;
  created_at: string;
  last_used_at: string;
  amr: string[];
  current: boolean;
}

for (const engine of engines()) {
  describe(`the user's sessions through /identity/v1/me (${engine})`, () => {
    let ward: TestWard;
    let rp: Receiver;
    before(async () => {
      ({ ward, rp } = await startSignInsWard(engine));
    });
    after(async () => {
      await ward.close();
      await rp.close();
    });

    /** Signs in in `browser` (helpers/sign-ins.ts): the session's tokens and sid. */
    const signIn = (browser: Browser, user: { email: string; password: string }, ua: string) =>
      signInAs(ward, browser, user, ua, SCOPE);
    const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
    const list = async (access: string): Promise<Listed[]> => {
      const res = await ward.fetch('/identity/v1/me/sessions', { headers: bearer(access) });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      return ((await res.json()) as { sessions: Listed[] }).sessions;
    };
    const end = (access: string, id: string) =>
      ward.fetch(`/identity/v1/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', headers: bearer(access) });
    const refreshes = async (refresh: string) =>
      (await tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'spa' })).status;
    async function silent(browser: Browser): Promise<string | null> {
      const pkce = pkcePair();
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          prompt: 'none',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const loc = location(res);
      return loc.searchParams.get('code') ? 'code' : loc.searchParams.get('error');
    }

    it('lists both browsers, ends the other one: its tokens stop and its client gets a logout token', async () => {
      const user = await signup(ward);
      const laptop = new Browser(ward);
      const office = new Browser(ward);
      const mine = await signIn(laptop, user, FIREFOX);
      const theirs = await signIn(office, user, CHROME);

      const sessions = await list(mine.access);
      assert.equal(sessions.length, 2);
      const here = sessions.find((s) => s.current);
      const there = sessions.find((s) => !s.current);
      assert.ok(here && there, 'one of them is marked as this one');
      assert.deepEqual([here.browser, here.os], ['Firefox 133', 'Linux']);
      assert.deepEqual([there.browser, there.os], ['Chrome 131', 'Windows']);
      assert.deepEqual(here.amr, ['pwd']);
      assert.ok(!Number.isNaN(Date.parse(there.created_at)) && !Number.isNaN(Date.parse(there.last_used_at)));
      assert.match(there.id, /^[\w-]{32}$/);
      assert.notEqual(there.id, theirs.sid, 'the id is not the sid the clients know');
      assert.equal((await list(theirs.access)).find((s) => s.current)?.id, there.id, 'each token marks its own');

      const hits = rp.hits;
      const res = await end(mine.access, there.id);
      assert.equal(res.status, 204);
      await rp.hitsReach(hits + 1);
      const token = rp.tokens.at(-1)!;
      assert.equal(decodeJwt(token).sid, theirs.sid, "the ended session's logout token");
      assert.equal(decodeJwt(token).sub, user.id);

      assert.equal(await refreshes(theirs.refresh), 400, "the ended session's refresh token is refused");
      const userinfo = await ward.fetch('/identity/v1/userinfo', { headers: bearer(theirs.access) });
      assert.equal(userinfo.status, 401, 'and its access token');
      assert.equal(await silent(office), 'login_required', 'that browser is signed out');
      assert.equal(await refreshes(mine.refresh), 200, 'this one stays');
      assert.equal(await silent(laptop), 'code');
      assert.deepEqual(
        (await list(mine.access)).map((s) => s.id),
        [here.id],
      );
      const again = await end(mine.access, there.id);
      assert.equal(again.status, 404, 'an ended session is not found');
      assert.equal(((await again.json()) as { error_message_key: string }).error_message_key, 'error.notFound');
    });

    it("signs out everywhere else, and cannot end another user's session", async () => {
      const user = await signup(ward);
      const [a, b, c] = [new Browser(ward), new Browser(ward), new Browser(ward)];
      const mine = await signIn(a, user, FIREFOX);
      const second = await signIn(b, user, CHROME);
      await signIn(c, user, CHROME);
      const stranger = await signup(ward);
      const strangers = await signIn(new Browser(ward), stranger, FIREFOX);
      const strangerSession = (await list(strangers.access))[0]!;

      const refused = await end(mine.access, strangerSession.id);
      assert.equal(refused.status, 404, "another user's session is not found");
      assert.equal((await list(strangers.access)).length, 1, 'and stays');

      const hits = rp.hits;
      const others = await ward.fetch('/identity/v1/sessions/others', {
        method: 'DELETE',
        headers: bearer(mine.access),
      });
      assert.equal(others.status, 200);
      assert.deepEqual(await others.json(), { ended_sessions: 2, revoked_grants: 2 });
      await rp.hitsReach(hits + 2);
      assert.equal(await refreshes(second.refresh), 400);
      assert.deepEqual(
        (await list(mine.access)).map((s) => s.current),
        [true],
      );
      assert.equal(await silent(b), 'login_required');
      assert.equal(await silent(c), 'login_required');
    });

    it('shows the recent security events from the audit trail', async () => {
      const user = await signup(ward);
      const browser = new Browser(ward);
      const mine = await signIn(browser, user, FIREFOX);
      const other = await signIn(new Browser(ward), user, CHROME);
      const otherId = (await list(mine.access)).find((s) => !s.current)!.id;
      ward.clock.advance(1000); // the events' order is their time (the test's clock stands still otherwise)
      assert.equal((await end(mine.access, otherId)).status, 204);
      assert.equal((await ward.fetch('/identity/v1/userinfo', { headers: bearer(other.access) })).status, 401, 'ended');
      await ward.registry.events.flush();
      const res = await ward.fetch('/identity/v1/me/security-events', { headers: bearer(mine.access) });
      assert.equal(res.status, 200);
      const { events } = (await res.json()) as {
        events: Array<{ type: string; at: string; by: string; detail: string | null }>;
      };
      const types = events.map((e) => e.type);
      assert.equal(types[0], 'session.ended', 'the newest first');
      assert.equal(types.filter((t) => t === 'login.succeeded').length, 2, 'both sign-ins');
      assert.ok(events.every((e) => e.by === 'user' && !Number.isNaN(Date.parse(e.at))));
      assert.equal(events.find((e) => e.type === 'login.succeeded')?.detail, 'password');
      assert.ok(!types.includes('mfa.code_sent'));
    });

    it('needs a live user access token and is rate-limited', async () => {
      const none = await ward.fetch('/identity/v1/me/sessions');
      assert.equal(none.status, 401);
      const bad = await ward.fetch('/identity/v1/me/security-events', { headers: bearer('wat1.not-a-token') });
      assert.equal(bad.status, 401);
      ward.setAccount({ rate_limits: { sessions: { limit: 1, window_seconds: 60 } } });
      try {
        await ward.fetch('/identity/v1/me/sessions');
        const limited = await ward.fetch('/identity/v1/me/sessions');
        assert.equal(limited.status, 429);
      } finally {
        ward.setAccount({ rate_limits: { sessions: { limit: 120, window_seconds: 60 } } });
      }
    });
  });
}

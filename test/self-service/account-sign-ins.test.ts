// The account page's "Where you're signed in" (issue 38, item 5), on both engines over real HTTPS: the
// page lists both browsers (browser and system, this one marked) and signs the other one out with its
// CSRF-protected form (its refresh token is refused, its client gets a back-channel logout token, that
// browser is signed out, the audit keeps it);
// a post without the page's token ends nothing; "Sign out everywhere else" keeps only this session; a
// trusted device is listed and forgotten (another user's is not found); the recent security events show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { trustDevice } from '../../src/accounts/trusted-devices.js';
import { ACCOUNT_PAGE, formsOf, openPage, postPageForm } from '../helpers/account-page.js';
import type { Receiver } from '../helpers/backchannel-receiver.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { signup, tokenRequest } from '../helpers/oauth.js';
import { CHROME, FIREFOX, signInAs, startSignInsWard } from '../helpers/sign-ins.js';
import type { TestWard } from '../helpers/ward.js';

const SCOPE = 'openid email offline_access';

for (const engine of engines()) {
  describe(`the account page's sign-ins (${engine})`, () => {
    let ward: TestWard;
    let rp: Receiver;
    before(async () => {
      ({ ward, rp } = await startSignInsWard(engine));
    });
    after(async () => {
      await ward.close();
      await rp.close();
    });

    /** Signs in in `browser` with its User-Agent (helpers/sign-ins.ts); returns the session's refresh token. */
    const signIn = async (browser: Browser, user: { email: string; password: string }, ua: string) =>
      (await signInAs(ward, browser, user, ua, SCOPE)).refresh;
    const refreshes = async (refresh: string) =>
      (await tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'spa' })).status;
    const items = (html: string) => [...html.matchAll(/<li data-session="(current|other)"><span>([^<]+)<\/span>/g)];

    it('lists both browsers and signs the other one out with the form', async () => {
      const user = await signup(ward);
      const [laptop, office] = [new Browser(ward), new Browser(ward)];
      await signIn(laptop, user, FIREFOX);
      const theirs = await signIn(office, user, CHROME);

      const page = await openPage(laptop);
      assert.equal(page.status, 200);
      assert.deepEqual(
        items(page.html)
          .map((m) => [m[1], m[2]])
          .sort(),
        [
          ['current', 'Firefox 133 on Linux'],
          ['other', 'Chrome 131 on Windows'],
        ],
      );
      assert.match(page.html, /\(This device\)/);
      assert.equal(formsOf(page.html, `${ACCOUNT_PAGE}/sessions/end`).length, 1, 'no button for this one');

      const forged = await laptop.postForm(`${ACCOUNT_PAGE}/sessions/end`, {
        session: formsOf(page.html, `${ACCOUNT_PAGE}/sessions/end`)[0]!.session!,
      });
      assert.equal(forged.status, 403, 'no CSRF token: refused');
      assert.equal(await refreshes(theirs), 200, 'and nothing ended');

      ward.clock.advance(1000);
      const hits = rp.hits;
      const ended = await postPageForm(laptop, page.html, `${ACCOUNT_PAGE}/sessions/end`, {});
      assert.equal(ended.status, 303);
      await rp.hitsReach(hits + 1);
      assert.equal(decodeJwt(rp.tokens.at(-1)!).sub, user.id, 'its client got a back-channel logout token');
      assert.equal(ended.res.headers.get('location'), `${ACCOUNT_PAGE}?notice=session_ended`);
      assert.equal(await refreshes(theirs), 400, "the other session's refresh token is refused");
      assert.equal((await openPage(office)).status, 401, 'that browser is signed out');

      const after = await openPage(laptop, `${ACCOUNT_PAGE}?notice=session_ended`);
      assert.match(after.html, /That session was signed out\./);
      assert.equal(items(after.html).length, 1);
      assert.match(after.html, /You are signed in on this device only\./);
      await ward.registry.events.flush();
      const again = await openPage(laptop);
      assert.match(again.html, /<ul id="security-events"><li><time [^>]+>[^<]+<\/time>: Sessions signed out<\/li>/);
      assert.match(again.html, /: Signed in<\/li>/);
      const audit = await ward.registry.storage.audit.listAboutUser(user.id, ['session.ended'], 5);
      assert.equal(audit.length, 1);
      assert.equal(JSON.parse(audit[0]!.details).by, 'account_page');
    });

    it('signs out everywhere else, and forgets a trusted device', async () => {
      const user = await signup(ward);
      const [a, b, c] = [new Browser(ward), new Browser(ward), new Browser(ward)];
      const mine = await signIn(a, user, FIREFOX);
      const second = await signIn(b, user, CHROME);
      const third = await signIn(c, user, CHROME);
      const r = ward.registry;
      await trustDevice(r, user.id, CHROME);
      const stranger = await signup(ward);
      await trustDevice(r, stranger.id, FIREFOX);
      const strangers = await r.storage.trustedDevices.listOfUser(stranger.id, r.clock.now());

      const page = await openPage(a);
      assert.equal(items(page.html).length, 3);
      const out = await postPageForm(a, page.html, `${ACCOUNT_PAGE}/sessions/others`, {});
      assert.equal(out.status, 303);
      assert.equal(out.res.headers.get('location'), `${ACCOUNT_PAGE}?notice=others_ended`);
      assert.equal(await refreshes(second), 400);
      assert.equal(await refreshes(third), 400);
      assert.equal(await refreshes(mine), 200, 'this one stays');

      const listed = await openPage(a);
      assert.equal(items(listed.html).length, 1);
      assert.match(listed.html, /<h3 id="devices-h">Trusted devices<\/h3>/);
      assert.match(listed.html, /aria-label="Stop trusting Chrome 131 on Windows"/);
      const foreign = await postPageForm(a, listed.html, `${ACCOUNT_PAGE}/trusted-devices/revoke`, {
        device: strangers[0]!.id,
      });
      assert.equal(foreign.status, 404, "another user's device is not found");
      assert.equal((await r.storage.trustedDevices.listOfUser(stranger.id, r.clock.now())).length, 1);
      const forgot = await postPageForm(a, listed.html, `${ACCOUNT_PAGE}/trusted-devices/revoke`, {});
      assert.equal(forgot.status, 303);
      assert.equal((await r.storage.trustedDevices.listOfUser(user.id, r.clock.now())).length, 0);
      assert.doesNotMatch((await openPage(a)).html, /devices-h/);
    });
  });
}

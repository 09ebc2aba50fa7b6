// The hosted account page of a user with an authenticator app (HTTP with a cookie jar, both engines):
// "Confirm it's you" takes the app's code or a recovery code at once (nothing sent), a wrong one is
// refused beside the form, and the page counts the recovery codes left.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair } from '../helpers/oauth.js';
import { plainToken } from '../stepup/support.js';
import { enrolTotp, totpAt } from '../stepup/totp-support.js';

const PAGE = '/identity/v1/account';

/** The hidden fields of each form of the page that posts to `action`. */
function formsOf(html: string, action: string): Record<string, string>[] {
  const forms: Record<string, string>[] = [];
  for (const m of html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (m[1] !== action) continue;
    const fields: Record<string, string> = {};
    for (const f of m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[f[1]!] = f[2]!;
    forms.push(fields);
  }
  return forms;
}

for (const engine of engines()) {
  describe(`the hosted account page with an authenticator app on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({ engine, clients: [PUBLIC_CLIENT] });
    });
    after(() => w.close());

    async function signIn(user: { email: string; password: string }) {
      const browser = new Browser(w.ward);
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
      );
      const res = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(res.status, 303, await res.text());
      location(res);
      return browser;
    }

    const open = async (browser: Browser) => (await browser.get(PAGE)).text();

    it('confirms with the app code or a recovery code, and counts the codes left', async () => {
      const { user, access } = await plainToken(w);
      const { secret, recoveryCodes } = await enrolTotp(w, access);
      w.ward.clock.advance(30_000);
      const browser = await signIn(user);
      let html = await open(browser);
      assert.match(html, /Confirm it’s you/);
      assert.match(html, /<dt>Recovery codes<\/dt><dd id="recovery-left">10 left<\/dd>/);
      const forms = formsOf(html, `${PAGE}/step-up/verify`);
      assert.deepEqual(
        forms.map((f) => f.auth_type),
        ['totp', 'recovery_code'],
      );
      const csrf = forms[0]!.csrf!;
      const right = totpAt(secret, w.ward.clock.now());
      const wrong = await browser.postForm(`${PAGE}/step-up/verify`, {
        csrf,
        auth_type: 'totp',
        verification_code: right === '000000' ? '111111' : '000000',
      });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /The code is wrong or has expired/);
      const ok = await browser.postForm(`${PAGE}/step-up/verify`, {
        csrf,
        auth_type: 'totp',
        verification_code: right,
      });
      assert.equal(ok.status, 303, await ok.text());
      assert.equal(ok.headers.get('location'), `${PAGE}?notice=confirmed`);
      html = await open(browser);
      assert.doesNotMatch(html, /Confirm it’s you/);
      assert.equal(formsOf(html, `${PAGE}/email`).length, 1, 'the change forms are there');

      // Five minutes on, owed again: a recovery code confirms, and the count goes down.
      w.ward.clock.advance(6 * 60_000);
      html = await open(browser);
      assert.match(html, /Confirm it’s you/);
      const byCode = await browser.postForm(`${PAGE}/step-up/verify`, {
        csrf,
        auth_type: 'recovery_code',
        verification_code: recoveryCodes[0]!,
      });
      assert.equal(byCode.status, 303, await byCode.text());
      html = await open(browser);
      assert.match(html, /<dd id="recovery-left">9 left<\/dd>/);
    });

    it('sets up the app on the page (QR code, key, first code), shows the codes once, makes new ones, removes it', async () => {
      const { user } = await plainToken(w);
      const browser = await signIn(user);
      let html = await open(browser);
      const [setUp] = formsOf(html, `${PAGE}/app`);
      assert.ok(setUp, 'a set-up form');
      const csrf = setUp.csrf!;
      const started = await browser.postForm(`${PAGE}/app`, { csrf });
      assert.equal(started.status, 200);
      html = await started.text();
      assert.match(html, /<figure id="app-qr"><svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const secret = /<code id="app-key">([A-Z2-7]{32})<\/code>/.exec(html)?.[1];
      assert.ok(secret, 'the key as text');
      const uri = /<code id="app-uri">([^<]+)<\/code>/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      assert.equal(new URL(uri!).searchParams.get('secret'), secret);

      const right = totpAt(secret, w.ward.clock.now());
      const wrong = await browser.postForm(`${PAGE}/app/verify`, {
        csrf,
        verification_code: right === '000000' ? '111111' : '000000',
      });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /id="app-error">The code is wrong or has expired/);
      const on = await browser.postForm(`${PAGE}/app/verify`, { csrf, verification_code: right });
      assert.equal(on.status, 200);
      html = await on.text();
      const codes = [...html.matchAll(/<li><code>([0-9a-z]{5}-[0-9a-z]{5})<\/code><\/li>/g)].map((m) => m[1]!);
      assert.equal(codes.length, 10, 'the recovery codes, shown once');
      html = await open(browser);
      assert.doesNotMatch(html, /<li><code>/, 'not shown again');
      assert.match(html, /<dd id="recovery-left">10 left<\/dd>/);
      // The app is now a factor: its changes wait for "Confirm it's you".
      assert.equal((await browser.postForm(`${PAGE}/recovery-codes`, { csrf })).status, 403);
      w.ward.clock.advance(30_000);
      const ok = await browser.postForm(`${PAGE}/step-up/verify`, {
        csrf,
        auth_type: 'totp',
        verification_code: totpAt(secret, w.ward.clock.now()),
      });
      assert.equal(ok.status, 303);
      const renewed = await browser.postForm(`${PAGE}/recovery-codes`, { csrf });
      assert.equal(renewed.status, 200);
      const fresh = [...(await renewed.text()).matchAll(/<li><code>([0-9a-z-]{11})<\/code><\/li>/g)].map((m) => m[1]!);
      assert.equal(fresh.length, 10);
      assert.equal(fresh.filter((c) => codes.includes(c)).length, 0);
      const removed = await browser.postForm(`${PAGE}/app/remove`, { csrf });
      assert.equal(removed.status, 303);
      assert.equal(removed.headers.get('location'), `${PAGE}?notice=app_removed`);
      html = await open(browser);
      assert.equal(formsOf(html, `${PAGE}/app`).length, 1, 'set up again');
      assert.doesNotMatch(html, /recovery-left/);
    });
  });
}

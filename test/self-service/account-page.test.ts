// The hosted "Your account" page (GET /identity/v1/account), driven over HTTP with a cookie jar: a user
// signs in on the hosted login page, then changes the email address (the link from the real SMTP sink
// confirms it), the phone number (the code from the SMS sink) and the password (other sessions end,
// this one stays), each form checked for its origin and CSRF token; a user with a second factor
// confirms with a code first. English and French. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup, tokenRequest } from '../helpers/oauth.js';
import { confirmEmailLink } from '../helpers/email-link.js';

const PAGE = '/identity/v1/account';
const SSO = '__Host-ward_sso';

type User = { id: string; email: string; password: string };

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of each form of the page that posts to `action`. */
function formsOf(html: string, action: string): Record<string, string>[] {
  const forms: Record<string, string>[] = [];
  for (const m of html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (m[1] !== action) continue;
    const fields: Record<string, string> = {};
    for (const f of m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields[f[1]!] = decode(f[2]!);
    forms.push(fields);
  }
  return forms;
}

const linkIn = (text: string) => {
  const m = /https:\/\/\S+verify-email\/link\S+/.exec(text);
  if (!m) throw new Error(`no link in: ${text.slice(0, 200)}`);
  return new URL(m[0]);
};

let phones = 0;
const newPhone = () => `+3361${String(Date.now() % 1_000_000).padStart(6, '0')}${++phones % 10}`;

for (const engine of engines()) {
  describe(`the hosted account page on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({ engine, clients: [PUBLIC_CLIENT] });
    });
    after(() => w.close());

    /** Code + PKCE through the hosted login page: the browser then holds an SSO session; the tokens too. */
    async function signIn(user: User, browser = new Browser(w.ward)) {
      const pkce = pkcePair();
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email phone offline_access',
          state: 'st',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const res = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(res.status, 303, await res.text());
      const { res: t, body } = await redeem(w.ward, location(res).searchParams.get('code')!, pkce.verifier);
      assert.equal(t.status, 200, JSON.stringify(body));
      return { browser, tokens: body };
    }

    /** A new ID token from the browser's SSO session (no login page). */
    async function idTokenFrom(browser: Browser) {
      const pkce = pkcePair();
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email phone',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          prompt: 'none',
        }),
      );
      assert.equal(res.status, 302);
      const { body } = await redeem(w.ward, location(res).searchParams.get('code')!, pkce.verifier);
      return decodeJwt(body.id_token!);
    }

    async function open(browser: Browser, path = PAGE, headers: Record<string, string> = {}) {
      const res = await browser.get(path, headers);
      return { status: res.status, html: await res.text(), res };
    }

    /** Posts the page's form for `action` (its hidden fields, then `fields`), like the browser would. */
    async function post(
      browser: Browser,
      html: string,
      action: string,
      fields: Record<string, string>,
      headers: Record<string, string> = {},
      pick = 0,
    ) {
      const form = formsOf(html, action)[pick];
      assert.ok(form, `no form posting to ${action}`);
      const res = await browser.postForm(action, { ...form, ...fields }, headers);
      return { status: res.status, html: await res.text(), res };
    }

    async function audit(userId: string): Promise<{ action: string; target: string | null }[]> {
      await w.ward.registry.events.flush();
      return w.ward.registry.storage.audit.list({ actorId: userId, limit: 100 });
    }

    const mailsTo = (to: string) => w.smtp.messages.filter((m) => m.to === to).length;

    it('without a session: a 401 page "You are not signed in" (English, French); a post changes nothing', async () => {
      const browser = new Browser(w.ward);
      let page = await open(browser);
      assert.equal(page.status, 401);
      assert.match(page.res.headers.get('content-type')!, /^text\/html/);
      assert.match(page.res.headers.get('content-security-policy')!, /default-src 'none'/);
      assert.match(page.html, /<h1>You are not signed in<\/h1>/);
      page = await open(browser, PAGE, { 'accept-language': 'fr-FR,fr;q=0.9' });
      assert.equal(page.status, 401);
      assert.match(page.html, /<html lang="fr">/);
      assert.match(page.html, /Vous n’êtes pas connecté/);
      const res = await browser.postForm(`${PAGE}/email`, { email: 'nobody-new@example.com' });
      assert.equal(res.status, 401);
      assert.match(await res.text(), /You are not signed in/);
      assert.equal(mailsTo('nobody-new@example.com'), 0);
    });

    it('changes the email address: the emailed link confirms it, tokens show it, the old address is told', async () => {
      const user = await signup(w.ward);
      const { browser, tokens } = await signIn(user);
      let page = await open(browser);
      assert.equal(page.status, 200);
      assert.match(page.html, /<h1>Your account<\/h1>/);
      assert.ok(page.html.includes(`${user.email} <span class="muted">(not confirmed)</span>`));
      assert.match(page.html, /<dt>Phone number<\/dt><dd>None<\/dd>/);
      for (const action of ['email', 'phone', 'password'])
        assert.equal(formsOf(page.html, `${PAGE}/${action}`).length, 1, `${action} form`);
      assert.doesNotMatch(page.html, /Confirm it’s you/);

      const bad = await post(browser, page.html, `${PAGE}/email`, { email: 'not-an-email' });
      assert.equal(bad.status, 400);
      assert.match(bad.html, /role="alert" id="email-error">Enter a valid email address\./);
      assert.match(bad.html, /value="not-an-email"/, 'what was typed is kept');
      const same = await post(browser, bad.html, `${PAGE}/email`, { email: user.email });
      assert.equal(same.status, 400);
      assert.match(same.html, /This is already your email address\./);

      const next = `changed-${Date.now()}@example.com`;
      const sent = await post(browser, page.html, `${PAGE}/email`, { email: next });
      assert.equal(sent.status, 303, sent.html);
      assert.equal(sent.res.headers.get('location'), `${PAGE}?notice=email_sent`);
      page = await open(browser, sent.res.headers.get('location')!);
      assert.ok(page.html.includes(`We sent a link to ${next}; your address changes once you open it.`));
      assert.ok(page.html.includes(`<dd>${user.email} `), 'the address changes only once confirmed');

      const mail = await w.smtp.next(next);
      const link = linkIn(mail.text);
      const confirmed = await confirmEmailLink(browser, link);
      assert.equal(confirmed.status, 200);
      assert.match(await confirmed.text(), /Email address confirmed/);
      page = await open(browser);
      assert.ok(page.html.includes(`${next} <span class="muted">(confirmed)</span>`));

      const info = await w.ward.fetch('/identity/v1/userinfo', {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      const claims = (await info.json()) as Record<string, unknown>;
      assert.equal(claims.email, next);
      assert.equal(claims.email_verified, true);
      const idToken = await idTokenFrom(browser);
      assert.equal(idToken.email, next);
      assert.equal(idToken.email_verified, true);
      const notice = await w.smtp.next(user.email);
      assert.match(notice.subject, /email address of your .* account was changed/);

      const actions = (await audit(user.id)).map((e) => e.action);
      assert.ok(actions.includes('account.code_sent'), actions.join());
      assert.ok(actions.includes('account.email_changed'), actions.join());
    });

    it('changes the phone number with the SMS code: a wrong code is refused, the right one applies it', async () => {
      const user = await signup(w.ward);
      const { browser } = await signIn(user);
      let page = await open(browser);
      const bad = await post(browser, page.html, `${PAGE}/phone`, { phone_number: '0612' });
      assert.equal(bad.status, 400);
      assert.match(bad.html, /Enter a phone number in international format/);
      assert.match(bad.html, /value="0612"/);

      const phone = newPhone();
      const sent = await post(browser, page.html, `${PAGE}/phone`, { phone_number: phone });
      assert.equal(sent.status, 303, sent.html);
      assert.equal(sent.res.headers.get('location'), `${PAGE}?notice=phone_code_sent`);
      page = await open(browser, sent.res.headers.get('location')!);
      assert.ok(page.html.includes(`We sent a code by SMS to ${phone}.`));
      assert.ok(page.html.includes(`Enter the code we sent by SMS to ${phone}.`));
      assert.deepEqual(
        formsOf(page.html, `${PAGE}/phone/verify`).map((f) => f.phone_number),
        [phone],
      );
      const code = codeIn((await w.sms.next(phone)).body);

      const wrong = await post(browser, page.html, `${PAGE}/phone/verify`, {
        verification_code: code === '000000' ? '111111' : '000000',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.html, /id="phone_code-error">The code is wrong or has expired/);
      assert.match(wrong.html, /<dt>Phone number<\/dt><dd>None<\/dd>/);

      const right = await post(browser, wrong.html, `${PAGE}/phone/verify`, { verification_code: code });
      assert.equal(right.status, 303, right.html);
      assert.equal(right.res.headers.get('location'), `${PAGE}?notice=phone_changed`);
      page = await open(browser, right.res.headers.get('location')!);
      assert.match(page.html, /Your phone number is confirmed\./);
      assert.ok(page.html.includes(`${phone} <span class="muted">(confirmed)</span>`));
      assert.equal(formsOf(page.html, `${PAGE}/phone/verify`).length, 0, 'nothing pending any more');
      assert.ok((await audit(user.id)).some((e) => e.action === 'account.phone_changed'));
    });

    it('changes the password: wrong current and policy refused; other sessions end, this one stays', async () => {
      const user = await signup(w.ward);
      const mine = await signIn(user);
      const other = await signIn(user);
      assert.ok(mine.tokens.refresh_token && other.tokens.refresh_token);
      const page = await open(mine.browser);
      const next = 'a whole new passphrase';

      let res = await post(mine.browser, page.html, `${PAGE}/password`, {
        old_password: 'not the password',
        password: next,
        password_confirmation: next,
      });
      assert.equal(res.status, 400);
      assert.match(res.html, /id="password-error">The current password is wrong/);
      assert.doesNotMatch(res.html, /value="not the password"|value="a whole new/, 'passwords are never shown again');
      res = await post(mine.browser, page.html, `${PAGE}/password`, {
        old_password: user.password,
        password: 'password',
        password_confirmation: 'password',
      });
      assert.equal(res.status, 400);
      assert.match(res.html, /This password is too common\./);
      res = await post(mine.browser, page.html, `${PAGE}/password`, {
        old_password: user.password,
        password: next,
        password_confirmation: `${next}!`,
      });
      assert.equal(res.status, 400);
      assert.match(res.html, /The two new passwords differ\./);

      res = await post(mine.browser, page.html, `${PAGE}/password`, {
        old_password: user.password,
        password: next,
        password_confirmation: next,
      });
      assert.equal(res.status, 303, res.html);
      assert.equal(res.res.headers.get('location'), `${PAGE}?notice=password_changed`);
      const after = await open(mine.browser, res.res.headers.get('location')!);
      assert.equal(after.status, 200, 'this session stays');
      assert.match(after.html, /Your password was changed\. Your other sessions were signed out\./);
      assert.equal((await open(other.browser)).status, 401, 'the other session ended');
      const refresh = (token: string) =>
        tokenRequest(w.ward, { grant_type: 'refresh_token', client_id: 'spa', refresh_token: token });
      assert.equal((await refresh(other.tokens.refresh_token!)).status, 400, "the other session's grant ended");
      assert.equal((await refresh(mine.tokens.refresh_token!)).status, 200, "this session's grant stays");
      assert.match((await w.smtp.next(user.email)).subject, /password was changed/);
      await signIn({ ...user, password: next });
      const actions = (await audit(user.id)).map((e) => e.action);
      assert.ok(actions.includes('account.password_change_refused'), actions.join());
      assert.ok(actions.includes('account.password_changed'), actions.join());
    });

    it('refuses a post from another origin, without the CSRF token or with another browser’s', async () => {
      const user = await signup(w.ward);
      const { browser } = await signIn(user);
      const page = await open(browser);
      const target = `csrf-${Date.now()}@example.com`;
      const refusals: Array<[string, Record<string, string>, Record<string, string>]> = [
        ['foreign Origin', {}, { origin: 'https://evil.tld', 'sec-fetch-site': 'cross-site' }],
        ["an app's Origin", {}, { origin: 'https://app.example' }],
        ['cross-site fetch', {}, { 'sec-fetch-site': 'cross-site' }],
        ['no token', { csrf: '' }, {}],
        ['a wrong token', { csrf: 'x'.repeat(43) }, {}],
      ];
      const stranger = await signIn(await signup(w.ward));
      refusals.push([
        "another signed-in browser's token",
        { csrf: formsOf((await open(stranger.browser)).html, `${PAGE}/email`)[0]!.csrf! },
        {},
      ]);
      for (const [what, fields, headers] of refusals) {
        const res = await post(browser, page.html, `${PAGE}/email`, { email: target, ...fields }, headers);
        assert.equal(res.status, 403, what);
        assert.match(res.html, /This form has expired\. Try again\./, what);
        assert.equal(mailsTo(target), 0, `${what}: nothing sent`);
      }
      // The page is never readable cross-origin (no CORS on it, unlike the identity API).
      const cors = await browser.get(PAGE, { origin: 'https://app.example' });
      assert.equal(cors.headers.get('access-control-allow-origin'), null);
      assert.equal(cors.headers.get('x-frame-options'), 'DENY');
      // Ward's own origin (or none, or "null" from the no-referrer page) with the page's token: accepted.
      const ok = await post(browser, page.html, `${PAGE}/email`, { email: target }, { origin: w.ward.url });
      assert.equal(ok.status, 303, ok.html);
      await w.smtp.next(target);
    });

    it('with a second factor: "Confirm it’s you" with a code first, then the changes', async () => {
      const user = await signup(w.ward);
      const phone = newPhone();
      await giveFactors(w.ward, user.id, { email: user.email, phone });
      const { browser } = await signIn(user);
      let page = await open(browser);
      assert.equal(page.status, 200);
      assert.match(page.html, /<h2 id="step-up-h">Confirm it’s you<\/h2>/);
      for (const action of ['email', 'phone', 'password'])
        assert.equal(formsOf(page.html, `${PAGE}/${action}`).length, 0, `no ${action} form yet`);
      const buttons = formsOf(page.html, `${PAGE}/step-up`);
      assert.deepEqual(buttons.map((f) => f.auth_type).sort(), ['email', 'sms']);
      assert.ok(page.html.includes(`Send a code by SMS to ${phone.slice(0, 3)}`));
      assert.ok(!page.html.includes(`to ${phone}`), 'the factor is masked');

      // A direct post is refused until then.
      const target = `stepped-${Date.now()}@example.com`;
      const csrf = buttons[0]!.csrf!;
      let res = await browser.postForm(`${PAGE}/email`, { csrf, email: target });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /id="step_up-error">First confirm it’s you with a code\./);
      res = await browser.postForm(`${PAGE}/password`, {
        csrf,
        old_password: user.password,
        password: 'a whole new passphrase',
        password_confirmation: 'a whole new passphrase',
      });
      assert.equal(res.status, 403);
      assert.equal(mailsTo(target), 0);

      const sms = buttons.findIndex((f) => f.auth_type === 'sms');
      const started = await post(browser, page.html, `${PAGE}/step-up`, {}, {}, sms);
      assert.equal(started.status, 200, started.html);
      assert.match(started.html, /We sent a code to your phone\./);
      const code = codeIn((await w.sms.next(phone)).body);
      const wrong = await post(browser, started.html, `${PAGE}/step-up/verify`, {
        verification_code: code === '000000' ? '111111' : '000000',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.html, /The code is wrong or has expired/);
      const oldCookie = await browser.cookieValue(SSO);
      const right = await post(browser, wrong.html, `${PAGE}/step-up/verify`, { verification_code: code });
      assert.equal(right.status, 303, right.html);
      assert.equal(right.res.headers.get('location'), `${PAGE}?notice=confirmed`);
      const newCookie = await browser.cookieValue(SSO);
      assert.ok(newCookie && newCookie !== oldCookie, 'the session was replaced');
      const stale = new Browser(w.ward);
      await stale.jar.setCookie(`${SSO}=${oldCookie}; Secure; Path=/`, w.ward.url);
      assert.equal((await open(stale)).status, 401, 'the replaced session is over');

      page = await open(browser, right.res.headers.get('location')!);
      assert.match(page.html, /Thank you\. You may now change/);
      assert.doesNotMatch(page.html, /Confirm it’s you/);
      const sent = await post(browser, page.html, `${PAGE}/email`, { email: target });
      assert.equal(sent.status, 303, sent.html);
      await w.smtp.next(target);
      const events = await audit(user.id);
      assert.ok(events.some((e) => e.action === 'mfa.stepup_started' && e.target === 'client:ward:account'));
      assert.ok(events.some((e) => e.action === 'mfa.stepup_verified'));

      // The step-up is fresh for 5 minutes; after that it is owed again.
      w.ward.clock.advance(6 * 60_000);
      page = await open(browser);
      assert.match(page.html, /Confirm it’s you/);
      assert.equal(formsOf(page.html, `${PAGE}/email`).length, 0);
    });

    it('speaks the stored locale, else the browser\'s; a "Back to" link for the app that linked here', async () => {
      const french = await signup(w.ward, 'spa', { locale: 'fr-FR' });
      const { browser } = await signIn(french);
      let page = await open(browser, PAGE, { 'accept-language': 'en' });
      assert.match(page.html, /<html lang="fr">/);
      assert.match(page.html, /<h1>Votre compte<\/h1>/);
      assert.match(page.html, /non confirmé/);
      const bad = await post(browser, page.html, `${PAGE}/email`, { email: 'pas-une-adresse' });
      assert.equal(bad.status, 400);
      assert.match(bad.html, /Saisissez une adresse e-mail valide\./);

      const plain = await signIn(await signup(w.ward));
      page = await open(plain.browser, PAGE, { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' });
      assert.match(page.html, /<h1>Votre compte<\/h1>/);
      page = await open(plain.browser, PAGE, { 'accept-language': 'de' });
      assert.match(page.html, /<h1>Ihr Konto<\/h1>/);
      page = await open(plain.browser, PAGE, { 'accept-language': 'it' });
      assert.match(page.html, /<h1>Your account<\/h1>/);

      page = await open(plain.browser, `${PAGE}?client_id=spa`);
      assert.match(page.html, /<a href="https:\/\/app\.example\/">Back to Shop SPA<\/a>/);
      const phone = newPhone();
      const sent = await post(plain.browser, page.html, `${PAGE}/phone`, { phone_number: phone });
      assert.equal(sent.res.headers.get('location'), `${PAGE}?notice=phone_code_sent&client_id=spa`);
      await w.sms.next(phone);
      page = await open(plain.browser, `${PAGE}?client_id=nope&notice=<script>`);
      assert.doesNotMatch(page.html, /Back to|<script>|role="status"/);
    });
  });
}

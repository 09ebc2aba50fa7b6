// Per-account protection of password sign-in (NIST SP 800-63B 5.2.2), against a listening Ward on
// SQLite and PostgreSQL: failed passwords counted per identifier (account or not, the same answers),
// a growing wait refused with 429 + Retry-After, then a lockout with one notice (email, or SMS for a
// phone-only account, in English or French), a success forgets, an administrator unlocks (audited),
// parallel attempts cannot slip past a wait, and every password path is covered: the SDK's password
// login, the hosted login form and the password grant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { renderLockNotice } from '../../src/integrations/lock-notice.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, signup, tokenRequest } from '../helpers/oauth.js';

const MOBILE = { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] };
const LIMITS = {
  rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } },
  sign_in_delay_after: 3,
  sign_in_delay_seconds: 2,
  sign_in_lock_after: 5,
  sign_in_lock_seconds: 600,
};

for (const engine of engines()) {
  describe(`per-account protection of password sign-in (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT, MOBILE, CONSOLE_CLIENT], account: LIMITS });
    });
    after(() => m.close());

    const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      m.ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', ...body }),
      });
    const answer = async (res: Response) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as Record<string, unknown>,
    });
    const advance = (seconds: number) => m.ward.clock.advance(seconds * 1000);

    /** Five wrong passwords with the waits between them respected: the answers, then one too early. */
    async function failToLockout(
      email: string,
      field: 'email' | 'phone_number' = 'email',
      headers: Record<string, string> = {},
    ) {
      const seen: Array<{ status: number; retryAfter: string | null; key: unknown }> = [];
      const wrong = async () => {
        const a = await answer(await login({ [field]: email, password: 'not the password' }, headers));
        seen.push({ status: a.status, retryAfter: a.retryAfter, key: a.body.error_message_key });
        return a;
      };
      for (let i = 0; i < 3; i++) await wrong(); // failures 1..3: the third starts a 2 s wait
      await wrong(); // too early: refused, not counted
      advance(2);
      await wrong(); // failure 4: a 4 s wait
      await wrong(); // too early
      advance(4);
      await wrong(); // failure 5: the lockout
      await wrong(); // locked
      return seen;
    }

    it('slows, then locks, an account after failed passwords; one notice; no permanent lock', async () => {
      const user = await signup(m.ward);
      const seen = await failToLockout(user.email);
      const wrongPassword = { status: 400, retryAfter: null, key: 'error.invalidEmailOrPassword' };
      assert.deepEqual(seen, [
        wrongPassword,
        wrongPassword,
        wrongPassword,
        { status: 429, retryAfter: '2', key: 'error.signIn.delayed' },
        wrongPassword,
        { status: 429, retryAfter: '4', key: 'error.signIn.delayed' },
        wrongPassword,
        { status: 429, retryAfter: '600', key: 'error.account.locked' },
      ]);
      // Even the right password waits for the end of the lockout (it is not even checked).
      const locked = await answer(await login({ email: user.email, password: user.password }));
      assert.equal(locked.status, 429);
      assert.equal(locked.body.error, 'rate_limit_reached');
      assert.match(String(locked.body.error_description), /paused after too many failed attempts/);
      // One notice for the lockout, naming its end.
      const notice = await m.smtp.next(user.email);
      assert.equal(notice.subject, 'Sign-in to your Ward account is paused');
      assert.match(notice.text, /password sign-in to your Ward account was paused until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      assert.doesNotMatch(notice.text, /not the password/);
      // The lockout is a security event of the user's (their export lists it).
      await m.ward.registry.events.flush();
      const events = await m.ward.registry.storage.audit.list({ action: 'login.locked', actorId: user.id, limit: 5 });
      assert.equal(events.length, 1);
      // The lockout ends by itself: the right password then works, and forgets every failure.
      advance(600);
      assert.equal((await login({ email: user.email, password: user.password })).status, 200);
      assert.equal((await login({ email: user.email, password: 'wrong again' })).status, 400);
      assert.equal((await login({ email: user.email, password: 'wrong again' })).status, 400);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(m.smtp.messages.filter((x) => x.to === user.email).length, 1, 'one notice per lockout');
    });

    it("sends the lockout notice in the request's language: Custom-Locale before Accept-Language", async () => {
      // The Core SDK's Custom-Locale stands for ui_locales on an API call (the one language rule):
      // the notice follows it, not the first tag of Accept-Language as it once did.
      const user = await signup(m.ward);
      await failToLockout(user.email, 'email', { 'custom-locale': 'fr', 'accept-language': 'en-GB,en;q=0.9' });
      const notice = await m.smtp.next(user.email);
      assert.match(notice.subject, /La connexion à votre compte .* est suspendue/);
    });

    it("puts the user's stored locale after Custom-Locale and before Accept-Language", async () => {
      // The user is known only once the password is checked: the notice still follows the rule's order.
      const german = await signup(m.ward, 'spa', { locale: 'de-DE' });
      await failToLockout(german.email, 'email', { 'accept-language': 'en-GB,en;q=0.9' });
      assert.match((await m.smtp.next(german.email)).subject, /Die Anmeldung bei Ihrem .*-Konto ist ausgesetzt/);
      const asked = await signup(m.ward, 'spa', { locale: 'de-DE' });
      await failToLockout(asked.email, 'email', { 'custom-locale': 'fr', 'accept-language': 'en' });
      assert.match((await m.smtp.next(asked.email)).subject, /La connexion à votre compte .* est suspendue/);
    });

    it('answers an identifier without an account exactly as one with an account', async () => {
      const user = await signup(m.ward);
      const ghost = `ghost-${Date.now()}-${engine}@example.com`;
      assert.deepEqual(await failToLockout(ghost), await failToLockout(user.email));
      const a = await answer(await login({ email: ghost, password: 'x' }));
      const b = await answer(await login({ email: user.email, password: 'x' }));
      assert.deepEqual({ ...a, retryAfter: null }, { ...b, retryAfter: null });
      assert.ok(Math.abs(Number(a.retryAfter) - Number(b.retryAfter)) <= 6);
    });

    it('lets one of parallel attempts through once a wait is over, and refuses the others', async () => {
      const user = await signup(m.ward);
      for (let i = 0; i < 3; i++) await login({ email: user.email, password: 'nope' });
      advance(2);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => login({ email: user.email, password: 'nope' }).then(answer)),
      );
      assert.equal(answers.filter((a) => a.status === 400).length, 1, 'one password checked');
      assert.equal(answers.filter((a) => a.status === 429).length, 7);
    });

    it('checks one password at a time for an identifier that has a failure, even below the thresholds', async () => {
      const user = await signup(m.ward);
      assert.equal((await login({ email: user.email, password: 'nope' })).status, 400);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => login({ email: user.email, password: 'nope' }).then(answer)),
      );
      // One at a time: those that arrive while a password is checked are refused (without the lease all
      // eight read the row before any check ends, and all are checked); one that arrives after a check
      // ended may be checked in turn.
      const checked = answers.filter((a) => a.status === 400).length;
      assert.ok(checked >= 1 && checked <= 4, `${checked} passwords checked`);
      assert.equal(answers.filter((a) => a.status === 429).length, 8 - checked);
      for (const a of answers.filter((x) => x.status === 429))
        assert.equal(a.body.error_message_key, 'error.signIn.delayed');
      // No lease outlives its check: once any wait is over, the right password goes on.
      advance(601); // past even a lockout (at most 5 failures here)
      assert.equal((await login({ email: user.email, password: user.password })).status, 200);
    });

    it('counts a phone number as an identifier; the lockout notice goes by SMS, in French for fr', async () => {
      const phone = '+33612340099';
      const res = await m.ward.fetch('/identity/v1/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', data: { phone_number: phone, password: 'correct horse battery' } }),
      });
      assert.equal(res.status, 200, await res.text());
      const seen = await failToLockout(phone.replace('+33', '+33 '), 'phone_number', {
        'accept-language': 'fr-FR,fr;q=0.9',
      });
      assert.equal(seen.at(-1)!.key, 'error.account.locked');
      const sms = await m.sms.next(phone);
      assert.match(
        sms.body,
        /trop de mots de passe erronés, connexion suspendue jusqu'au \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
      );
      // And in English, escaped, for the other locale.
      const en = renderLockNotice({ at: 0, until: 600_000, appName: 'Shop <b>' });
      assert.equal(en.subject, 'Sign-in to your Shop <b> account is paused');
      assert.match(en.html, /Shop &lt;b&gt;/);
      assert.match(en.sms, /sign-in paused until 1970-01-01 00:10 UTC/);
    });

    it('covers the hosted login form (a 429 page with Retry-After) and the password grant', async () => {
      const user = await signup(m.ward);
      const browser = new Browser(m.ward);
      const { challenge } = pkcePair();
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      let html = await page.text();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await submitLoginPage(browser, html, user.email, 'wrong password');
        statuses.push(res.status);
        if (res.status === 429) assert.equal(res.headers.get('retry-after'), '2');
        html = await res.text();
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assert.match(html, /Too many failed attempts for this account/);
      // The same count: the password grant is refused too, with the catalog error.
      const grant = await tokenRequest(m.ward, {
        grant_type: 'password',
        username: user.email,
        password: user.password,
        client_id: 'mobile',
        scope: 'openid',
      });
      assert.equal(grant.status, 429);
      assert.equal(grant.headers.get('retry-after'), '2');
      assert.equal(((await grant.json()) as { error_message_key: string }).error_message_key, 'error.signIn.delayed');
      advance(2);
      const ok = await tokenRequest(m.ward, {
        grant_type: 'password',
        username: user.email,
        password: user.password,
        client_id: 'mobile',
        scope: 'openid',
      });
      assert.equal(ok.status, 200);
    });

    it('lets an administrator see and unlock a locked account (audited); a Viewer cannot', async () => {
      const user = await signup(m.ward);
      await failToLockout(user.email);
      const manager = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
      const viewer = api(m.ward, (await consoleToken(m.ward, 'viewer')).token);
      const state = await manager.get(`/api/v1/users/${user.id}/sign-in-protection`);
      assert.equal(state.status, 200);
      assert.equal(state.body.locked, true);
      assert.equal(state.body.failures, 5);
      assert.equal((await viewer.post(`/api/v1/users/${user.id}/unlock`)).status, 403);
      const unlocked = await manager.post(`/api/v1/users/${user.id}/unlock`);
      assert.equal(unlocked.status, 200);
      assert.deepEqual(unlocked.body, { unlocked: true });
      assert.equal((await login({ email: user.email, password: user.password })).status, 200);
      assert.deepEqual((await manager.post(`/api/v1/users/${user.id}/unlock`, {})).body, { unlocked: false });
      const audit = await m.ward.registry.storage.audit.list({
        action: 'user.unlocked',
        target: `user:${user.id}`,
        limit: 10,
      });
      assert.equal(audit.length, 2);
      assert.equal(audit[0]!.outcome, 'success');
    });

    it('keeps the thresholds as account settings: read, changed, and refused when inconsistent', async () => {
      const admin = api(m.ward, (await consoleToken(m.ward, 'administrator')).token);
      const read = await admin.get('/api/v1/settings/account');
      assert.equal(read.body.sign_in_lock_after, 5);
      assert.equal(read.body.sign_in_failure_memory_seconds, 86400);
      const bad = await admin.patch('/api/v1/settings/account', { sign_in_lock_after: 2 });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error_description, /sign_in_lock_after/);
      const good = await admin.patch('/api/v1/settings/account', { sign_in_lock_seconds: 900 });
      assert.equal(good.status, 200);
      assert.equal(good.body.sign_in_lock_seconds, 900);
      await admin.patch('/api/v1/settings/account', { sign_in_lock_seconds: 600 });
    });
  });
}

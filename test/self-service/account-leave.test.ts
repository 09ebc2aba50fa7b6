// A user takes their data and leaves (issue 36): "Download my data" and "Delete my account" on the
// hosted account page, driven over HTTP with a cookie jar, on SQLite and PostgreSQL. The deletion needs
// the password (or a code mailed to a user without one), an explicit confirmation, and "Confirm it's
// you" when the user has a second factor; it erases everything like the administrators' delete, mails
// a notice and records `user.deleted` (a webhook event) without personal data. The account setting
// turns it off; with a grace period the account is signed out at once, erased by the job once the
// days pass, and a sign-in meanwhile cancels it (the hosted form's, and the password grant's).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ACCOUNT_PAGE, formsOf, openPage, postPageForm, signInBrowser } from '../helpers/account-page.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { eventOfAudit } from '../../src/webhooks/outbox.js';
import { codeFor, PUBLIC_CLIENT, redeem, signup, tokenRequest } from '../helpers/oauth.js';

const SSO = '__Host-ward_sso';
const DAY = 24 * 3600_000;
const MOBILE = { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] };

for (const engine of engines()) {
  describe(`a user leaves from the account page on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({ engine, clients: [PUBLIC_CLIENT, MOBILE] });
    });
    after(() => w.close());
    beforeEach(() => w.ward.setAccount({ self_service: { account_deletion: true, deletion_grace_days: 0 } }));

    const storage = () => w.ward.registry.storage;
    async function auditAbout(userId: string) {
      await w.ward.registry.events.flush();
      const about = await storage().audit.list({ target: `user:${userId}`, limit: 100 });
      return [...about, ...(await storage().audit.list({ actorId: userId, limit: 100 }))];
    }

    it('downloads everything kept about the user as a JSON file, without a secret', async () => {
      const user = await signup(w.ward);
      const browser = await signInBrowser(w.ward, user.email, user.password);
      const page = await openPage(browser);
      assert.match(
        page.html,
        /<a id="download-data" href="\/identity\/v1\/account\/data" download>Download my data<\/a>/,
      );
      await w.ward.registry.events.flush(); // the sign-in's audit events are written in batches
      const res = await browser.get(`${ACCOUNT_PAGE}/data`);
      assert.equal(res.status, 200, await res.clone().text());
      assert.match(res.headers.get('content-disposition')!, /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const text = await res.text();
      const data = JSON.parse(text);
      assert.equal(data.format, 'ward.user-export.v1');
      assert.equal(data.user.id, user.id);
      assert.equal(data.user.email, user.email);
      assert.equal(data.profile, null);
      assert.ok(data.sessions.length >= 1, 'the session it was asked in');
      assert.deepEqual(data.consents, []);
      assert.equal(data.pending_deletion, null);
      assert.ok(Array.isArray(data.audit_events) && data.audit_events.length > 0);
      const stored = await storage().users.findById(user.id);
      assert.ok(!text.includes(stored!.password_hash!), 'no password hash');
      assert.ok(!text.includes('$argon2'), 'no hash at all');
      assert.ok((await auditAbout(user.id)).some((e) => e.action === 'account.data_exported'));
      // Without a session: back to the page (which says so).
      const res2 = await new Browser(w.ward).get(`${ACCOUNT_PAGE}/data`);
      assert.equal(res2.status, 303);
    });

    it('deletes the account with the password and the confirmation: erased, told, audited without personal data', async () => {
      const user = await signup(w.ward);
      const browser = await signInBrowser(w.ward, user.email, user.password);
      const other = await signInBrowser(w.ward, user.email, user.password);
      let page = await openPage(browser);
      assert.match(page.html, /<h2 id="delete-h">Delete my account<\/h2>/);
      assert.match(page.html, /erased at once\. This cannot be undone\./);
      const action = `${ACCOUNT_PAGE}/delete`;
      assert.equal(formsOf(page.html, action).length, 1);

      const wrong = await postPageForm(browser, page.html, action, { password: 'not the password', confirm: 'yes' });
      assert.equal(wrong.status, 400);
      assert.match(wrong.html, /id="delete-error">The current password is wrong/);
      const unconfirmed = await postPageForm(browser, wrong.html, action, { password: user.password });
      assert.equal(unconfirmed.status, 400);
      assert.match(unconfirmed.html, /id="delete-error">Confirm that you want to delete your account/);
      assert.ok(await storage().users.findById(user.id), 'nothing deleted yet');

      page = await openPage(browser);
      const done = await postPageForm(browser, page.html, action, { password: user.password, confirm: 'yes' });
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /<h1>Your account was deleted<\/h1>/);
      assert.equal(await storage().users.findById(user.id), undefined);
      assert.equal((await storage().userRecords.sessionsOf(user.id)).length, 0);
      assert.equal((await openPage(browser)).status, 401, 'signed out');
      assert.equal((await openPage(other)).status, 401, 'every session ended');
      const notice = await w.smtp.next(user.email);
      assert.match(notice.subject, /account was deleted/);
      const events = await auditAbout(user.id);
      const deleted = events.find((e) => e.action === 'user.deleted');
      assert.ok(deleted, 'user.deleted recorded');
      assert.equal(deleted.actor_type, 'user');
      assert.equal(deleted.ip, null);
      assert.ok(!deleted.details.includes(user.email), 'no personal data in the event');
      assert.equal(JSON.parse(deleted.details).by, 'user');
      assert.equal(JSON.parse(deleted.details).erased.users, 1);
      // The webhook event it becomes (webhooks/catalog.ts): the user's id, nothing personal.
      assert.deepEqual(eventOfAudit(deleted), { type: 'user.deleted', at: deleted.at, data: { user_id: user.id } });
    });

    it('a user without a password confirms with a code mailed to them', async () => {
      const email = `nopass-${Date.now()}@example.com`;
      const u = await w.ward.registry.users.createByAddress('email', email);
      const { cookie } = await w.ward.registry.sessions.create(u.id, ['email']);
      const browser = new Browser(w.ward);
      await browser.jar.setCookie(`${SSO}=${cookie}; Secure; Path=/`, w.ward.url);
      let page = await openPage(browser);
      assert.equal(page.status, 200);
      assert.equal(formsOf(page.html, `${ACCOUNT_PAGE}/delete`).length, 0, 'the code first');
      page = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/delete/code`, {});
      assert.equal(page.status, 200, page.html);
      assert.match(page.html, /We sent a code to your email address\./);
      const code = codeIn((await w.smtp.next(email)).text);
      const wrong = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/delete`, {
        verification_code: code === '000000' ? '111111' : '000000',
        confirm: 'yes',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.html, /The code is wrong or has expired/);
      const done = await postPageForm(browser, wrong.html, `${ACCOUNT_PAGE}/delete`, {
        verification_code: code,
        confirm: 'yes',
      });
      assert.equal(done.status, 200, done.html);
      assert.equal(await storage().users.findById(u.id), undefined);
      assert.ok((await auditAbout(u.id)).some((e) => e.action === 'account.deletion_code_sent'));
    });

    it('with a second factor: "Confirm it’s you" first; a direct post is refused', async () => {
      const user = await signup(w.ward);
      await giveFactors(w.ward, user.id, { email: user.email });
      const browser = await signInBrowser(w.ward, user.email, user.password);
      const page = await openPage(browser);
      assert.match(page.html, /Confirm it’s you/);
      assert.equal(formsOf(page.html, `${ACCOUNT_PAGE}/delete`).length, 0);
      const csrf = formsOf(page.html, `${ACCOUNT_PAGE}/step-up`)[0]!.csrf!;
      const res = await browser.postForm(`${ACCOUNT_PAGE}/delete`, { csrf, password: user.password, confirm: 'yes' });
      assert.equal(res.status, 403);
      assert.ok(await storage().users.findById(user.id));
      assert.equal((await browser.get(`${ACCOUNT_PAGE}/data`)).status, 403, 'the download too');
    });

    it('the account setting turns it off', async () => {
      w.ward.setAccount({ self_service: { account_deletion: false } });
      const user = await signup(w.ward);
      const browser = await signInBrowser(w.ward, user.email, user.password);
      const page = await openPage(browser);
      assert.doesNotMatch(page.html, /id="delete-h"/);
      assert.match(page.html, /Download my data/);
      const csrf = formsOf(page.html, `${ACCOUNT_PAGE}/email`)[0]!.csrf!;
      const res = await browser.postForm(`${ACCOUNT_PAGE}/delete`, { csrf, password: user.password, confirm: 'yes' });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Deleting your own account is turned off/);
      assert.ok(await storage().users.findById(user.id));
    });

    it('with a grace period: signed out at once, erased by the job once it passes, in French', async () => {
      w.ward.setAccount({ self_service: { deletion_grace_days: 7 } });
      const user = await signup(w.ward, 'spa', { locale: 'fr-FR' });
      const browser = await signInBrowser(w.ward, user.email, user.password);
      let page = await openPage(browser);
      assert.match(page.html, /effacés après 7 jours/);
      page = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/delete`, {
        password: user.password,
        confirm: 'yes',
      });
      assert.equal(page.status, 200, page.html);
      assert.match(page.html, /<h1>Votre compte va être supprimé<\/h1>/);
      assert.equal((await openPage(browser)).status, 401, 'signed out at once');
      assert.ok(await storage().users.findById(user.id), 'not erased yet');
      assert.match((await w.smtp.next(user.email)).subject, /va être supprimé/);
      assert.equal(await w.ward.registry.deletionJob.run(), 0, 'not due');
      w.ward.clock.advance(7 * DAY + 1000);
      assert.equal(await w.ward.registry.deletionJob.run(), 1);
      assert.equal(await storage().users.findById(user.id), undefined);
      assert.equal(await storage().accountDeletions.find(user.id), undefined);
      assert.match((await w.smtp.next(user.email)).subject, /a été supprimé/);
      const events = await auditAbout(user.id);
      assert.ok(events.some((e) => e.action === 'account.deletion_scheduled'));
      assert.ok(events.some((e) => e.action === 'user.deleted' && e.actor_type === 'system'));
    });

    it('with a grace period: signing in again cancels the deletion', async () => {
      w.ward.setAccount({ self_service: { deletion_grace_days: 2 } });
      const user = await signup(w.ward);
      const browser = await signInBrowser(w.ward, user.email, user.password);
      const page = await openPage(browser);
      const done = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/delete`, {
        password: user.password,
        confirm: 'yes',
      });
      assert.match(done.html, /Your account will be deleted/);
      assert.ok(await storage().accountDeletions.find(user.id));
      await signInBrowser(w.ward, user.email, user.password);
      assert.equal(await storage().accountDeletions.find(user.id), undefined, 'cancelled');
      w.ward.clock.advance(3 * DAY);
      assert.equal(await w.ward.registry.deletionJob.run(), 0);
      assert.ok(await storage().users.findById(user.id), 'kept');
      assert.ok((await auditAbout(user.id)).some((e) => e.action === 'account.deletion_cancelled'));
    });
    it('with a grace period: a password-grant sign-in cancels the deletion too', async () => {
      w.ward.setAccount({ self_service: { deletion_grace_days: 2 } });
      const { code, verifier, user } = await codeFor(w.ward);
      const { body } = await redeem(w.ward, code, verifier);
      const res = await w.ward.fetch('/identity/v1/delete-account', {
        method: 'POST',
        headers: { authorization: `Bearer ${body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: user.password, confirm: true }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      assert.ok(await storage().accountDeletions.find(user.id), 'scheduled');
      const grant = (password: string) =>
        tokenRequest(w.ward, {
          grant_type: 'password',
          username: user.email,
          password,
          client_id: 'mobile',
          scope: 'openid',
        });
      assert.equal((await grant('not the password')).status, 400);
      assert.ok(await storage().accountDeletions.find(user.id), 'a failed attempt cancels nothing');
      const ok = await grant(user.password);
      assert.equal(ok.status, 200, await ok.clone().text());
      assert.equal(await storage().accountDeletions.find(user.id), undefined, 'cancelled');
      w.ward.clock.advance(3 * DAY);
      assert.equal(await w.ward.registry.deletionJob.run(), 0);
      assert.ok(await storage().users.findById(user.id), 'kept');
      assert.ok((await auditAbout(user.id)).some((e) => e.action === 'account.deletion_cancelled'));
    });
    it('the JSON API with an access token: the data, then the deletion (and the refusals first)', async () => {
      const { code, verifier, user } = await codeFor(w.ward);
      const { body } = await redeem(w.ward, code, verifier);
      const auth = { authorization: `Bearer ${body.access_token}` };
      const call = (path: string, method: string, json?: unknown) =>
        w.ward.fetch(path, {
          method,
          headers: { ...auth, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        });
      assert.equal((await w.ward.fetch('/identity/v1/account-data')).status, 401, 'no token');
      const data = await call('/identity/v1/account-data', 'GET');
      assert.equal(data.status, 200);
      const exported = (await data.json()) as { format: string; user: { id: string }; consents: unknown[] };
      assert.equal(exported.format, 'ward.user-export.v1');
      assert.equal(exported.user.id, user.id);
      assert.deepEqual(exported.consents, []);

      let res = await call('/identity/v1/delete-account', 'POST', { password: user.password });
      assert.equal(res.status, 400);
      assert.equal(
        ((await res.json()) as { error_message_key: string }).error_message_key,
        'error.account.deletionNotConfirmed',
      );
      // Wrong types are refusals with their key, never a 500.
      for (const body of [
        { password: 12345, confirm: true },
        { password: [user.password], confirm: true },
      ]) {
        res = await call('/identity/v1/delete-account', 'POST', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.ok(((await res.json()) as { error_message_key: string }).error_message_key);
      }
      res = await call('/identity/v1/delete-account', 'POST', { password: user.password, confirm: { yes: true } });
      assert.equal(res.status, 400);
      res = await call('/identity/v1/delete-account', 'POST', { password: 'wrong', confirm: true });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error_message_key: string }).error_message_key, 'error.invalidOldPassword');
      assert.ok(await storage().users.findById(user.id));
      res = await call('/identity/v1/delete-account', 'POST', { password: user.password, confirm: true });
      assert.equal(res.status, 200, await res.clone().text());
      assert.deepEqual(await res.json(), { status: 'deleted' });
      assert.equal(await storage().users.findById(user.id), undefined);
      assert.equal((await call('/identity/v1/account-data', 'GET')).status, 401, 'the token died with the account');
    });
  });
}

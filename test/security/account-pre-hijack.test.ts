// Account pre-hijacking (issue 33, item 5): an attacker signs up with the victim's address and a
// password of theirs, and keeps a session. When the victim first proves the address (here a magic
// link's code), what the attacker made before ends: the password no longer signs in, the attacker's
// refresh token and session are revoked. An address proven already is left alone. The email
// verification link confirms nothing by its GET (a mail scanner opens links): only its page's
// button, a POST with the form token, does. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, codeFor, pkcePair, redeem, tokenRequest } from '../helpers/oauth.js';
import { NO_RATE_LIMITS } from './support.js';

/** The code of a message (its link and its address, which may hold six digits, left out). */
const mailCode = (text: string) => codeIn(text.replace(/https:\/\/\S+|\S+@\S+/g, ''));
const CALLBACK = 'https://app.example/cb';

for (const engine of engines()) {
  describe(`account pre-hijacking on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...NO_RATE_LIMITS, passwordless: { magic_link: true } },
      });
    });
    after(() => w.close());

    const login = (email: string, password: string) =>
      postJson(w.ward, '/identity/v1/password/login', { client_id: 'spa', scope: 'openid', email, password });

    /** The victim signs in by the code of a magic link (the SDK's web_message verify). */
    async function magicLinkSignIn(email: string) {
      const start = await postJson(w.ward, '/identity/v1/passwordless/start', {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CALLBACK,
        scope: 'openid email',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        auth_type: 'magic_link',
        email,
      });
      assert.equal(start.status, 200, JSON.stringify(start.body));
      const code = mailCode((await w.smtp.next(email)).text);
      const done = await postJson(w.ward, '/identity/v1/passwordless/verify', {
        auth_type: 'magic_link',
        email,
        verification_code: code,
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      return done.body;
    }

    it("the victim's first magic link ends the attacker's password, session and refresh token", async () => {
      // The attacker: signs up with the victim's address (unverified), signs in, keeps a refresh token.
      const { code, verifier, user: attacker } = await codeFor(w.ward, { scope: 'openid email offline_access' });
      const tokens = (await redeem(w.ward, code, verifier)).body as { refresh_token?: string };
      assert.ok(tokens.refresh_token);
      assert.equal((await login(attacker.email, attacker.password)).status, 200, 'the password works before');

      await magicLinkSignIn(attacker.email);
      const user = await w.ward.registry.users.find(attacker.id);
      assert.equal(user?.email_verified, true);
      assert.equal(user?.password_hash, null, 'the password set before the proof is removed');
      const after = await login(attacker.email, attacker.password);
      assert.equal(after.status, 400, JSON.stringify(after.body));
      assert.equal(after.body.error_message_key, 'error.invalidEmailOrPassword');
      const refreshed = await tokenRequest(w.ward, {
        grant_type: 'refresh_token',
        client_id: 'spa',
        refresh_token: tokens.refresh_token!,
      });
      assert.equal(refreshed.status, 400, 'the refresh token made before is revoked');
      const open = await w.ward.registry.db.db
        .selectFrom('sessions')
        .select('id_digest')
        .where('user_id', '=', attacker.id)
        .where('revoked_at', 'is', null)
        .execute();
      assert.equal(open.length, 1, "only the victim's new session is left");
    });

    it('an address proven already keeps its password', async () => {
      const { user } = await codeFor(w.ward);
      await magicLinkSignIn(user.email);
      await magicLinkSignIn(user.email);
      assert.equal((await login(user.email, user.password)).status, 400, 'removed at the first proof');
      // A password chosen after the proof (by a reset) stays through later proofs.
      const { user: other } = await codeFor(w.ward);
      await w.ward.registry.storage.users.markVerified(other.id, 'email', other.email, w.ward.clock.now());
      await magicLinkSignIn(other.email);
      assert.equal((await login(other.email, other.password)).status, 200);
    });
  });

  describe(`the email verification link on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...NO_RATE_LIMITS, self_service: { email_verification: 'send' } },
      });
    });
    after(() => w.close());

    it('its GET shows a page and verifies nothing; the page’s POST verifies', async () => {
      const email = `verify-${Date.now()}@example.com`;
      const res = await postJson(w.ward, '/identity/v1/signup', {
        client_id: 'spa',
        data: { email, password: 'a long enough password' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const link = new URL(/https:\/\/\S+verify-email\/link\S+/.exec((await w.smtp.next(email)).text)![0]);
      const browser = new Browser(w.ward);
      // A mail scanner, then the user, open the link: a page, nothing verified.
      for (let i = 0; i < 2; i++) {
        const page = await browser.get(`${link.pathname}${link.search}`);
        assert.equal(page.status, 200);
        assert.match(await page.clone().text(), /Confirm your email address/);
        assert.equal((await w.ward.registry.users.find(res.body.id))?.email_verified, false);
      }
      const html = await (await browser.get(`${link.pathname}${link.search}`)).text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
      // A cross-site form without this browser's form token verifies nothing.
      const forged = await browser.postForm(
        '/identity/v1/verify-email/link',
        { token: link.searchParams.get('token')!, csrf: 'forged' },
        { origin: 'https://evil.example' },
      );
      assert.equal(forged.status, 400);
      assert.equal((await w.ward.registry.users.find(res.body.id))?.email_verified, false);
      const done = await browser.postForm(
        '/identity/v1/verify-email/link',
        { token: field('token'), csrf: field('csrf') },
        { origin: 'null' },
      );
      assert.equal(done.status, 200, await done.text());
      assert.equal((await w.ward.registry.users.find(res.body.id))?.email_verified, true);
      // The signup's password stays: the link confirms the signup it was sent for.
      assert.equal(
        (
          await postJson(w.ward, '/identity/v1/password/login', {
            client_id: 'spa',
            scope: 'openid',
            email,
            password: 'a long enough password',
          })
        ).status,
        200,
      );
    });
  });
}

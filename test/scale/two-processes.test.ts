// Scale-out: two Ward processes on one database (PostgreSQL when configured, else one SQLite file)
// and no other coordination: a tkn, a code, a session, a sign-in interaction and a step_up token made on one process
// redeem on the other; the same code sent to both at once is redeemed exactly once; a rate limit
// holds as the sum over both processes.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { codeIn } from '../helpers/mfa.js';
import { pkcePair } from '../helpers/oauth.js';
import { sharedDb, startWardProcess, type SharedDb, type WardProcess } from '../helpers/processes.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

const CB = 'https://app.example/cb';

for (const engine of engines().reverse()) {
  describe(`two Ward processes on one ${engine} database`, () => {
    let db: SharedDb;
    let smtp: SmtpSink;
    let a: WardProcess;
    let b: WardProcess;
    before(async () => {
      db = await sharedDb(engine);
      smtp = await startSmtpSink();
      const config = join(db.env.WARD_DATA_DIR!, 'ward.json');
      writeFileSync(
        config,
        JSON.stringify({
          account: {
            rate_limits: { login: { limit: 6, window_seconds: 600 }, signup: { limit: null }, token: { limit: null } },
            passwordless: { magic_link: true },
          },
          clients: [
            {
              client_id: 'spa',
              type: 'public',
              allowed_callback_urls: [CB],
              allowed_origins: ['https://app.example'],
              sso: true,
            },
          ],
        }),
      );
      const env = { ...db.env, WARD_CONFIG: config, WARD_MODE: 'production', WARD_SMTP_URL: smtp.url };
      a = await startWardProcess(env);
      b = await startWardProcess(env);
    });
    after(async () => {
      await a?.stop();
      await b?.stop();
      await smtp?.close();
      await db?.drop();
    });

    const post = (w: WardProcess, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${w.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const form = (w: WardProcess, body: Record<string, string>) =>
      fetch(`${w.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    const authorize = (w: WardProcess, extra: Record<string, string>, cookie?: string) => {
      const q = new URLSearchParams({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid email',
        ...extra,
      });
      return fetch(`${w.url}/oauth/authorize?${q}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    };
    const codeOf = (res: Awaited<ReturnType<typeof fetch>>) =>
      new URL(res.headers.get('location')!).searchParams.get('code');
    const ssoCookie = (res: Awaited<ReturnType<typeof fetch>>) =>
      res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .find((c) => c.startsWith('__Host-ward_sso='))!;
    let n = 0;
    async function user(w: WardProcess) {
      const email = `scale${++n}-${engine}@example.com`;
      const password = 'a good long password';
      assert.equal((await post(w, '/identity/v1/signup', { client_id: 'spa', data: { email, password } })).status, 200);
      return { email, password };
    }
    /** A new user signed in on `w` with a password (tkn -> code -> token): its email and access token. */
    async function signedIn(w: WardProcess) {
      const u = await user(w);
      const login = (await (
        await post(w, '/identity/v1/password/login', {
          client_id: 'spa',
          scope: 'openid',
          email: u.email,
          password: u.password,
        })
      ).json()) as { tkn: string };
      const pkce = pkcePair();
      const res = await authorize(w, { tkn: login.tkn, code_challenge: pkce.challenge, code_challenge_method: 'S256' });
      const token = (await (
        await form(w, {
          grant_type: 'authorization_code',
          code: codeOf(res)!,
          client_id: 'spa',
          redirect_uri: CB,
          code_verifier: pkce.verifier,
        })
      ).json()) as { access_token: string };
      return { email: u.email, accessToken: token.access_token };
    }

    it('redeems on one process what the other issued: tkn, code, session', async () => {
      const u = await user(a);
      const tkn = (
        (await (
          await post(a, '/identity/v1/password/login', {
            client_id: 'spa',
            scope: 'openid email',
            email: u.email,
            password: u.password,
          })
        ).json()) as { tkn: string }
      ).tkn;
      const pkce = pkcePair();
      const res = await authorize(b, { tkn, code_challenge: pkce.challenge, code_challenge_method: 'S256' });
      assert.equal(res.status, 302);
      const token = await form(a, {
        grant_type: 'authorization_code',
        code: codeOf(res)!,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: pkce.verifier,
      });
      assert.equal(token.status, 200);
      const again = pkcePair();
      const sso = await authorize(
        a,
        { prompt: 'none', code_challenge: again.challenge, code_challenge_method: 'S256' },
        ssoCookie(res),
      );
      assert.ok(codeOf(sso), 'the session made on B answers on A');
    });

    it('continues on B a sign-in whose login page A showed (one stored interaction)', async () => {
      const u = await user(a);
      const pkce = pkcePair();
      const page = await authorize(a, { state: 's-ab', code_challenge: pkce.challenge, code_challenge_method: 'S256' });
      assert.equal(page.status, 200);
      const html = await page.text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
      const binding = page.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .find((c) => c.startsWith('__Host-ward_csrf='))!;
      const body = new URLSearchParams({
        interaction: field('interaction'),
        csrf: field('csrf'),
        email: u.email,
        password: u.password,
      });
      const done = await fetch(`${b.url}/oauth/authorize/login`, {
        method: 'POST',
        redirect: 'manual',
        body: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: binding },
      });
      assert.equal(done.status, 303);
      assert.equal(new URL(done.headers.get('location')!).searchParams.get('state'), 's-ab');
      const token = await form(a, {
        grant_type: 'authorization_code',
        code: codeOf(done)!,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: pkce.verifier,
      });
      assert.equal(token.status, 200);
    });

    it('lets exactly one of ten parallel redemptions on each process win the same code', async () => {
      const u = await user(b);
      const tkn = (
        (await (
          await post(b, '/identity/v1/password/login', {
            client_id: 'spa',
            scope: 'openid',
            email: u.email,
            password: u.password,
          })
        ).json()) as { tkn: string }
      ).tkn;
      const pkce = pkcePair();
      const code = codeOf(await authorize(a, { tkn, code_challenge: pkce.challenge, code_challenge_method: 'S256' }))!;
      const body = {
        grant_type: 'authorization_code',
        code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: pkce.verifier,
      };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => form(i % 2 ? a : b, body)));
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      assert.equal(results.filter((r) => r.status === 400).length, 19);
    });

    it('carries a step-up across processes: step-up on A, code sent by B, verified on A', async () => {
      const u = await signedIn(a);
      const token = { access_token: u.accessToken };
      const reg = await post(
        b,
        '/identity/v1/mfa/credentials/emails',
        {},
        { authorization: `Bearer ${token.access_token}` },
      );
      assert.equal(reg.status, 200);
      assert.equal(
        (
          await post(
            a,
            '/identity/v1/mfa/credentials/emails/verify',
            { verification_code: codeIn((await smtp.next(u.email)).text) },
            { authorization: `Bearer ${token.access_token}` },
          )
        ).status,
        204,
      );
      const step = pkcePair();
      const s = (await (
        await post(
          a,
          '/identity/v1/mfa/stepup',
          {
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: CB,
            scope: 'openid',
            code_challenge: step.challenge,
            code_challenge_method: 'S256',
          },
          { authorization: `Bearer ${token.access_token}` },
        )
      ).json()) as { token: string };
      const start = (await (
        await post(b, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: s.token })
      ).json()) as { challenge_id: string };
      const verify = await post(a, '/identity/v1/passwordless/verify', {
        challenge_id: start.challenge_id,
        verification_code: codeIn((await smtp.next(u.email)).text),
      });
      assert.equal(verify.status, 200);
      const code = ((await verify.json()) as { code: string }).code;
      assert.equal(
        (
          await form(b, {
            grant_type: 'authorization_code',
            code,
            client_id: 'spa',
            redirect_uri: CB,
            code_verifier: step.verifier,
          })
        ).status,
        200,
      );
    });

    it('carries a passwordless sign-in across processes: started on A, verified on B, the code redeemed on A', async () => {
      const u = await user(a);
      const pkce = pkcePair();
      const started = await post(a, '/identity/v1/passwordless/start', {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid email',
        state: 'pl-state',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        auth_type: 'magic_link',
        email: u.email,
      });
      assert.equal(started.status, 200, await started.clone().text());
      const code = codeIn((await smtp.next(u.email)).text);
      const verify = await post(b, '/identity/v1/passwordless/verify', {
        auth_type: 'magic_link',
        email: u.email,
        verification_code: code,
      });
      assert.equal(verify.status, 200, await verify.clone().text());
      const answer = (await verify.json()) as { code: string; state: string };
      assert.equal(answer.state, 'pl-state');
      const token = await form(a, {
        grant_type: 'authorization_code',
        code: answer.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: pkce.verifier,
      });
      assert.equal(token.status, 200);
    });

    it('resets a password across processes: forgot-password on A, update-password on B', async () => {
      const u = await user(a);
      assert.equal((await post(a, '/identity/v1/forgot-password', { client_id: 'spa', email: u.email })).status, 204);
      const code = codeIn((await smtp.next(u.email)).text);
      const reset = await post(b, '/identity/v1/update-password', {
        client_id: 'spa',
        email: u.email,
        verification_code: code,
        password: 'another good long password',
      });
      assert.equal(reset.status, 204, await reset.clone().text());
      // Used once, whichever process sees it next (no login here: the per-IP login limit below counts).
      const again = await post(a, '/identity/v1/update-password', {
        client_id: 'spa',
        email: u.email,
        verification_code: code,
        password: 'a third good long password',
      });
      assert.equal(again.status, 400);
    });

    it('accepts on B an access token A sealed, and refuses it on A once B revoked it', async () => {
      const token = { access_token: (await signedIn(a)).accessToken };
      const userinfo = (w: WardProcess) =>
        fetch(`${w.url}/identity/v1/userinfo`, { headers: { authorization: `Bearer ${token.access_token}` } });
      assert.equal((await userinfo(b)).status, 200);
      const revoke = await fetch(`${b.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'spa', token: token.access_token }).toString(),
      });
      assert.equal(revoke.status, 200);
      assert.deepEqual(await revoke.json(), {});
      assert.equal((await userinfo(a)).status, 401);
      assert.equal((await userinfo(b)).status, 401);
    });

    it('holds a per-IP rate limit as the sum over both processes', async () => {
      const attempt = (w: WardProcess) =>
        post(w, '/identity/v1/password/login', {
          client_id: 'spa',
          email: 'nobody@example.com',
          password: 'wrong password',
        });
      const statuses: number[] = [];
      // Earlier tests used some of the 6 logins of this window; alternate until the limit bites.
      for (let i = 0; i < 8; i++) statuses.push((await attempt(i % 2 ? a : b)).status);
      const limited = statuses.indexOf(429);
      assert.ok(limited > 0 && limited <= 6, `429 after at most 6 logins across both: ${statuses.join(',')}`);
      assert.ok(
        statuses.slice(limited).every((s) => s === 429),
        'and on both processes after that',
      );
    });
  });
}

// SS-08: no account-enumeration oracle in password login. POST /identity/v1/password/login and the
// hosted login form answer an unknown user, a wrong password and a disabled account identically
// (status, headers, body), and an unknown user costs about as much time as a wrong password.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { signup } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { openLoginPage, postLogin, startSecurityWard } from './support.js';

const WRONG_CREDENTIALS = {
  error: 'invalid_grant',
  error_description: 'Invalid email or password',
  error_user_msg: 'Invalid email or password',
  error_message_key: 'error.invalidEmailOrPassword',
};

async function shape(res: Response): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  // x-request-id is a fresh random id on every answer: it tells requests apart, not users.
  const headers = Object.fromEntries(
    [...res.headers].filter(([k]) => !['date', 'keep-alive', 'connection', 'x-request-id'].includes(k)),
  );
  return { status: res.status, headers, body: await res.text() };
}

describe('SS-08: login answers do not tell users apart', () => {
  let ward: TestWard;
  let user: { id: string; email: string; password: string };
  let disabled: { id: string; email: string; password: string };
  let phoneUser: { email: string; password: string };
  before(async () => {
    ward = await startSecurityWard();
    user = await signup(ward);
    disabled = await signup(ward);
    phoneUser = await signup(ward, 'spa', { phone_number: '+33612345678' });
    await ward.registry.storage.users.setDisabled(disabled.id, true, ward.clock.now());
  });
  after(() => ward.close());

  const login = (body: Record<string, unknown>) =>
    ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'spa', scope: 'openid', ...body }),
    });

  it('answers an unknown email, a wrong password and a disabled account with the same 400', async () => {
    const cases = {
      'unknown email': { email: 'nobody-here@example.com', password: user.password },
      'wrong password': { email: user.email, password: 'not the password' },
      'disabled account, right password': { email: disabled.email, password: disabled.password },
      'unknown email in other case': { email: user.email.toUpperCase().replace('@', 'x@'), password: 'x' },
      'unknown phone number': { phone_number: '+33699999999', password: phoneUser.password },
      'known phone number, wrong password': { phone_number: '+33612345678', password: 'not the password' },
      'empty password': { email: user.email, password: '' },
    };
    const seen: Array<[string, Awaited<ReturnType<typeof shape>>]> = [];
    for (const [what, body] of Object.entries(cases)) seen.push([what, await shape(await login(body))]);
    const [first, reference] = seen[0]!;
    assert.equal(reference.status, 400);
    assert.deepEqual(JSON.parse(reference.body), WRONG_CREDENTIALS);
    for (const [what, s] of seen.slice(1)) assert.deepEqual(s, reference, `${what} differs from ${first}`);
    // The right password still works (the cases above were refused for their own reason).
    assert.equal((await login({ email: user.email, password: user.password })).status, 200);
  });

  it('answers the hosted form the same for an unknown user and a wrong password', async () => {
    const pages: string[] = [];
    for (const [email, password] of [
      ['nobody-here@example.com', user.password],
      [user.email, 'not the password'],
      [disabled.email, disabled.password],
    ] as const) {
      const browser = new Browser(ward);
      const page = await openLoginPage(ward, browser);
      const res = await postLogin(ward, browser, { request: page.request, csrf: page.csrf, email, password });
      assert.equal(res.status, 401, email);
      assert.equal(res.headers.getSetCookie().length, 0, 'no session cookie, and the CSRF cookie is kept');
      const html = (await res.text())
        .replaceAll(page.csrf, 'CSRF')
        .replace(`value="${email}"`, 'value="EMAIL"')
        .replace(/code_challenge=[\w-]+/g, 'code_challenge=C');
      assert.match(html, /The email or password is incorrect\./);
      pages.push(html);
    }
    assert.equal(pages[1], pages[0]);
    assert.equal(pages[2], pages[0]);
  });

  it('spends comparable time on an unknown user and a wrong password (a password hash either way)', async () => {
    const median = async (body: Record<string, unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now();
        const res = await login(body);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b)[3]!;
    };
    await login({ email: 'warm-up@example.com', password: 'x' });
    const unknown = await median({ email: `ghost-${Date.now()}@example.com`, password: 'correct horse battery' });
    const wrong = await median({ email: user.email, password: 'correct horse batterz' });
    // Without the dummy hash an unknown user answers in ~1 ms against tens for argon2id.
    assert.ok(
      unknown > wrong * 0.4 && unknown < wrong * 2.5,
      `unknown ${unknown.toFixed(1)} ms vs wrong password ${wrong.toFixed(1)} ms`,
    );
  });
});

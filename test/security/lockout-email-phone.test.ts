// Issue 33, item 11: the per-account sign-in protection counts an account's failed passwords
// together, whether they named it by its email or by its phone number (before, 5 + 5 guesses before
// the first wait). An identifier of no account still counts on its own, with the same thresholds, so
// the answers do not tell whether an account exists (docs/passwords.md, "Per-account protection").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';

const LIMITS = {
  rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } },
  sign_in_delay_after: 3,
  sign_in_delay_seconds: 2,
  sign_in_lock_after: 5,
  sign_in_lock_seconds: 600,
};

for (const engine of engines()) {
  describe(`SS-08: failed passwords count per account, by email and by phone (${engine})`, () => {
    let m: MfaWard;
    let phones = 0;
    const phone = () => `+3361234${String(1000 + phones++ + (engine === 'postgres' ? 5000 : 0)).padStart(4, '0')}`;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT, CONSOLE_CLIENT], account: LIMITS });
    });
    after(() => m.close());

    const login = async (identifier: Record<string, string>, password = 'not the password') => {
      const r = await postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid',
        ...identifier,
        password,
      });
      return { status: r.status, key: r.body?.error_message_key, retryAfter: r.headers.get('retry-after') };
    };
    const WRONG = { status: 400, key: 'error.invalidEmailOrPassword', retryAfter: null };
    const DELAYED = { status: 429, key: 'error.signIn.delayed', retryAfter: '2' };

    it('failures by email and by phone add up on the account', async () => {
      const number = phone();
      const user = await signup(m.ward, 'spa', { phone_number: number });
      const seen = [
        await login({ email: user.email }),
        await login({ phone_number: number }),
        await login({ email: user.email }), // the third failure of the account: a 2 s wait
        await login({ phone_number: number }),
        await login({ email: user.email }),
      ];
      assert.deepEqual(seen, [WRONG, WRONG, WRONG, DELAYED, DELAYED]);
      // Even the right password waits; after the wait it signs in, by phone, and forgets the failures.
      assert.deepEqual(await login({ phone_number: number }, user.password), DELAYED);
      m.ward.clock.advance(2000);
      assert.equal((await login({ phone_number: number }, user.password)).status, 200);
      assert.deepEqual(await login({ email: user.email }), WRONG);
      assert.deepEqual(await login({ email: user.email }), WRONG);
    });

    it('identifiers of no account count apart, with the same answers as an account', async () => {
      const email = `nobody-${engine}@example.com`;
      const number = phone();
      const seen = [
        await login({ email }),
        await login({ phone_number: number }),
        await login({ email }),
        await login({ phone_number: number }),
        await login({ email }), // the third failure of this address
        await login({ email }),
        await login({ phone_number: number }), // the third of this number
        await login({ phone_number: number }),
      ];
      assert.deepEqual(seen, [WRONG, WRONG, WRONG, WRONG, WRONG, DELAYED, WRONG, DELAYED]);
    });

    it("an administrator's unlock ends the account's wait", async () => {
      const number = phone();
      const user = await signup(m.ward, 'spa', { phone_number: number });
      for (const id of <Array<Record<string, string>>>[
        { email: user.email },
        { phone_number: number },
        { email: user.email },
      ])
        await login(id);
      assert.deepEqual(await login({ phone_number: number }), DELAYED);
      const { token } = await consoleToken(m.ward, 'administrator');
      const state = await api(m.ward, token).get(`/api/v1/users/${user.id}/sign-in-protection`);
      assert.equal(state.body.failures, 3, JSON.stringify(state.body));
      assert.equal((await api(m.ward, token).post(`/api/v1/users/${user.id}/unlock`)).status, 200);
      assert.deepEqual(await login({ phone_number: number }), WRONG);
    });
  });
}

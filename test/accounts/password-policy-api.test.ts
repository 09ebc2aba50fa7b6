// The password policy over HTTP, on SQLite and PostgreSQL: signup refuses a password that breaks it
// with the catalog error and error_details naming the rule, and stores nothing; the Core SDK's
// POST /identity/v1/password/strength answers {score}; /identity/v1/config lists password_policy; the
// optional breached-password check against a local range API simulator (test/helpers/pwned-sim.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, passwordLogin } from '../helpers/oauth.js';
import { startPwnedSim } from '../helpers/pwned-sim.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const FR = { 'accept-language': 'fr-FR,fr;q=0.9' };

for (const engine of engines()) {
  describe(`password policy over HTTP (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
    });
    after(() => ward.close());

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    let n = 0;
    const signup = (password: string, headers: Record<string, string> = {}) => {
      const email = `policy${++n}-${engine}@example.com`;
      return post(
        '/identity/v1/signup',
        { client_id: 'spa', data: { email, password, given_name: 'Marie', family_name: 'Curie' } },
        headers,
      ).then(async (res) => ({ email, status: res.status, body: (await res.json()) as Record<string, unknown> }));
    };

    it('refuses "password" at signup with the catalog error and its rule, and stores no user', async () => {
      const r = await signup('password');
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, {
        error: 'invalid_request',
        error_description: 'The password is one of the most common passwords',
        error_user_msg: 'The password is one of the most common passwords',
        error_message_key: 'error.password.tooWeak',
        error_details: [{ field: 'data.password', message: 'is one of the most common passwords', code: 'too_common' }],
      });
      assert.equal(await ward.registry.storage.users.findByEmail(r.email), undefined);
    });

    it('names each rule: too short, contains the name, too easy to guess; in French for a French caller', async () => {
      const short = await signup('Zq!8#k');
      assert.equal(short.status, 400);
      assert.equal(short.body.error_message_key, 'error.password.tooShort');
      assert.equal((short.body.error_details as Array<{ code: string }>)[0]!.code, 'too_short');
      const named = await signup('purple-tractor-curie', FR);
      assert.equal(named.status, 400);
      assert.equal(named.body.error_message_key, 'error.password.tooWeak');
      assert.equal(named.body.error_user_msg, 'Le mot de passe ne respecte pas la politique de mots de passe.');
      assert.equal((named.body.error_details as Array<{ code: string }>)[0]!.code, 'contains_user_info');
      const french = await signup('pamplemousse');
      assert.equal(french.status, 400);
      assert.deepEqual(french.body.error_details, [
        { field: 'data.password', message: 'is too easy to guess (strength 1, at least 2)', code: 'too_weak' },
      ]);
      for (const r of [short, named, french])
        assert.equal(await ward.registry.storage.users.findByEmail(r.email), undefined);
      const ok = await signup('purple-tractor-skylight');
      assert.equal(ok.status, 200);
      assert.ok(await ward.registry.storage.users.findByEmail(ok.email));
    });

    it('answers /identity/v1/password/strength with the zxcvbn score', async () => {
      for (const [password, score] of [
        ['password', 0],
        ['pamplemousse', 1],
        ['kqzvbnwxle', 3],
        ['correct horse battery', 4],
      ] as const) {
        const res = await post('/identity/v1/password/strength', { client_id: 'spa', password });
        assert.equal(res.status, 200, password);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.deepEqual(await res.json(), { score }, password);
      }
    });

    it('refuses a strength request without a password, with an unknown client, or too long a password', async () => {
      const missing = await post('/identity/v1/password/strength', { client_id: 'spa' });
      assert.equal(missing.status, 400);
      assert.equal(
        ((await missing.json()) as { error_message_key: string }).error_message_key,
        'error.missingParameter',
      );
      const unknown = await post('/identity/v1/password/strength', { client_id: 'nobody', password: 'x' });
      assert.equal(unknown.status, 400);
      assert.ok(((await unknown.json()) as { error_message_key: string }).error_message_key);
      const long = await post('/identity/v1/password/strength', { client_id: 'spa', password: 'x'.repeat(257) });
      assert.equal(long.status, 400);
      assert.equal(((await long.json()) as { error_message_key: string }).error_message_key, 'error.invalidParameter');
    });

    it('lists the policy in /identity/v1/config, following the account settings', async () => {
      const config = async () =>
        ((await (await ward.fetch('/identity/v1/config?client_id=spa')).json()) as { password_policy: unknown })
          .password_policy;
      assert.deepEqual(await config(), {
        min_length: 8,
        min_strength: 2,
        refuse_user_info: true,
        refuse_common: true,
        breach_check: false,
        allow_update_with_access_token_only: false,
      });
      ward.registry.setAccount({
        ...ward.registry.account(),
        password_min_length: 12,
        password_min_strength: 3,
        password_refuse_common: false,
      });
      assert.deepEqual(await config(), {
        min_length: 12,
        min_strength: 3,
        refuse_user_info: true,
        refuse_common: false,
        breach_check: false,
        allow_update_with_access_token_only: false,
      });
      const strong = await signup('kqzvbnwxlejd');
      assert.equal(strong.status, 200, JSON.stringify(strong.body));
      const tooWeak = await signup('pamplemousse');
      assert.equal(tooWeak.status, 400);
    });

    it('enforces and lists the character-class rules the Core SDK knows (any script counts)', async () => {
      const before = ward.registry.account();
      try {
        ward.registry.setAccount({
          ...before,
          password_min_length: 8,
          password_min_strength: 0,
          password_uppercase_characters: 1,
          password_lowercase_characters: 2,
          password_digit_characters: 2,
          password_special_characters: 1,
        });
        const listed = (await (await ward.fetch('/identity/v1/config?client_id=spa')).json()) as {
          password_policy: Record<string, unknown>;
        };
        assert.deepEqual(
          {
            u: listed.password_policy.uppercase_characters,
            l: listed.password_policy.lowercase_characters,
            d: listed.password_policy.digit_characters,
            s: listed.password_policy.special_characters,
          },
          { u: 1, l: 2, d: 2, s: 1 },
        );
        for (const [password, message] of [
          ['lowercase only 12!', 'must contain at least 1 upper-case letter'],
          ['ALLUPPER 12!', 'must contain at least 2 lower-case letters'],
          ['Mixed case one 1!', 'must contain at least 2 digits'],
          ['Mixed case 12 no', 'must contain at least 1 special character'],
        ]) {
          const refused = await signup(password!);
          assert.equal(refused.status, 400, password);
          assert.equal(refused.body.error_message_key, 'error.password.tooWeak');
          assert.deepEqual(refused.body.error_details, [
            { field: 'data.password', message: message!, code: 'missing_characters' },
          ]);
          assert.equal(await ward.registry.storage.users.findByEmail(refused.email), undefined);
        }
        // Letters and digits of any script count: Σ upper-case, two Greek lower-case, two Arabic-Indic digits.
        const greek = await signup('Σοφία Παπαδοπούλου ٣٤ #');
        assert.equal(greek.status, 200, JSON.stringify(greek.body));
      } finally {
        ward.registry.setAccount(before);
      }
    });

    it('checks breached passwords through the k-anonymity range API when a URL is set; a slow service blocks nothing', async () => {
      const breached = 'velvet-harbor-lantern';
      const sim = await startPwnedSim({ [breached]: 1234 });
      const before = ward.registry.account();
      try {
        const clean = await signup('velvet-harbor-lantern-7');
        assert.equal(clean.status, 200, 'off by default');
        assert.equal(sim.requests.length, 0);
        ward.registry.setAccount({
          ...before,
          password_breach_check_url: sim.url,
          password_breach_check_timeout_ms: 300,
        });
        const config = await (await ward.fetch('/identity/v1/config?client_id=spa')).json();
        assert.equal((config as { password_policy: { breach_check: boolean } }).password_policy.breach_check, true);

        const refused = await signup(breached);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error_message_key, 'error.password.tooWeak');
        assert.deepEqual(refused.body.error_details, [
          { field: 'data.password', message: 'appears in a list of breached passwords', code: 'breached' },
        ]);
        assert.equal(await ward.registry.storage.users.findByEmail(refused.email), undefined);
        // Only the 5-character prefix of the SHA-1 left Ward, with padding asked for.
        const hash = createHash('sha1').update(breached).digest('hex').toUpperCase();
        assert.deepEqual(sim.requests, [{ path: `/range/${hash.slice(0, 5)}`, padding: true }]);

        const other = await signup('velvet-harbor-lantern-8');
        assert.equal(other.status, 200);
        assert.equal(sim.requests.length, 2);

        // The service stops answering: signups go on once the timeout passes, and logins never ask it.
        sim.hang = true;
        const during = await signup('velvet-harbor-lantern-9');
        assert.equal(during.status, 200, JSON.stringify(during.body));
        assert.equal(sim.requests.length, 3);
        assert.ok(await passwordLogin(ward, other.email, 'velvet-harbor-lantern-8'));
        assert.equal(sim.requests.length, 3);
      } finally {
        ward.registry.setAccount(before);
        await sim.close();
      }
    });
  });
}

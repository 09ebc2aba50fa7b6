// Bulk import through the management API, against a listening Ward on SQLite and PostgreSQL: users
// with the password hashes other systems made (each by its own library, Firebase's by its published
// vector) sign in through the Core SDK's login, the password grant and the hosted form, after which
// their stored hash is Ward's argon2id; a wrong password fails like any; malformed lines are refused
// with their line number while the others land; upsert finds users again (streaming and the rate
// limit: user-import-stream.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { Browser } from '../helpers/browser.js';
import { FIREBASE_VECTOR, fixtures } from '../helpers/foreign-hashes.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, authorizeUrl, codeFor, tokenRequest } from '../helpers/oauth.js';
import { metricValue } from '../helpers/metrics.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const NO_LIMITS = {
  rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null }, bulk_users: { limit: null } },
};
const MOBILE = { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] };
const PASSWORD = 'the password they know';
const { salt: fbSalt, hash: fbHash, password: fbPassword, ...FIREBASE } = FIREBASE_VECTOR;
const FIREBASE_QUERY = new URLSearchParams({
  firebase_signer_key: FIREBASE.signer_key,
  firebase_salt_separator: FIREBASE.salt_separator,
  firebase_rounds: String(FIREBASE.rounds),
  firebase_mem_cost: String(FIREBASE.mem_cost),
});

for (const engine of engines()) {
  describe(`management API: bulk user import (${engine})`, () => {
    let ward: TestWard;
    let token: string;
    let viewerToken: string;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MOBILE, CONSOLE_CLIENT], account: NO_LIMITS });
      token = (await consoleToken(ward, 'manager')).token;
      viewerToken = (await consoleToken(ward, 'viewer')).token;
    });
    after(() => ward.close());

    const importBody = async (
      body: string,
      query = '',
      type = 'application/x-ndjson',
      bearer = token,
    ): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await ward.fetch(`/api/v1/users/import${query ? `?${query}` : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': type },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    const sdkLogin = (email: string, password: string) =>
      ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password }),
      });
    const storedHash = async (email: string) => (await ward.registry.storage.users.findByEmail(email))!.password_hash!;

    it('imports users with foreign hashes; they sign in through the SDK login and the hash becomes argon2id', async () => {
      const hashes = await fixtures(PASSWORD);
      const lines = Object.entries(hashes).map(([name, h]) => ({
        email: `${name}-${engine}@import.example`,
        email_verified: true,
        password_hash: String(h.hash),
        password_hash_algorithm: String(h.algorithm),
        ...(h.salt === undefined ? {} : { password_salt: h.salt }),
        ...(h.saltPosition === undefined ? {} : { password_salt_position: h.saltPosition }),
      }));
      lines.push({
        email: `firebase-${engine}@import.example`,
        email_verified: true,
        password_hash: fbHash,
        password_hash_algorithm: 'firebase_scrypt',
        password_salt: fbSalt,
      });
      const res = await importBody(ndjson(lines), FIREBASE_QUERY.toString());
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.created, lines.length, JSON.stringify(res.body));
      assert.equal(res.body.refused, 0);
      assert.equal(res.body.weak_hashes, 3, 'salted SHA-256, SHA-512 and MD5 are flagged');
      assert.deepEqual(
        res.body.results.map((r: { line: number; weak_hash?: boolean }) => [r.line, r.weak_hash]),
        [10, 11, 12].map((l) => [l, true]),
      );
      // A wrong password is answered as for any user: the status of an unknown user's attempt.
      const refusedStatus = (await sdkLogin(`nobody-${engine}@import.example`, PASSWORD)).status;
      assert.ok(refusedStatus >= 400 && refusedStatus < 500);
      for (const [i, line] of lines.entries()) {
        const stored = await storedHash(line.email);
        assert.ok(stored.startsWith('$ward-foreign$'), 'sealed until the first sign-in');
        assert.ok(!stored.includes(line.password_hash), 'the foreign hash is never stored in clear');
        const password = line.password_hash_algorithm === 'firebase_scrypt' ? fbPassword : PASSWORD;
        const wrong = await sdkLogin(line.email, `${password}?`);
        assert.equal(wrong.status, refusedStatus, `line ${i + 1}: a wrong password is refused`);
        assert.equal(await storedHash(line.email), stored, 'a wrong password changes nothing');
        const right = await sdkLogin(line.email, password);
        assert.equal(right.status, 200, `line ${i + 1} (${line.password_hash_algorithm}): ${await right.text()}`);
        const after = await storedHash(line.email);
        assert.match(after, /^\$argon2id\$/, 'rehashed with argon2id at the first sign-in');
        assert.equal((await sdkLogin(line.email, password)).status, 200, 'and signs in with it after');
        assert.equal((await sdkLogin(line.email, `${password}?`)).status, refusedStatus);
      }
    });

    it('signs an imported user in through the password grant and the hosted form, rehashing each', async () => {
      const hashes = await fixtures(PASSWORD);
      const grantUser = `grant-${engine}@import.example`;
      const formUser = `form-${engine}@import.example`;
      const res = await importBody(
        ndjson([
          { email: grantUser, password_hash: hashes.pbkdf2_sha256!.hash, password_hash_algorithm: 'pbkdf2' },
          { email: formUser, password_hash: hashes.bcrypt_2y!.hash, password_hash_algorithm: 'bcrypt' },
        ]),
      );
      assert.equal(res.body.created, 2, JSON.stringify(res.body));
      const grant = (password: string) =>
        tokenRequest(ward, {
          grant_type: 'password',
          username: grantUser,
          password,
          client_id: 'mobile',
          scope: 'openid',
        });
      assert.equal((await grant('wrong password')).status, 400);
      const ok = await grant(PASSWORD);
      assert.equal(ok.status, 200, await ok.text());
      assert.match(await storedHash(grantUser), /^\$argon2id\$/);

      const browser = new Browser(ward);
      const page = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: 's',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }),
      );
      const html = await page.text();
      const signedIn = await submitLoginPage(browser, html, formUser, PASSWORD);
      assert.ok([302, 303].includes(signedIn.status), `hosted form: ${signedIn.status}`);
      assert.match(signedIn.headers.get('location') ?? '', /code=/);
      assert.match(await storedHash(formUser), /^\$argon2id\$/);
    });

    it('refuses a bad line with its line number and a code while the other lines land', async () => {
      const { bcrypt_2b } = await fixtures(PASSWORD);
      const ok = (n: number) => ({ email: `mixed${n}-${engine}@import.example`, given_name: `N${n}` });
      const body = [
        JSON.stringify(ok(1)),
        '{"email": "broken json',
        JSON.stringify({
          email: `bad-hash-${engine}@import.example`,
          password_hash: '$2b$10$short',
          password_hash_algorithm: 'bcrypt',
        }),
        '',
        JSON.stringify({
          email: `unknown-${engine}@import.example`,
          password_hash: 'x',
          password_hash_algorithm: 'crypt16',
        }),
        JSON.stringify({
          email: `ok-hash-${engine}@import.example`,
          password_hash: bcrypt_2b!.hash,
          password_hash_algorithm: 'bcrypt',
        }),
        JSON.stringify({ email: 'not an email' }),
        JSON.stringify({ email: `profile-${engine}@import.example`, birthdate: '1990-13-45' }),
        JSON.stringify({ email: `unknown-field-${engine}@import.example`, admin: true }),
        JSON.stringify(ok(1)),
        '[1, 2]',
        JSON.stringify({ given_name: 'no identifier' }),
        JSON.stringify(ok(2)),
      ].join('\r\n');
      const res = await importBody(body);
      assert.equal(res.status, 200);
      const byLine = Object.fromEntries(res.body.results.map((r: { line: number }) => [r.line, r]));
      assert.equal(byLine[2].code, 'invalid_json');
      assert.equal(byLine[3].code, 'malformed_password_hash');
      assert.match(byLine[3].message, /bcrypt/);
      assert.equal(byLine[5].code, 'unknown_hash_algorithm');
      assert.equal(byLine[7].code, 'invalid_field');
      assert.equal(byLine[8].code, 'invalid_profile');
      assert.match(byLine[8].message, /birthdate/);
      assert.equal(byLine[9].code, 'invalid_profile');
      assert.equal(byLine[10].status, 'skipped');
      assert.equal(byLine[10].code, 'exists');
      assert.equal(byLine[11].code, 'not_an_object');
      assert.equal(byLine[12].code, 'missing_identifier');
      assert.deepEqual(
        [res.body.lines, res.body.created, res.body.refused, res.body.skipped],
        [12, 3, 8, 1],
        JSON.stringify(res.body),
      );
      for (const email of [
        `mixed1-${engine}@import.example`,
        `mixed2-${engine}@import.example`,
        `ok-hash-${engine}@import.example`,
      ])
        assert.ok(await ward.registry.storage.users.findByEmail(email), email);
      for (const email of [`bad-hash-${engine}@import.example`, `profile-${engine}@import.example`])
        assert.equal(await ward.registry.storage.users.findByEmail(email), undefined, `${email}: nothing half-written`);
      const audit = await ward.registry.storage.audit.list({ action: 'users.imported', limit: 50 });
      assert.ok(
        audit.some((e) => JSON.parse(e.details).refused === 8),
        'the import is audited with its counts',
      );
    });

    it('creates with the full shape, skips in create mode, updates in upsert mode by external_id then email', async () => {
      const email = `full-${engine}@import.example`;
      const line = {
        external_id: `legacy-${engine}-1`,
        email,
        email_verified: true,
        phone_number: engine === 'sqlite' ? '+33612345601' : '+33612345602',
        phone_number_verified: true,
        given_name: 'Ada',
        family_name: 'Lovelace',
        nickname: 'ada',
        created_at: '2019-05-04T03:02:01.000Z',
        identities: [{ provider: 'google', subject: `g-${engine}-1` }],
        second_factors: [{ type: 'email', destination: email }],
      };
      const first = await importBody(ndjson([line]), 'report=all');
      assert.equal(first.body.created, 1, JSON.stringify(first.body));
      const id = first.body.results[0].user_id;
      const s = ward.registry.storage;
      const user = (await s.users.findById(id))!;
      assert.equal(user.created_at, Date.parse(line.created_at));
      assert.equal(user.email_verified, true);
      assert.equal(user.phone_number, line.phone_number);
      assert.equal(user.given_name, 'Ada');
      assert.equal(user.password_hash, null);
      assert.equal((await s.profiles.find(id))?.nickname, 'ada');
      assert.equal((await s.identities.find('google', `g-${engine}-1`))?.user_id, id);
      const factors = await s.mfaCredentials.listOfUser(id);
      assert.equal(factors.length, 1);
      assert.ok(factors[0]!.verified_at !== null, 'an imported second factor is verified');

      const again = await importBody(ndjson([{ ...line, given_name: 'Changed' }]));
      assert.equal(again.body.skipped, 1);
      assert.equal((await s.users.findById(id))!.given_name, 'Ada', 'create mode leaves existing users');

      const up = await importBody(
        ndjson([
          {
            external_id: line.external_id,
            email: `renamed-${engine}@import.example`,
            given_name: 'Grace',
            blocked: true,
          },
          { email: `renamed-${engine}@import.example`, family_name: 'Hopper' },
          { email: `fresh-${engine}@import.example` },
        ]),
        'mode=upsert&report=all',
      );
      assert.deepEqual([up.body.updated, up.body.created], [2, 1], JSON.stringify(up.body));
      assert.equal(up.body.results[0].user_id, id);
      assert.equal(up.body.results[1].user_id, id, 'found again by email');
      const updated = (await s.users.findById(id))!;
      assert.deepEqual(
        [updated.email, updated.given_name, updated.family_name, updated.disabled],
        [`renamed-${engine}@import.example`, 'Grace', 'Hopper', true],
      );
      assert.equal((await s.profiles.find(id))?.nickname, 'ada', 'what a line does not name stays');

      const taken = await importBody(
        ndjson([
          { email: `other-${engine}@import.example`, identities: [{ provider: 'google', subject: `g-${engine}-1` }] },
        ]),
      );
      assert.equal(taken.body.results[0].code, 'identity_in_use');
      assert.equal(await s.users.findByEmail(`other-${engine}@import.example`), undefined, 'nothing half-written');
      // Among other lines (one transaction for them all with import_batches): the refused line is
      // undone alone, after its user row was written; the lines around it stand.
      const mixed = await importBody(
        ndjson([
          { email: `before-${engine}@import.example` },
          { email: `other-${engine}@import.example`, identities: [{ provider: 'google', subject: `g-${engine}-1` }] },
          { email: `after-${engine}@import.example` },
          { email: `before-${engine}@import.example`, given_name: 'Twice' },
        ]),
      );
      assert.deepEqual(
        [mixed.body.created, mixed.body.refused, mixed.body.skipped],
        [2, 1, 1],
        JSON.stringify(mixed.body),
      );
      assert.deepEqual([mixed.body.results[0].line, mixed.body.results[0].code], [2, 'identity_in_use']);
      assert.deepEqual(
        [mixed.body.results[1].line, mixed.body.results[1].status],
        [4, 'skipped'],
        'a line sees the lines before it',
      );
      assert.equal(await s.users.findByEmail(`other-${engine}@import.example`), undefined, 'nothing half-written');
      assert.ok(await s.users.findByEmail(`before-${engine}@import.example`));
      assert.ok(await s.users.findByEmail(`after-${engine}@import.example`));
    });

    it('writes new users together with import_batches, one by one otherwise', async () => {
      const inserts = async () =>
        metricValue(
          await (await ward.fetch('/metrics')).text(),
          `ward_db_query_duration_seconds_count{engine="${engine}",operation="insert",outcome="ok"}`,
        );
      const before = await inserts();
      const lines = Array.from({ length: 60 }, (_, i) => ({
        email: `together-${i}-${engine}@import.example`,
        given_name: `Given${i}`,
        external_id: `together-${engine}-${i}`,
      }));
      const res = await importBody(ndjson(lines));
      assert.equal(res.body.created, 60, JSON.stringify(res.body));
      const written = (await inserts()) - before;
      const batched = ward.registry.config.tuning.import_batches;
      // A statement per table for the batch (users, profiles, external ids), else at least one per line.
      if (batched) assert.ok(written < 10, `${written} inserts`);
      else assert.ok(written >= 60, `${written} inserts`);
    });

    it('ends the sessions of an existing user an upsert blocks', async () => {
      const { user } = await codeFor(ward);
      const s = ward.registry.storage;
      assert.ok(
        (await s.userRecords.sessionsOf(user.id)).some((x) => x.revoked_at === null),
        'signed in',
      );
      const res = await importBody(JSON.stringify({ email: user.email, blocked: true }), 'mode=upsert');
      assert.equal(res.body.updated, 1, JSON.stringify(res.body));
      assert.equal((await s.users.findById(user.id))!.disabled, true);
      assert.ok(
        (await s.userRecords.sessionsOf(user.id)).every((x) => x.revoked_at !== null),
        'every session ended',
      );
      assert.equal((await sdkLogin(user.email, user.password)).status >= 400, true);
    });

    it('takes a JSON array; refuses a caller without manage:users and other media types', async () => {
      const arr = [
        { email: `array1-${engine}@import.example` },
        { email: 'bad' },
        { email: `array2-${engine}@import.example` },
      ];
      const res = await importBody(JSON.stringify(arr), '', 'application/json');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.created, res.body.refused, res.body.results[0].line], [2, 1, 2]);
      const broken = await importBody(
        `[{"email": "array3-${engine}@import.example"}, {"email": `,
        '',
        'application/json',
      );
      // A body that breaks off stops the import there: what came before stands, as the report says.
      assert.equal(broken.status, 200);
      assert.equal(broken.body.error.code, 'invalid_json');
      assert.equal(broken.body.lines, broken.body.created);
      const third = await ward.registry.storage.users.findByEmail(`array3-${engine}@import.example`);
      assert.equal(!!third, broken.body.created === 1);
      const viewer = await importBody(
        ndjson([{ email: `viewer-${engine}@import.example` }]),
        '',
        undefined,
        viewerToken,
      );
      assert.equal(viewer.status, 403);
      assert.equal(await ward.registry.storage.users.findByEmail(`viewer-${engine}@import.example`), undefined);
      const text = await importBody('hello', '', 'text/plain');
      assert.equal(text.status, 415);
      const half = await importBody('{}', 'firebase_rounds=8');
      assert.equal(half.status, 400);
      assert.equal(half.body.error_message_key, 'error.invalidParameter');
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as any;
      const op = doc.paths['/api/v1/users/import'].post;
      assert.ok(op.requestBody.content['application/x-ndjson']);
      assert.equal(op['x-permission'], 'manage:users');
    });
  });
}

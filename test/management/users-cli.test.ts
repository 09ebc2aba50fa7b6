// `ward users import FILE`: the import from the command line, reading the file as a stream, on the
// configured database (SQLite and PostgreSQL); the imported user then signs in with their password.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runUsersCommand } from '../../src/management/users-cli.js';
import { engines } from '../helpers/databases.js';
import { FIREBASE_VECTOR } from '../helpers/foreign-hashes.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`ward users import (${engine})`, () => {
    let ward: TestWard;
    let dir: string;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT] });
      dir = await mkdtemp(join(tmpdir(), 'ward-import-'));
    });
    after(async () => {
      await ward.close();
      await rm(dir, { recursive: true, force: true });
    });

    const run = async (args: string[]) => {
      const out: string[] = [];
      const code = await runUsersCommand(ward.registry, args, 'cli', (l) => out.push(l));
      return { code, out: out.join('\n') };
    };

    it('imports a file with Firebase hashes; refused lines make the exit code 1; the user signs in', async () => {
      const email = `cli-${engine}@import.example`;
      const file = join(dir, 'users.ndjson');
      await writeFile(
        file,
        [
          JSON.stringify({
            email,
            password_hash: FIREBASE_VECTOR.hash,
            password_hash_algorithm: 'firebase_scrypt',
            password_salt: FIREBASE_VECTOR.salt,
          }),
          JSON.stringify({
            email: `cli-bad-${engine}@import.example`,
            password_hash_algorithm: 'nthash',
            password_hash: 'x',
          }),
        ].join('\n'),
      );
      const firebase = [
        `--firebase-signer-key=${FIREBASE_VECTOR.signer_key}`,
        `--firebase-salt-separator=${FIREBASE_VECTOR.salt_separator}`,
        `--firebase-rounds=${FIREBASE_VECTOR.rounds}`,
        `--firebase-mem-cost=${FIREBASE_VECTOR.mem_cost}`,
      ];
      const { code, out } = await run(['users', 'import', file, ...firebase]);
      assert.equal(code, 1, out);
      const report = JSON.parse(out);
      assert.deepEqual([report.created, report.refused], [1, 1]);
      assert.deepEqual(report.results[0], {
        line: 2,
        status: 'refused',
        code: 'unknown_hash_algorithm',
        message: report.results[0].message,
      });
      const login = await ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password: FIREBASE_VECTOR.password }),
      });
      assert.equal(login.status, 200, await login.text());
      const stored = (await ward.registry.storage.users.findByEmail(email))!.password_hash!;
      assert.match(stored, /^\$argon2id\$/);
      const audit = await ward.registry.storage.audit.list({ action: 'users.imported', limit: 5 });
      assert.equal(audit[0]?.actor_type, 'cli');
    });

    it('exports every user as NDJSON, hashes only when asked', async () => {
      const email = `cli-${engine}@import.example`;
      const plain = await run(['users', 'export']);
      assert.equal(plain.code, 0);
      const line = plain.out
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((l) => l.email === email);
      assert.equal(line?.password_hash, undefined);
      const secret = await run(['users', 'export', '--include-password-hashes']);
      const withHash = secret.out
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((l) => l.email === email);
      assert.equal(withHash?.password_hash_algorithm, 'argon2');
      assert.equal((await run(['users', 'export', '--updated-since', 'yesterday'])).code, 2);
    });

    it('answers usage errors with exit code 2', async () => {
      assert.equal((await run(['users', 'import'])).code, 2);
      assert.equal((await run(['users', 'import', join(dir, 'missing.ndjson')])).code, 2);
      assert.equal((await run(['users', 'import', join(dir, 'users.ndjson'), '--mode', 'merge'])).code, 2);
      const half = await run(['users', 'import', join(dir, 'users.ndjson'), '--firebase-rounds', '8']);
      assert.equal(half.code, 2);
      assert.match(half.out, /firebase/);
    });
  });
}

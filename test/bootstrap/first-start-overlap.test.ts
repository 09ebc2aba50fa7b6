// A first start's slow parts overlap (docs/performance.md, "Start-up"; issue 40, item 6): on an empty
// store, where the bootstrap will sign the administrator up with WARD_ADMIN_PASSWORD, the registry
// starts the password estimator's thread (before the migrations and the signing keys), so the check
// finds it ready; a start that signs no one up (a store in use, a generated password, a CLI command
// other than `start`) starts no thread. Its own
// file: the estimator is one per process, and the counts below start from a process that has none.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { passwordStrengthThreads } from '../../src/accounts/password-policy.js';
import { firstStart } from '../../src/bootstrap/first-start.js';
import { loadConfig } from '../../src/config/load.js';
import { buildRegistry } from '../../src/registry.js';

const configFor = (dataDir: string, env: Record<string, string> = {}) =>
  loadConfig({
    WARD_DATA_DIR: dataDir,
    WARD_DEMO_CLIENTS: 'off',
    WARD_TUNING: process.env.WARD_TUNING,
    WARD_TUNING_OFF: process.env.WARD_TUNING_OFF,
    ...env,
  });
const quiet = { logger: pino({ level: 'silent' }), bootstrap: true };

describe("a first start's password estimator", () => {
  it('starts only when an administrator will be signed up with WARD_ADMIN_PASSWORD, before the bootstrap', async () => {
    assert.deepEqual(passwordStrengthThreads(), { running: false, started: 0, exited: 0 });

    // A CLI command other than `start` (no bootstrap follows) on an empty store: no thread.
    const cli = await buildRegistry(
      configFor(mkdtempSync(join(tmpdir(), 'ward-overlap-')), { WARD_ADMIN_PASSWORD: 'operator-password-for-tests' }),
      { logger: quiet.logger },
    );
    await cli.close();
    assert.equal(passwordStrengthThreads().started, 0, 'no bootstrap, no check');

    // A generated password skips the policy: no thread, at the first start or after it.
    const generated = mkdtempSync(join(tmpdir(), 'ward-overlap-'));
    let r = await buildRegistry(configFor(generated), quiet);
    assert.equal((await firstStart(r)).admin?.password !== null, true);
    await r.close();
    assert.equal(passwordStrengthThreads().started, 0);

    // A restart with WARD_ADMIN_PASSWORD: an administrator exists, no one is signed up.
    r = await buildRegistry(configFor(generated, { WARD_ADMIN_PASSWORD: 'operator-password-for-tests' }), quiet);
    assert.equal(passwordStrengthThreads().started, 0, 'no thread for a check that will not come');
    assert.equal((await firstStart(r)).admin, undefined);
    await r.close();
    assert.equal(passwordStrengthThreads().started, 0);

    // A first start with WARD_ADMIN_PASSWORD: the registry has started the thread before the
    // bootstrap, and the administrator's check runs on that same thread.
    const given = mkdtempSync(join(tmpdir(), 'ward-overlap-'));
    r = await buildRegistry(configFor(given, { WARD_ADMIN_PASSWORD: 'operator-password-for-tests' }), quiet);
    assert.deepEqual(passwordStrengthThreads(), { running: true, started: 1, exited: 0 });
    const report = await firstStart(r);
    assert.deepEqual(report.admin, { email: 'admin@ward.local', password: null });
    assert.equal(passwordStrengthThreads().started, 1);
    await r.close();
  });

  it('a WARD_ADMIN_PASSWORD the policy refuses still stops the start, after the early start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-overlap-'));
    const r = await buildRegistry(configFor(dir, { WARD_ADMIN_PASSWORD: 'password1234' }), quiet);
    try {
      await assert.rejects(firstStart(r), /WARD_ADMIN_PASSWORD: .*account password policy/);
    } finally {
      await r.close();
    }
  });
});

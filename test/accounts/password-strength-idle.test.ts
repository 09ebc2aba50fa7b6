// The password-strength thread (src/accounts/password-strength.ts; issue 40, item 6): it starts at the
// first check, serves the checks that follow on the same thread, stops once it has been idle for the
// idle period (its memory given back), and the next check starts a new one that answers as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passwordStrength, passwordStrengthThreads } from '../../src/accounts/password-policy.js';
import { createStrengthEstimator, STRENGTH_IDLE_MS } from '../../src/accounts/password-strength.js';
import { loadConfig } from '../../src/config/load.js';
import { startWard } from '../helpers/ward.js';

const SETTINGS = { maxLength: 64, l33tMaxSubstitutions: 8 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the estimator's thread count says so (its `exit` event), within a limit. */
async function until(check: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within the limit');
    await sleep(20);
  }
}

describe('the password-strength thread', () => {
  it('stops after a minute idle by default, the setting WARD_PASSWORD_STRENGTH_IDLE says otherwise', () => {
    assert.equal(STRENGTH_IDLE_MS, 60_000);
    assert.equal(loadConfig({}).passwordStrengthIdleSeconds * 1000, STRENGTH_IDLE_MS);
    assert.equal(loadConfig({ WARD_PASSWORD_STRENGTH_IDLE: '5' }).passwordStrengthIdleSeconds, 5);
    assert.throws(() => loadConfig({ WARD_PASSWORD_STRENGTH_IDLE: '0' }), /WARD_PASSWORD_STRENGTH_IDLE/);
  });

  it("takes the server's setting: Ward's own checks stop their thread after WARD_PASSWORD_STRENGTH_IDLE", async () => {
    const ward = await startWard({ env: { WARD_PASSWORD_STRENGTH_IDLE: '1' } });
    try {
      const before = passwordStrengthThreads();
      assert.equal(await passwordStrength('correct horse battery'), 4);
      const started = passwordStrengthThreads();
      assert.equal(started.running, true);
      await until(() => passwordStrengthThreads().exited === started.exited + 1, 6000);
      assert.equal(passwordStrengthThreads().running, false);
      assert.equal(await passwordStrength('aaaaaaaaaa'), 0);
      assert.equal(passwordStrengthThreads().started, before.started + (before.running ? 1 : 2));
    } finally {
      await ward.close();
    }
  });

  it('starts at the first check, not before', async () => {
    const estimator = createStrengthEstimator(SETTINGS, 300);
    assert.deepEqual(estimator.threads(), { running: false, started: 0, exited: 0 });
    assert.equal(await estimator.isCommon('password'), true);
    assert.deepEqual(estimator.threads(), { running: true, started: 1, exited: 0 });
    await estimator.close();
  });

  it('stops once idle, and the next check starts a new thread that answers the same', async () => {
    const idleMs = 400;
    const estimator = createStrengthEstimator(SETTINGS, idleMs);
    assert.equal(await estimator.score('correct horse battery', []), 4);
    // Checks closer together than the idle period keep the one thread.
    for (let i = 0; i < 3; i++) {
      await sleep(idleMs / 4);
      assert.equal(await estimator.score('aaaaaaaaaa', []), 0);
    }
    assert.deepEqual(estimator.threads(), { running: true, started: 1, exited: 0 });
    // Idle: the thread exits (the worker's own exit event counts it).
    await until(() => estimator.threads().exited === 1, idleMs + 5000);
    assert.deepEqual(estimator.threads(), { running: false, started: 1, exited: 1 });
    // The next checks start another thread, transparently.
    const [score, common, withInputs] = await Promise.all([
      estimator.score('correct horse battery', []),
      estimator.isCommon('PassWord'),
      estimator.score('ada.lovelace1815', ['ada.lovelace1815']),
    ]);
    assert.deepEqual([score, common, withInputs], [4, true, 0]);
    assert.deepEqual(estimator.threads(), { running: true, started: 2, exited: 1 });
    await until(() => estimator.threads().exited === 2, idleMs + 5000);
    await estimator.close();
  });

  it('is not stopped while a check is waiting, however long the check takes', async () => {
    const estimator = createStrengthEstimator(SETTINGS, 1);
    // Many checks in flight at once: the idle timer must not cut the thread under any of them.
    const passwords = Array.from({ length: 40 }, (_, i) => `kqzvbnwxle${i}`);
    const scores = await Promise.all(passwords.map((p) => estimator.score(p, [])));
    assert.equal(scores.length, 40);
    assert.ok(scores.every((s) => s >= 3));
    assert.equal(estimator.threads().started, 1);
    await until(() => estimator.threads().exited === 1, 5000);
    await estimator.close();
  });
});

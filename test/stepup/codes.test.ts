// Verification codes of the step-up (security-checklist 1.9, 1.13): PL-01 generator (chi-square,
// crypto.randomInt, never Math.random), PL-02 TTL, PL-03 single use, PL-04 bound to their challenge,
// PL-05 attempt limit, PL-06 + CC-05 attempts counted before the compare under a parallel burst,
// CC-02 the right code in parallel, PL-08 resend cannot reset the guess budget (per-user lockout),
// PL-09 both ends limited, PL-12 only an HMAC stored, PL-13 unknown / used / disabled step_up alike.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomDigits } from '../../src/lib/random.js';
import { hmac, sha256 } from '../../src/lib/secrets.js';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import {
  OPEN,
  assertLimited,
  assertWrongCode,
  challengesOf,
  emailCode,
  mfaUser,
  start,
  stepUpOf,
  verify,
  wrong,
} from './support.js';

/** Chi-square upper critical value (Wilson–Hilferty), z = 4.265 for p = 1e-5. */
const critical = (df: number, z = 4.265) => df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
const chiSquare = (counts: number[], expected: number) =>
  counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);

describe('PL-01: the code generator', () => {
  it('gives 100k codes uniform over 000000-999999 by digit and by half (chi-square), leading zeros included', () => {
    const N = 100_000;
    const byPosition = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    const high = new Array<number>(1000).fill(0);
    const low = new Array<number>(1000).fill(0);
    const seen = new Set<string>();
    for (let i = 0; i < N; i++) {
      const c = randomDigits(6);
      assert.match(c, /^\d{6}$/);
      for (let p = 0; p < 6; p++) byPosition[p]![c.charCodeAt(p) - 48]! += 1;
      high[Number(c.slice(0, 3))]! += 1;
      low[Number(c.slice(3))]! += 1;
      seen.add(c);
    }
    for (let p = 0; p < 6; p++)
      assert.ok(chiSquare(byPosition[p]!, N / 10) < critical(9), `digit ${p}: ${byPosition[p]}`);
    assert.ok(chiSquare(high, N / 1000) < critical(999), 'first three digits');
    assert.ok(chiSquare(low, N / 1000) < critical(999), 'last three digits');
    // 100k draws from 10^6 values: about 95,163 distinct expected (birthday), sd about 150.
    assert.ok(seen.size > 94_000 && seen.size < 96_300, `distinct ${seen.size}`);
  });

  it('never calls Math.random, in the generator or anywhere in src/', () => {
    const original = Math.random;
    Math.random = () => {
      throw new Error('Math.random used');
    };
    try {
      for (let i = 0; i < 1000; i++) randomDigits(10);
    } finally {
      Math.random = original;
    }
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk('src');
    assert.deepEqual(
      files.filter((f) => /Math\.random\s*\(/.test(readFileSync(f, 'utf8'))),
      [],
    );
    assert.ok(randomDigits(6).length === 6 && randomDigits(10).length === 10);
  });
});

describe('verification codes: TTL, single use, binding, attempts (sqlite)', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
  });
  after(() => m.close());

  it('PL-02: a code works until its TTL and not one second after', async () => {
    m.ward.setAccount({ verification_code_ttl: 60 });
    try {
      const a = await mfaUser(m);
      const late = await emailCode(m, a, (await stepUpOf(m, a)).token);
      m.ward.clock.advance(61_000);
      assertWrongCode(await verify(m, late.challengeId, late.code), 'TTL + 1 s');
      const b = await mfaUser(m);
      const inTime = await emailCode(m, b, (await stepUpOf(m, b)).token);
      m.ward.clock.advance(59_000);
      assert.equal((await verify(m, inTime.challengeId, inTime.code)).status, 200, 'TTL - 1 s');
    } finally {
      m.ward.setAccount({ verification_code_ttl: 300 });
    }
  });

  it('PL-03: the right code twice: the second is refused, and its authorization code redeems once', async () => {
    const u = await mfaUser(m);
    const s = await stepUpOf(m, u);
    const c = await emailCode(m, u, s.token);
    const ok = await verify(m, c.challengeId, c.code);
    assert.equal(ok.status, 200);
    assertWrongCode(await verify(m, c.challengeId, c.code), 'second use');
    assert.equal((await redeem(m.ward, ok.body.code, s.verifier)).res.status, 200);
  });

  it('PL-04: a code only opens its own challenge (same user, another user, no challenge_id)', async () => {
    const u = await mfaUser(m);
    const other = await mfaUser(m);
    const a = await emailCode(m, u, (await stepUpOf(m, u)).token);
    const b = await emailCode(m, u, (await stepUpOf(m, u)).token);
    const x = await emailCode(m, other, (await stepUpOf(m, other)).token);
    // Two codes are equal once in 10^6: then that pairing proves nothing and is skipped.
    if (b.code !== a.code)
      assertWrongCode(await verify(m, b.challengeId, a.code), 'code of A with challenge B (same user)');
    if (x.code !== a.code)
      assertWrongCode(await verify(m, x.challengeId, a.code), 'code of A with the challenge of another user');
    assertWrongCode(await verify(m, undefined, a.code), 'challenge_id null');
    assertWrongCode(
      await postJson(m.ward, '/identity/v1/passwordless/verify', { verification_code: a.code }),
      'no challenge_id',
    );
    assertWrongCode(await verify(m, [a.challengeId], a.code), 'challenge_id not a string');
    // Each stays good for its own code.
    assert.equal((await verify(m, a.challengeId, a.code)).status, 200);
    assert.equal((await verify(m, b.challengeId, b.code)).status, 200);
    assert.equal((await verify(m, x.challengeId, x.code)).status, 200);
  });

  it('PL-05: max_attempts wrong codes, then the right one: refused; one fewer wrong and it works', async () => {
    m.ward.setAccount({ verification_max_attempts: 3 });
    try {
      const u = await mfaUser(m);
      const c = await emailCode(m, u, (await stepUpOf(m, u)).token);
      for (let k = 1; k <= 3; k++) assertWrongCode(await verify(m, c.challengeId, wrong(c.code, k)), `wrong ${k}`);
      assertWrongCode(await verify(m, c.challengeId, c.code), 'the right code after 3 wrong ones');
      const [row] = (await challengesOf(m, { userId: u.id })).filter((r) => r.id === c.challengeId);
      assert.equal(row!.consumed_at, null, 'the challenge is dead, not used');
      const v = await mfaUser(m);
      const d = await emailCode(m, v, (await stepUpOf(m, v)).token);
      for (let k = 1; k <= 2; k++) assertWrongCode(await verify(m, d.challengeId, wrong(d.code, k)));
      assert.equal((await verify(m, d.challengeId, d.code)).status, 200, 'the right code as the 3rd attempt');
    } finally {
      m.ward.setAccount({ verification_max_attempts: 5 });
    }
  });

  it('PL-12: the code is nowhere in the database in clear, only an HMAC bound to the challenge', async () => {
    m.ward.setAccount({ verification_code_length: 10 });
    try {
      const u = await mfaUser(m);
      const c = await emailCode(m, u, (await stepUpOf(m, u)).token);
      const db = m.ward.registry.db.db;
      const rows = await db.selectFrom('challenges').selectAll().execute();
      const mine = rows.find((r) => r.id === c.challengeId)!;
      assert.match(mine.code_hmac, /^[A-Za-z0-9_-]{43}$/, 'an HMAC-SHA256, base64url');
      // Keyed by the server's secret and bound to the challenge: not a hash anyone can brute-force offline.
      assert.equal(mine.code_hmac, hmac(m.ward.registry.masterKey, `verification-code:${c.challengeId}:${c.code}`));
      assert.notEqual(mine.code_hmac, sha256(c.code));
      const pattern = new RegExp(`(?<!\\d)${c.code}(?!\\d)`);
      assert.ok(!pattern.test(JSON.stringify(rows)), 'the challenges table');
      const tables = await db.introspection.getTables();
      for (const t of tables) {
        const all = await db
          .selectFrom(t.name as 'challenges')
          .selectAll()
          .execute();
        assert.ok(!pattern.test(JSON.stringify(all)), `table ${t.name}`);
      }
      assert.ok(!m.ward.logs.some((l) => pattern.test(l)), 'the logs');
    } finally {
      m.ward.setAccount({ verification_code_length: 6 });
    }
  });

  it('PL-13: start with an unknown, used, expired or disabled-user step_up: the same 400, nothing sent', async () => {
    const u = await mfaUser(m);
    const used = await stepUpOf(m, u);
    const c = await emailCode(m, u, used.token);
    assert.equal((await verify(m, c.challengeId, c.code)).status, 200);
    const expired = await stepUpOf(m, u);
    m.ward.clock.advance(301_000);
    const gone = await mfaUser(m);
    const disabled = await stepUpOf(m, gone);
    await m.ward.registry.storage.users.setDisabled(gone.id, true, m.ward.clock.now());
    const sent = m.smtp.messages.length + m.sms.messages.length;
    const answers = [
      await start(m, 'x'.repeat(43)),
      await start(m, used.token),
      await start(m, expired.token),
      await start(m, disabled.token),
      await start(m, used.token, 'sms'),
    ];
    const shape = (r: (typeof answers)[number]) => ({ status: r.status, ...r.body, error_id: undefined });
    for (const a of answers) assert.deepEqual(shape(a), shape(answers[0]!), JSON.stringify(a.body));
    assert.equal(answers[0]!.status, 400);
    assert.equal(answers[0]!.body.error_message_key, 'error.mfa.invalidStepUp');
    assert.equal(m.smtp.messages.length + m.sms.messages.length, sent, 'no message sent');
  });
});

for (const engine of engines()) {
  describe(`verification codes under concurrency and brute force (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    });
    after(() => m.close());

    it('PL-06 + CC-05: 50 wrong codes and the right one in parallel: at most 5 evaluated, attempts = 51', async () => {
      m.ward.setAccount({ verification_failures_per_user: { limit: 100, window_seconds: 3600 } });
      try {
        const u = await mfaUser(m);
        const c = await emailCode(m, u, (await stepUpOf(m, u)).token);
        const guesses = Array.from({ length: 50 }, (_, k) => wrong(c.code, k + 1));
        guesses.splice(25, 0, c.code);
        const answers = await Promise.all(guesses.map((g) => verify(m, c.challengeId, g)));
        const ok = answers.filter((a) => a.status === 200).length;
        for (const a of answers) if (a.status !== 200) assertWrongCode(a);
        const [row] = (await challengesOf(m, { userId: u.id })).filter((r) => r.id === c.challengeId);
        assert.equal(row!.attempts, 51, 'no lost update');
        // Evaluated = compared while the challenge was usable: the server logs them as 'wrong'.
        const failedLines = m.ward.logs.filter((l) => l.includes('"mfa.verification_failed"') && l.includes(u.id));
        assert.equal(failedLines.length, 51 - ok, 'one log line per refusal');
        const evaluatedWrong = failedLines.filter((l) => l.includes('"reason":"wrong"')).length;
        assert.ok(evaluatedWrong + ok <= 5, `evaluated ${evaluatedWrong} wrong + ${ok} right`);
        if (ok === 1) assert.ok(evaluatedWrong <= 4, 'the right code counted among the first 5');
        // Deterministic form (another user, so the per-user lockout stays out of it): 50 wrong in
        // parallel first, then the right one is refused.
        const v = await mfaUser(m);
        const d = await emailCode(m, v, (await stepUpOf(m, v)).token);
        const burst = await Promise.all(
          Array.from({ length: 50 }, (_, k) => verify(m, d.challengeId, wrong(d.code, k + 1))),
        );
        for (const a of burst) assertWrongCode(a);
        assertWrongCode(await verify(m, d.challengeId, d.code), 'the right code after the burst');
        const [dRow] = (await challengesOf(m, { userId: v.id })).filter((r) => r.id === d.challengeId);
        assert.equal(dRow!.attempts, 51);
        assert.equal(dRow!.consumed_at, null);
      } finally {
        m.ward.setAccount({ verification_failures_per_user: { limit: 20, window_seconds: 3600 } });
      }
    });

    it('CC-02: the right code 20 times in parallel: exactly one success', async () => {
      m.ward.setAccount({ verification_max_attempts: 20 });
      try {
        const u = await mfaUser(m);
        const s = await stepUpOf(m, u);
        const c = await emailCode(m, u, s.token);
        const answers = await Promise.all(Array.from({ length: 20 }, () => verify(m, c.challengeId, c.code)));
        const ok = answers.filter((a) => a.status === 200);
        assert.equal(ok.length, 1, answers.map((a) => a.status).join(','));
        for (const a of answers) if (a.status !== 200) assert.equal(a.status, 400);
        assert.equal((await redeem(m.ward, ok[0]!.body.code, s.verifier)).res.status, 200);
      } finally {
        m.ward.setAccount({ verification_max_attempts: 5 });
      }
    });

    it('PL-08 + PL-09: resends cannot reset the budget; 20 failures lock the user out with a 429, even for the right code', async () => {
      const u = await mfaUser(m);
      let failures = 0;
      let locked: Awaited<ReturnType<typeof verify>> | undefined;
      let live: { challengeId: string; code: string } | undefined;
      outer: for (let i = 0; i < 3; i++) {
        const s = await stepUpOf(m, u);
        for (let j = 0; j < 5; j++) {
          live = await emailCode(m, u, s.token);
          for (let k = 1; k <= 5; k++) {
            const r = await verify(m, live.challengeId, wrong(live.code, k));
            if (r.status === 429) {
              locked = r;
              break outer;
            }
            assertWrongCode(r);
            failures += 1;
          }
        }
      }
      assert.equal(failures, 20, 'the lockout threshold (verification_failures_per_user)');
      assertLimited(locked!, 'verify after 20 failures');
      assertLimited(await verify(m, live!.challengeId, live!.code), 'the right code while locked out');
      const s2 = await stepUpOf(m, u);
      const fresh = await emailCode(m, u, s2.token);
      assertLimited(await verify(m, fresh.challengeId, fresh.code), 'a fresh challenge while locked out');
      m.ward.clock.advance(3600_000);
      const s3 = await stepUpOf(m, u);
      const after = await emailCode(m, u, s3.token);
      assert.equal((await verify(m, after.challengeId, after.code)).status, 200, 'the next window');
      assert.throws(
        () => m.ward.setAccount({ verification_failures_per_user: { limit: 101, window_seconds: 3600 } }),
        /verification_failures_per_user/,
      );
    });

    it('PL-08 + PL-09: the guess budget is capped by starts: 5 per step_up, 10 per user per window', async () => {
      m.ward.setAccount({ verification_failures_per_user: { limit: 100, window_seconds: 3600 } });
      try {
        const u = await mfaUser(m);
        let accepted = 0;
        const limited: Awaited<ReturnType<typeof start>>[] = [];
        for (let i = 0; i < 3; i++) {
          const s = await stepUpOf(m, u);
          for (let j = 0; j < 6; j++) {
            const r = await start(m, s.token);
            if (r.status === 200) {
              accepted += 1;
              await m.smtp.next(u.email);
            } else limited.push(r);
          }
        }
        assert.equal(accepted, 10, 'per user per window');
        for (const r of limited) assertLimited(r);
        const rows = await challengesOf(m, { userId: u.id });
        assert.equal(rows.length, 10);
        assert.ok(
          rows.every((r) => r.max_attempts === 5),
          'at most 5 x 10 = 50 guesses per window (<= 100)',
        );
      } finally {
        m.ward.setAccount({ verification_failures_per_user: { limit: 20, window_seconds: 3600 } });
      }
    });
  });
}

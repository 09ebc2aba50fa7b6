// The rules of per-account protection, without a server: the wait after n failures (none, then
// doubling from the first wait, capped by the lockout period, then the lockout), and the keys of a
// user's identifiers (hashed, one per identifier kind).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountKey, identifierKey, keysOfUser, penaltyMs } from '../../src/accounts/sign-in-protection.js';
import { DEFAULT_ACCOUNT } from '../../src/config/defaults.js';

describe('per-account protection rules', () => {
  it('waits nothing, then doubles from the first wait, capped by the lockout, then locks', () => {
    const s = { ...DEFAULT_ACCOUNT, sign_in_delay_after: 3, sign_in_delay_seconds: 5, sign_in_lock_after: 8 };
    const s2 = { ...s, sign_in_lock_seconds: 30 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => penaltyMs(n, s) / 1000),
      [0, 0, 0, 5, 10, 20, 40, 80, 900, 900],
    );
    assert.deepEqual(
      [3, 4, 5, 6, 7, 8].map((n) => penaltyMs(n, s2) / 1000),
      [5, 10, 20, 30, 30, 30],
    );
    // A huge count never overflows into NaN or Infinity.
    assert.equal(penaltyMs(10_000, { ...s, sign_in_lock_after: 100 }), 900_000);
    assert.equal(penaltyMs(99, { ...s, sign_in_lock_after: 100 }), 900_000);
  });

  it('keys identifiers by kind and hash, never in clear', () => {
    const k = identifierKey('email', 'ada@example.com');
    assert.match(k, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(k, identifierKey('phone', 'ada@example.com'));
    // The account's key first (its failures count together, issue 33), then its identifiers'.
    const account = accountKey('u1');
    assert.match(account, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(account, accountKey('u2'));
    assert.deepEqual(keysOfUser({ id: 'u1', email: 'ada@example.com', phone_number: null }), [account, k]);
    assert.equal(keysOfUser({ id: 'u1', email: 'ada@example.com', phone_number: '+33612345678' }).length, 3);
    assert.deepEqual(keysOfUser({ id: 'u1', email: null, phone_number: null }), [account]);
  });
});

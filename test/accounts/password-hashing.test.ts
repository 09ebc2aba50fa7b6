// Password hashing runs at most one argon2 hash per core at a time (src/lib/limit.ts,
// src/accounts/passwords.ts): the others wait their turn, first come first served.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { argon2Slots, hashPassword, verifyPassword } from '../../src/accounts/passwords.js';
import { concurrencyLimit } from '../../src/lib/limit.js';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('concurrencyLimit', () => {
  it('runs at most max tasks at once, the rest in the order they came', async () => {
    const limit = concurrencyLimit(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const all = gates.map((g, i) =>
      limit.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    const settled = Promise.allSettled(all);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual(limit.stats(), { running: 2, waiting: 2 });
    gates[1]!.resolve();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2]);
    gates[0]!.reject(new Error('failed task'));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2, 3], 'a failed task frees its slot too');
    gates[2]!.resolve();
    gates[3]!.resolve();
    const results = await settled;
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    assert.deepEqual(limit.stats(), { running: 0, waiting: 0 });
  });
});

describe('argon2 hashes: one per core at a time', () => {
  it('passes every hash and verification through the limit, and still answers each right', async () => {
    const cores = availableParallelism();
    const stored = await hashPassword('correct horse battery staple');
    const checks = Array.from({ length: cores * 3 }, (_, i) =>
      verifyPassword(stored, i % 2 ? 'correct horse battery staple' : 'wrong'),
    );
    assert.deepEqual(argon2Slots.stats(), { running: cores, waiting: cores * 2 });
    const results = await Promise.all(checks);
    assert.deepEqual(
      results,
      Array.from({ length: cores * 3 }, (_, i) => i % 2 === 1),
    );
    assert.deepEqual(argon2Slots.stats(), { running: 0, waiting: 0 });
  });
});

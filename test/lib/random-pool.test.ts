// Speed-up `random_pool` (src/lib/tuning/random-pool.ts): bytes drawn from 4 KiB blocks of the CSPRNG
// are each handed out once, and large requests bypass the block.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pooledRandomBytes } from '../../src/lib/tuning/random-pool.js';

describe('the pooled CSPRNG', () => {
  it('never hands out the same bytes twice, across blocks and sizes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const n = [12, 16, 32, 7][i % 4]!;
      const b = pooledRandomBytes(n);
      assert.equal(b.length, n);
      seen.add(b.toString('hex'));
    }
    assert.equal(seen.size, 3000);
  });

  it('answers a large request from the CSPRNG directly, not from a block', () => {
    assert.equal(pooledRandomBytes(4096).length, 4096);
    assert.equal(pooledRandomBytes(1024).length, 1024);
  });
});

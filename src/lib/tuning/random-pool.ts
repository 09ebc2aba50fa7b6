// Speed-up `random_pool` (docs/performance.md; plain path: node:crypto randomBytes per call).
import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `n` bytes from the CSPRNG, drawn from a 4 KiB block filled at once: one call into OpenSSL per
 * block instead of one per token (a call costs more than the bytes for the 12-32 bytes tokens
 * need). Each byte is handed out once: a used block is dropped, never refilled, and the caller
 * gets a copy.
 */
export function pooledRandomBytes(n: number): Buffer {
  if (n > POOL_SIZE / 8) return randomBytes(n);
  if (offset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE));
    offset = 0;
  }
  const out = Buffer.allocUnsafe(n);
  pool.copy(out, 0, offset, offset + n);
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}

// The ceilings L1-L4 of performance.md, measured in the same run as the benchmark:
// L1 RS256 signatures/s (node:crypto; 1 thread sync, then callback crypto.sign with 64 in flight on
// the libuv pool), L2 HS256 JWTs/s with createHmac, L3 argon2id verifies/s (@node-rs/argon2,
// m=19456 t=2 p=1; 1 and 2 in flight), L4a/L4b with autocannon against bench/tiny-server.mjs.
import { createHmac, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { run } from './load.js';
import { freePort, startChild } from './proc.js';

export interface Ceilings {
  L1_1: number;
  L1_2: number;
  L2: number;
  L3_1: number;
  L3_2: number;
  L4a: number;
  L4b: number;
}

const ARGON = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function loop(ms: number, inFlight: number, op: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        await op();
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

export async function measureCeilings(scale: number, connections: number, log: (s: string) => void): Promise<Ceilings> {
  const key = createPrivateKey(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
  );
  const claims = {
    iss: 'http://127.0.0.1:8443',
    sub: 'u'.repeat(32),
    aud: 'bench-spa',
    exp: 1_900_000_000,
    iat: 1_800_000_000,
    auth_time: 1_800_000_000,
    nonce: 'n-1',
    amr: ['pwd'],
    email: 'bench@example.com',
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Lovelace',
    at_hash: 'x'.repeat(22),
  };
  const input = Buffer.from(`${b64({ alg: 'RS256', typ: 'JWT', kid: 'k'.repeat(43) })}.${b64(claims)}`);

  let n = 0;
  let t0 = performance.now();
  while (performance.now() - t0 < 2000 * scale) {
    sign('sha256', input, key);
    n++;
  }
  const L1_1 = n / ((performance.now() - t0) / 1000);
  const L1_2 = await loop(
    2000 * scale,
    64,
    () => new Promise((res, rej) => sign('sha256', input, key, (e, s) => (e ? rej(e) : res(s)))),
  );
  log(`  L1 RS256 sign/s: 1 thread ${L1_1.toFixed(0)}, 64 in flight ${L1_2.toFixed(0)}`);

  const secret = Buffer.alloc(32, 7);
  const h = b64({ alg: 'HS256', typ: 'JWT' });
  n = 0;
  t0 = performance.now();
  while (performance.now() - t0 < 1000 * scale) {
    const body = `${h}.${b64({ ...claims, iat: n })}`;
    const jwt = `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
    if (jwt.length) n++;
  }
  const L2 = n / ((performance.now() - t0) / 1000);
  log(`  L2 HS256 JWT/s (createHmac): ${L2.toFixed(0)}`);

  const stored = await hash('bench-password-0123', ARGON);
  const L3_1 = await loop(2500 * scale, 1, () => verify(stored, 'bench-password-0123', ARGON));
  const L3_2 = await loop(2500 * scale, 2, () => verify(stored, 'bench-password-0123', ARGON));
  log(`  L3 argon2id verify/s: 1 in flight ${L3_1.toFixed(0)}, 2 in flight ${L3_2.toFixed(0)}`);

  const port = await freePort();
  const tiny = await startChild({
    name: 'tiny',
    args: [fileURLToPath(new URL('./tiny-server.mjs', import.meta.url))],
    env: { PORT: String(port) },
    port,
    probePath: '/',
  });
  try {
    const seconds = Math.max(2, 5 * scale);
    await run(
      tiny,
      { kind: 'fixed', req: { method: 'GET', path: '/', headers: {} }, expect: 200 },
      { seconds: 1, connections },
    );
    const L4a = (
      await run(
        tiny,
        { kind: 'fixed', req: { method: 'GET', path: '/', headers: {} }, expect: 200 },
        { seconds, connections },
      )
    ).rate;
    const post = {
      method: 'POST',
      path: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=read%3Aclients',
    };
    const L4b = (await run(tiny, { kind: 'fixed', req: post, expect: 200 }, { seconds, connections })).rate;
    log(`  L4a GET 1.2 KB: ${L4a.toFixed(0)} req/s; L4b form POST → 1.2 KB JSON: ${L4b.toFixed(0)} req/s`);
    return { L1_1, L1_2, L2, L3_1, L3_2, L4a, L4b };
  } finally {
    await tiny.stop();
  }
}

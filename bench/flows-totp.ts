// B9t, beside B9: the second factor of a sign-in answered with an authenticator app (TOTP) instead of an
// emailed code: stepup (Bearer) → /identity/v1/mfa/stepup/verify with the app's code → token. Its users
// are made through the public API (signup, the hosted login, the app enrolled and turned on with a
// first code); the codes are computed here (RFC 6238 with node:crypto). Ward accepts each 30-second
// step once per user (replay), within one step either side: a user answers 2 flows at once (its first
// code used the step before), then one every 30 s, so the pool must be large for the run's length
// (bench/README.md says how large).
import { createHmac } from 'node:crypto';
import { type Ctx, type Flow, type Pool, runOnce } from './flow.js';
import { JSONH, PASSWORD, SCOPE, SPA, stepUpStep, tokenStep, wardLogin, pmap, type WardUser } from './flows-ward.js';
import { json, nextPkce, send } from './http.js';

export interface TotpUser extends WardUser {
  secret: Buffer;
  /** The last 30-second step Ward accepted from this user. */
  lastStep: number;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base32 = (s: string): Buffer => {
  let bits = '';
  for (const c of s.replace(/=+$/, '').toUpperCase()) bits += B32.indexOf(c).toString(2).padStart(5, '0');
  const out: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) out.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(out);
};
const stepNow = () => Math.floor(Date.now() / 30_000);

/** RFC 4226 HOTP (SHA-1, 6 digits) at a TOTP step. */
export function codeAt(key: Buffer, step: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(msg).digest();
  const off = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[off]! & 0x7f) << 24) | (mac[off + 1]! << 16) | (mac[off + 2]! << 8) | mac[off + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

/** Users with an authenticator app (and no other factor), signed in once for their access token. */
export async function makeTotpUsers(url: string, n: number, tag: string): Promise<TotpUser[]> {
  return pmap(
    Array.from({ length: n }, (_, i) => i),
    4,
    async (i) => {
      const email = `bench-totp-${tag}-${i}@example.com`;
      const s = await send(url, {
        method: 'POST',
        path: '/identity/v1/signup',
        headers: JSONH,
        body: JSON.stringify({ client_id: SPA, scope: SCOPE, data: { email, password: PASSWORD } }),
      });
      if (s.status !== 200) throw new Error(`signup ${s.status} ${s.body}`);
      const u = { id: json<{ id: string }>(s.body).id, email, jar: {}, accessToken: '' } as TotpUser;
      const c = await runOnce(url, wardLogin([u]), { u, keep: true });
      u.accessToken = c.tokens.access_token;
      const bearer = { ...JSONH, authorization: `Bearer ${u.accessToken}` };
      const e = await send(url, {
        method: 'POST',
        path: '/identity/v1/mfa/credentials/totp',
        headers: bearer,
        body: '{}',
      });
      if (e.status !== 200) throw new Error(`TOTP enrolment ${e.status} ${e.body}`);
      u.secret = base32(json<{ secret: string }>(e.body).secret);
      // The first code from the step before: the current and next steps stay for the runs (2 flows at once).
      u.lastStep = stepNow() - 1;
      const v = await send(url, {
        method: 'POST',
        path: '/identity/v1/mfa/credentials/totp/verify',
        headers: bearer,
        body: JSON.stringify({ verification_code: codeAt(u.secret, u.lastStep) }),
      });
      if (v.status !== 200) throw new Error(`TOTP first code ${v.status} ${v.body}`);
      return u;
    },
  );
}

/** Takes a user with a step Ward will still accept (the lowest one), or none (the flow starves). */
function takeUser(pool: Pool<TotpUser>, c: Ctx): boolean {
  const now = stepNow();
  for (let tries = pool.free.length; tries > 0; tries--) {
    const u = pool.acquire();
    if (!u) return false;
    const step = Math.max(u.lastStep + 1, now - 1);
    if (step <= now + 1) {
      u.lastStep = step;
      c.u = u;
      c.vc = codeAt(u.secret, step);
      return true;
    }
    pool.release(u);
  }
  return false;
}

/** B9t: stepup (Bearer) → stepup/verify with the app's code → token. */
export function wardTotpStepUp(pool: Pool<TotpUser>): Flow {
  return {
    name: 'ward-totp-stepup',
    begin: (c) => {
      c.p = nextPkce();
      return takeUser(pool, c);
    },
    end: (c) => pool.release(c.u),
    steps: [
      stepUpStep,
      {
        name: 'verify',
        expect: [200],
        build: (c) => ({
          method: 'POST',
          path: '/identity/v1/mfa/stepup/verify',
          headers: JSONH,
          body: JSON.stringify({ step_up: c.su, auth_type: 'totp', verification_code: c.vc }),
        }),
        after: (r, c) => !!(c.code = (json(r.body) as { code?: string }).code),
      },
      tokenStep('/oauth/token'),
    ],
  };
}

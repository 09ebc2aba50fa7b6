// The scenarios B1-B9 (and B9t, TOTP) of performance.md: for each, the plan per server, the ceiling model built from
// L1-L4 measured in this run, and the goal. s = 1/L1 (2 cores), h = 1/L4b (one minimal request).
import type { Ceilings } from './ceilings.js';
import { Pool } from './flow.js';
import { makePeerUsers, mintPeerRefresh, peerLogin, peerRefresh, peerSso, type PeerUser } from './flows-peer.js';
import {
  dpopProofs,
  BENCH_API,
  ensureEs256Client,
  ensureJwtResource,
  mintWardRefresh,
  SPA,
  SPA_ES,
  refreshFlow,
  wardChallenges,
  wardLogin,
  wardPasswordLogin,
  wardSso,
  wardStepUp,
  wardVerifyWrong,
  type RefreshState,
  type WardUser,
} from './flows-ward.js';
import { makeTotpUsers, wardTotpStepUp } from './flows-totp.js';
import type { Plan } from './load.js';
import type { Sink } from './smtp.js';
import { ADMIN_SECRET, MGMT_SECRET } from './ward.js';
import { webhookLoad } from './webhook-load.js';

export interface WardSide {
  kind: 'ward';
  url: string;
  users: WardUser[];
  sink: Sink;
}
export interface PeerSide {
  kind: 'peer';
  url: string;
  emails: string[];
  users: PeerUser[];
}
export type Side = WardSide | PeerSide;

export interface Prepared {
  plan: Plan;
  /** Before each run (fresh refresh tokens), and after it (the load stops with flows in flight). */
  beforeRun?(): Promise<void>;
  settle?(): void;
}
export interface Scenario {
  id: string;
  title: string;
  unit: 'req/s' | 'flows/s';
  peer: boolean;
  goal: string;
  model(c: Ceilings): { value: number; label: string };
  prepare(side: Side, need: { runs: number; connections: number }): Promise<Prepared>;
}

const sig = (c: Ceilings) => 1 / c.L1_2;
/** B9t's users with an authenticator app (WARD_BENCH_TOTP_USERS): each gives 2 flows, then 1 per 30 s. */
const TOTP_USERS = Number(process.env.WARD_BENCH_TOTP_USERS ?? 2000);
const h = (c: Ceilings) => 1 / c.L4b;
const basic = `Basic ${Buffer.from(`bench-mgmt:${MGMT_SECRET}`).toString('base64')}`;
const fixed = (
  path: string,
  expect = 200,
  extra: Partial<{ method: string; headers: Record<string, string>; body: string }> = {},
): Prepared => ({ plan: { kind: 'fixed', req: { method: 'GET', path, headers: {}, ...extra }, expect } });
const onlyWard = (side: Side): WardSide => {
  if (side.kind !== 'ward') throw new Error('a Ward-only scenario');
  return side;
};

export const SCENARIOS: Scenario[] = [
  {
    id: 'B1',
    title: 'GET jwks',
    unit: 'req/s',
    peer: true,
    goal: '>=0.9 L4a, >=2x peer',
    model: (c) => ({ value: c.L4a, label: 'L4a' }),
    prepare: async (s) => fixed(s.kind === 'ward' ? '/jwks.json' : '/jwks'),
  },
  {
    id: 'B2',
    title: 'GET discovery',
    unit: 'req/s',
    peer: true,
    goal: '>=0.9 L4a',
    model: (c) => ({ value: c.L4a, label: 'L4a' }),
    prepare: async () => fixed('/.well-known/openid-configuration'),
  },
  {
    id: 'B3',
    title: 'token client_credentials',
    unit: 'req/s',
    peer: true,
    goal: '>=0.8 L4b, >=2x peer',
    model: (c) => ({ value: c.L4b, label: 'L4b' }),
    prepare: async (s) =>
      fixed(s.kind === 'ward' ? '/oauth/token' : '/token', 200, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: 'grant_type=client_credentials',
      }),
  },
  {
    id: 'B4',
    title: 'token refresh_token + RS256 id_token',
    unit: 'req/s',
    peer: true,
    goal: '>=0.85 model, >=2x peer',
    model: (c) => ({ value: 1 / (sig(c) + h(c)), label: '1/(s+h)' }),
    async prepare(s, need) {
      // A refresh token rotates, so those in flight when a run stops are lost: fresh ones before each
      // run. The peer's default in-memory store is an LRU of 1000-2000 entries: its sessions are
      // made again just before too.
      const pool = new Pool<RefreshState>();
      const n = need.connections + 10;
      const mint = async () =>
        pool.reset(
          s.kind === 'ward'
            ? await mintWardRefresh(s.url, s.users, n)
            : await mintPeerRefresh(s.url, await makePeerUsers(s.url, s.emails.slice(0, 20)), n),
        );
      return {
        plan: { kind: 'flow', flow: s.kind === 'ward' ? refreshFlow('/oauth/token', pool) : peerRefresh(pool) },
        beforeRun: mint,
        settle: () => pool.settle(false),
      };
    },
  },
  {
    id: 'B4e',
    title: 'token refresh_token + ES256 id_token',
    unit: 'req/s',
    peer: false,
    goal: 'none (Ward only: compare with B4)',
    model: (c) => ({ value: 1 / (sig(c) + h(c)), label: '1/(s+h), s of RS256' }),
    // B4 with an ES256 client (jose's ES256 signature on the EC P-256 global key, instead of RS256).
    async prepare(side, need) {
      const s = onlyWard(side);
      await ensureEs256Client(s.url, ADMIN_SECRET);
      const pool = new Pool<RefreshState>();
      const mint = async () => pool.reset(await mintWardRefresh(s.url, s.users, need.connections + 10, SPA_ES));
      return {
        plan: { kind: 'flow', flow: refreshFlow('/oauth/token', pool, SPA_ES) },
        beforeRun: mint,
        settle: () => pool.settle(false),
      };
    },
  },
  {
    id: 'B4d',
    title: 'token refresh_token + RS256 id_token, DPoP-bound',
    unit: 'req/s',
    peer: false,
    goal: 'none (Ward only: compare with B4)',
    model: (c) => ({ value: 1 / (sig(c) + h(c)), label: '1/(s+h), without the proof check' }),
    // B4 with a DPoP proof on each refresh (RFC 9449): Ward verifies an ES256 proof, records its jti in the
    // single-use store (one insert) and seals the key's thumbprint in the access token.
    async prepare(side, need) {
      const s = onlyWard(side);
      const pool = new Pool<RefreshState>();
      let proofs = dpopProofs(s.url, 0);
      const mint = async () => {
        pool.reset(await mintWardRefresh(s.url, s.users, need.connections + 10));
        proofs = dpopProofs(s.url, 40_000);
      };
      return {
        plan: { kind: 'flow', flow: refreshFlow('/oauth/token', pool, undefined, { next: () => proofs.next() }) },
        beforeRun: mint,
        settle: () => pool.settle(false),
      };
    },
  },
  {
    id: 'B4j',
    title: 'token refresh_token + RS256 id_token, JWT access token for an API',
    unit: 'req/s',
    peer: false,
    goal: 'none (Ward only: compare with B4)',
    model: (c) => ({ value: 1 / (2 * sig(c) + h(c)), label: '1/(2s+h): the access token is signed too' }),
    // B4 for a grant with an API resource (RFC 8707) whose access tokens are JWTs (RFC 9068): each
    // refresh signs the access token (RS256, the account's key) beside the ID token, and keeps the audience.
    async prepare(side, need) {
      const s = onlyWard(side);
      await ensureJwtResource(s.url, ADMIN_SECRET);
      const pool = new Pool<RefreshState>();
      const mint = async () => pool.reset(await mintWardRefresh(s.url, s.users, need.connections + 10, SPA, BENCH_API));
      return {
        plan: { kind: 'flow', flow: refreshFlow('/oauth/token', pool, SPA, undefined, true) },
        beforeRun: mint,
        settle: () => pool.settle(false),
      };
    },
  },
  {
    id: 'B5',
    title: 'code flow, no password (SSO session)',
    unit: 'flows/s',
    peer: true,
    goal: '>=3x peer',
    model: (c) => ({ value: 1 / (sig(c) + 2 * h(c)), label: 'loose 1/(s+2h)' }),
    async prepare(s) {
      // The peer's sessions are made just before (its LRU store would have dropped older ones).
      if (s.kind === 'peer') s.users = await makePeerUsers(s.url, s.emails);
      return { plan: { kind: 'flow', flow: s.kind === 'ward' ? wardSso(s.users) : peerSso(s.users) } };
    },
  },
  {
    id: 'B6',
    title: 'code flow, argon2id hosted login',
    unit: 'flows/s',
    peer: true,
    goal: '>=0.85 model, >=2x peer',
    model: (c) => ({ value: 1 / (1 / c.L3_2 + sig(c) + 4 * h(c)), label: '1/(1/L3+s+4h)' }),
    prepare: async (s) => ({
      plan: {
        kind: 'flow',
        flow: s.kind === 'ward' ? wardLogin(s.users) : peerLogin(s.emails.map((email) => ({ email, jar: {} }))),
      },
    }),
  },
  {
    id: 'B7',
    title: 'password login (tkn)',
    unit: 'req/s',
    peer: false,
    goal: '>=0.9 L3',
    model: (c) => ({ value: c.L3_2, label: 'L3 (2 in flight)' }),
    prepare: async (s) => ({ plan: { kind: 'flow', flow: wardPasswordLogin(onlyWard(s).users) } }),
  },
  {
    id: 'B8',
    title: 'verification code check (wrong code)',
    unit: 'req/s',
    peer: false,
    goal: '>=0.6 L4b',
    model: (c) => ({ value: c.L4b, label: 'L4b' }),
    async prepare(s) {
      const w = onlyWard(s);
      return { plan: { kind: 'flow', flow: wardVerifyWrong(await wardChallenges(w.url, w.users, w.sink)) } };
    },
  },
  {
    id: 'B9',
    title: 'step-up: stepup, start (SMTP), verify, token',
    unit: 'flows/s',
    peer: false,
    goal: '>=1500 flows/s (SQLite)',
    model: (c) => ({ value: 1 / (sig(c) + 4 * h(c)), label: '1/(s+4h)' }),
    async prepare(s) {
      const w = onlyWard(s);
      const pool = new Pool(w.users);
      return { plan: { kind: 'flow', flow: wardStepUp(pool, w.sink) }, settle: () => pool.settle(true) };
    },
  },
  {
    // The peer has no TOTP: oidc-provider leaves every factor to the app's own interaction pages.
    id: 'B9t',
    title: 'TOTP second factor: stepup, verify (app code), token',
    unit: 'flows/s',
    peer: false,
    goal: 'CPU/flow < B9',
    model: (c) => ({ value: 1 / (sig(c) + 3 * h(c)), label: '1/(s+3h)' }),
    async prepare(s, need) {
      const w = onlyWard(s);
      // Each user answers 2 flows, then one per 30 s (replay): enough for a --quick run.
      const users = await makeTotpUsers(w.url, Math.max(w.users.length, TOTP_USERS), `${Date.now()}-${need.runs}`);
      const pool = new Pool(users);
      return { plan: { kind: 'flow', flow: wardTotpStepUp(pool) }, settle: () => pool.settle(true) };
    },
  },
  {
    id: 'B10',
    title: 'signup + 1 webhook endpoint + 1 before.signup hook',
    unit: 'flows/s',
    peer: false,
    goal: 'none (Ward only: the cost of webhooks and hooks on signups; lag printed per run)',
    model: (c) => ({ value: c.L3_2, label: 'L3 (argon2id, 2 in flight)' }),
    async prepare(side) {
      const s = onlyWard(side);
      const w = await webhookLoad(s.url, ADMIN_SECRET, `${Date.now()}`);
      return { plan: { kind: 'flow', flow: w.flow }, beforeRun: w.beforeRun, settle: w.settle };
    },
  },
  {
    id: 'B10s',
    title: "signup, no webhook nor hook (B10's baseline)",
    unit: 'flows/s',
    peer: false,
    goal: 'none (Ward only: compare with B10)',
    model: (c) => ({ value: c.L3_2, label: 'L3 (argon2id, 2 in flight)' }),
    async prepare(side) {
      const s = onlyWard(side);
      const w = await webhookLoad(s.url, ADMIN_SECRET, `${Date.now()}s`, false);
      return { plan: { kind: 'flow', flow: w.flow }, beforeRun: w.beforeRun, settle: w.settle };
    },
  },
];

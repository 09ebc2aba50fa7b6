// A rolling upgrade on PostgreSQL (issue 40, item 3; the rule in docs/operations.md#upgrades): two
// processes of the previous release (the last commit before the newest migration change, run from its
// own sources) serve sign-ins and token refreshes under load while this release's `ward migrate`
// applies the migrations the old code does not know. Not one request fails and the old processes stay
// ready; then a process of this release serves what the old ones made (their users sign in, their
// refresh tokens refresh), while the old ones keep serving beside it, which is also the rollback.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetch } from 'undici';
import { MIGRATION_LIST } from '../../src/storage/connect.js';
import { testPostgresUrl } from '../helpers/databases.js';
import { pkcePair } from '../helpers/oauth.js';
import {
  checkOut,
  previousReleaseCommit,
  previousReleaseUnavailable,
  type Release,
} from '../helpers/previous-release.js';
import { runCli, sharedDb, startWardProcess, type SharedDb, type WardProcess } from '../helpers/processes.js';

const CB = 'https://app.example/cb';
const PASSWORD = 'a good long password';
const skip = !testPostgresUrl() ? 'WARD_TEST_DATABASE_URL is not set' : (previousReleaseUnavailable() ?? false);

describe('a rolling upgrade on PostgreSQL', { skip }, () => {
  let db: SharedDb;
  let release: Release;
  let env: Record<string, string>;
  const old: WardProcess[] = [];
  let fresh: WardProcess | undefined;
  before(async () => {
    release = checkOut(previousReleaseCommit());
    db = await sharedDb('postgres');
    const config = join(db.env.WARD_DATA_DIR!, 'ward.json');
    writeFileSync(
      config,
      JSON.stringify({
        account: {
          rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
        },
        clients: [
          { client_id: 'spa', type: 'public', allowed_callback_urls: [CB], allowed_origins: ['https://app.example'] },
        ],
      }),
    );
    env = { ...db.env, WARD_CONFIG: config };
    // The first old process migrates the empty schema to the old release's level; the second joins it.
    old.push(await startWardProcess(env, [], release.dir));
    old.push(await startWardProcess(env, [], release.dir));
  });
  after(async () => {
    await Promise.all([...old.map((w) => w.stop()), fresh?.stop()]);
    await db?.drop();
    release?.remove();
  });

  const post = (w: WardProcess, path: string, body: unknown) =>
    fetch(`${w.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const tokenCall = (w: WardProcess, body: Record<string, string>) =>
    fetch(`${w.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
  async function ok<T>(res: Awaited<ReturnType<typeof fetch>>, what: string): Promise<T> {
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
  let n = 0;
  async function signUp(w: WardProcess): Promise<string> {
    const email = `upgrade${++n}@example.com`;
    await ok(await post(w, '/identity/v1/signup', { client_id: 'spa', data: { email, password: PASSWORD } }), 'signup');
    return email;
  }
  /** Password login, the code flow with PKCE, offline_access: the refresh token. */
  async function signIn(w: WardProcess, email: string): Promise<string> {
    const { tkn } = await ok<{ tkn: string }>(
      await post(w, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid offline_access',
        email,
        password: PASSWORD,
      }),
      'login',
    );
    const pkce = pkcePair();
    const q = new URLSearchParams({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: CB,
      scope: 'openid offline_access',
      tkn,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    const res = await fetch(`${w.url}/oauth/authorize?${q}`, { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? 'x:/').searchParams.get('code');
    if (res.status !== 302 || !code) throw new Error(`authorize: ${res.status} ${await res.text()}`);
    const tokens = await ok<{ refresh_token?: string }>(
      await tokenCall(w, {
        grant_type: 'authorization_code',
        code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: pkce.verifier,
      }),
      'code',
    );
    if (!tokens.refresh_token) throw new Error('no refresh token');
    return tokens.refresh_token;
  }
  const schemaReady = async (w: WardProcess) => {
    const body = (await (await fetch(`${w.url}/readyz`)).json()) as { checks: { schema: boolean } };
    return body.checks.schema;
  };
  async function refresh(w: WardProcess, token: string): Promise<string> {
    const out = await ok<{ refresh_token: string }>(
      await tokenCall(w, { grant_type: 'refresh_token', refresh_token: token, client_id: 'spa' }),
      'refresh',
    );
    return out.refresh_token;
  }

  it('keeps the old release serving while the new one migrates, then serves the old data', async () => {
    const current = MIGRATION_LIST.map(([name]) => name);
    const pending = current.filter((m) => !release.migrations.includes(m));
    assert.ok(pending.length > 0, `release ${release.commit} knows every migration of this one`);

    const users = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => signUp(old[i % 2]!)));
    const held = await Promise.all(users.map((u, i) => signIn(old[i % 2]!, u)));

    // Load on the old processes: sign-ins and refreshes, each failure kept with its cause.
    const failures: string[] = [];
    const phase = { done: false };
    let served = 0;
    const worker = async (i: number) => {
      // Bounded: at most 2,000 requests a worker, and a run of failures stops the load early.
      for (let k = 0; !phase.done && k < 2000 && failures.length < 20; k++) {
        const w = old[(i + k) % 2]!;
        const slot = 2 * i + (k % 2); // each worker owns two users' refresh tokens
        try {
          if (k % 3 === 0) await signIn(w, users[slot]!);
          else held[slot] = await refresh(w, held[slot]!);
          served++;
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
    };
    const load = [0, 1, 2].map((i) => worker(i));
    await new Promise((r) => setTimeout(r, 500));

    const plan = await runCli(env, ['migrate', '--plan']);
    assert.equal(plan.code, 0, plan.out);
    assert.doesNotMatch(plan.out, /NOT safe to run online/, plan.out);
    const migrated = await runCli(env, ['migrate']);
    assert.equal(migrated.code, 0, migrated.out);
    for (const m of pending) assert.match(migrated.out, new RegExp(m), migrated.out);
    await new Promise((r) => setTimeout(r, 1000));
    // Ready as far as the schema goes (the database check's one-second limit is not this test's point).
    for (const w of old) assert.equal(await schemaReady(w), true, 'an old process stays ready');
    phase.done = true;
    await Promise.all(load);
    // On a failure, the old processes' error lines say which statement broke.
    const errors = () =>
      old
        .flatMap((w) => w.output().split('\n'))
        .filter((l) => /"level":50|error/i.test(l))
        .slice(-5)
        .join('\n');
    assert.deepEqual(failures, [], `no request failed during the upgrade:\n${failures.length ? errors() : ''}`);
    assert.ok(served > 10, `the old processes served (${served})`);

    // This release beside the old one: it serves the old data, and the old processes keep serving.
    fresh = await startWardProcess(env);
    assert.equal(await schemaReady(fresh), true);
    for (let i = 0; i < held.length; i++) held[i] = await refresh(fresh, held[i]!);
    for (const u of users) await signIn(fresh, u);
    const newUser = await signUp(fresh);
    const onOld = await signIn(old[0]!, newUser);
    await refresh(old[1]!, onOld);
    await refresh(fresh, held[0]!);
  });
});

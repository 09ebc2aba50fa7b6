// TK-06 (codes: unique, 256 bits of base64url, no time or counter structure: a few hundred over
// HTTP plus 10,000 straight from the generator) and TK-07 (codes, access and refresh tokens are
// stored as SHA-256 digests only; a dump of every table replays nothing).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { randomToken } from '../../../src/lib/random.js';
import { PUBLIC_CLIENT, authorizeUrl, codeFor, location, pkcePair, redeem } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { OFFLINE, expectError, offlineTokens, redeemRaw, refresh, NO_LIMITS } from './support.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Pearson's chi-square of byte frequencies against the uniform distribution (255 degrees of freedom). */
function chiSquare(bytes: Buffer): number {
  const counts = new Array<number>(256).fill(0);
  for (const b of bytes) counts[b]!++;
  const expected = bytes.length / 256;
  return counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
}

function hamming(a: Buffer, b: Buffer): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) for (let x = a[i]! ^ b[i]!; x; x &= x - 1) d++;
  return d;
}

/** The checks shared by HTTP codes and generator output. */
function assertRandomTokens(tokens: string[]): void {
  assert.equal(new Set(tokens).size, tokens.length, 'all unique');
  for (const t of tokens) assert.match(t, TOKEN);
  const raw = tokens.map((t) => Buffer.from(t, 'base64url'));
  for (const r of raw) assert.equal(r.length, 32, '256 bits each');
  // 255 degrees of freedom: mean 255, sd 22.6; 400 is beyond six sd.
  const chi = chiSquare(Buffer.concat(raw));
  assert.ok(chi < 400, `byte distribution not uniform: chi-square ${chi.toFixed(1)}`);
  // No counter or clock structure: consecutive values differ in about half their 256 bits,
  // and no two share a long prefix.
  let total = 0;
  for (let i = 1; i < raw.length; i++) total += hamming(raw[i - 1]!, raw[i]!);
  const mean = total / (raw.length - 1);
  assert.ok(mean > 118 && mean < 138, `mean Hamming distance ${mean}`);
  const sorted = [...tokens].sort();
  for (let i = 1; i < sorted.length; i++) {
    let p = 0;
    while (sorted[i]![p] === sorted[i - 1]![p]) p++;
    assert.ok(p < 8, `shared prefix of ${p} characters`);
  }
}

describe('authorization code entropy and storage', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ account: NO_LIMITS, clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  it('TK-06: 300 codes issued over HTTP are unique 256-bit base64url values without structure', async () => {
    const first = await codeFor(ward);
    const browser = first.browser; // now holds the SSO session: each authorize issues a code at once
    const codes = [first.code];
    const { challenge } = pkcePair();
    for (let i = 0; i < 299; i++) {
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: `s${i}`,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(res.status, 302);
      const code = location(res).searchParams.get('code');
      assert.ok(code);
      codes.push(code);
    }
    assertRandomTokens(codes);
  });

  it('TK-06: the generator gives 10,000 unique 256-bit values without structure', () => {
    const tokens = Array.from({ length: 10_000 }, () => randomToken());
    assertRandomTokens(tokens);
    assert.equal(randomToken().length, 43, 'the default is 32 bytes');
  });

  it('TK-07: codes, refresh tokens and tkn are stored as SHA-256 digests only; access tokens are not stored at all', async () => {
    const sha = (v: string) => createHash('sha256').update(v).digest('base64url');
    const waiting = await codeFor(ward, { scope: OFFLINE }); // a code not yet redeemed
    const { code, tokens } = await offlineTokens(ward);
    const db = ward.registry.db.db;
    const codeRow = await db
      .selectFrom('authorization_codes')
      .selectAll()
      .where('code_digest', '=', sha(waiting.code))
      .executeTakeFirst();
    assert.ok(codeRow, 'the code is found by its SHA-256');
    assert.ok(
      await db
        .selectFrom('authorization_codes')
        .select('code_digest')
        .where('code_digest', '=', sha(code))
        .executeTakeFirst(),
    );
    assert.ok(
      await db
        .selectFrom('refresh_tokens')
        .select('digest')
        .where('digest', '=', sha(tokens.refresh_token!))
        .executeTakeFirst(),
    );
    // A dump of every table never contains a plaintext value.
    const tables = [
      'users',
      'clients',
      'signing_keys',
      'sessions',
      'authorization_codes',
      'one_time_tokens',
      'grants',
      'revoked_access_tokens',
      'refresh_tokens',
      'rate_counters',
      'settings',
    ] as const;
    let dump = '';
    for (const t of tables) dump += JSON.stringify(await db.selectFrom(t).selectAll().execute());
    for (const secret of [waiting.code, code, tokens.access_token!, tokens.refresh_token!, waiting.user.tkn]) {
      assert.ok(!dump.includes(secret), 'a plaintext secret is in the database');
    }
    // Nor the sealed access token's body: only its own key opens it.
    assert.ok(!dump.includes(tokens.access_token!.slice(5, 40)));
    // The digests from the dump replay nothing.
    await expectError(await redeemRaw(ward, codeRow.code_digest, waiting.verifier), 400, 'invalid_grant');
    await expectError(await refresh(ward, sha(tokens.refresh_token!)), 400, 'invalid_grant');
    const ui = await ward.fetch('/identity/v1/userinfo', {
      headers: { authorization: `Bearer ${sha(tokens.access_token!)}` },
    });
    await expectError(ui, 401, 'invalid_token');
    // The digest attempt did not touch the real code (lookups are by digest of what is sent).
    const { res } = await redeem(ward, waiting.code, waiting.verifier);
    assert.equal(res.status, 200);
  });
});

// Sealed access tokens (protocol/access-token-codec.ts): nothing stored at issue, only Ward's key
// opens them, any change to one is refused, and revocation by jti (RFC 7009) holds for user and
// client_credentials tokens alike until the token would have expired.
import assert from 'node:assert/strict';
import { hkdfSync, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAccessTokenCodec } from '../../../src/protocol/access-token-codec.js';
import { encryptBytes } from '../../../src/lib/secrets.js';
import { api } from '../../helpers/management.js';
import { PUBLIC_CLIENT, tokenRequest } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { NO_LIMITS, OFFLINE, expectTokens, offlineTokens, refresh, userinfoStatus } from './support.js';

const SECRET = 'management-client-secret-of-40-characters!';
const MGMT = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients'],
};

const CLAIMS = {
  grant_id: 'g'.repeat(32),
  client_id: 'spa',
  user_id: 'u'.repeat(32),
  scope: OFFLINE,
  auth_time: 1_700_000_000_000,
  amr: ['pwd', 'mfa'],
  created_at: 1_700_000_000_000,
  expires_at: 1_700_000_900_000,
  aud: null,
  step_up_action: null,
  jkt: null,
};

describe('sealed access tokens: the codec', () => {
  const key = randomBytes(32);
  const codec = createAccessTokenCodec(key);

  it('opens what it sealed, with a fresh jti each time', () => {
    const a = codec.seal(CLAIMS);
    const b = codec.seal(CLAIMS);
    assert.notEqual(a.jti, b.jti);
    assert.notEqual(a.token, b.token);
    assert.deepEqual(codec.open(a.token), { ...CLAIMS, jti: a.jti });
    assert.match(a.token, /^wat1\.[A-Za-z0-9_-]+$/, 'a Bearer-safe, URL-safe value');
    assert.ok(!a.token.includes(CLAIMS.user_id) && !a.token.includes('spa'), 'nothing readable inside');
  });

  it('carries a step-up action, with or without an audience', () => {
    for (const aud of [null, 'https://api.example/x']) {
      const claims = { ...CLAIMS, aud, step_up_action: 'delete_account' };
      const t = codec.seal(claims);
      assert.deepEqual(codec.open(t.token), { ...claims, jti: t.jti });
    }
  });

  it('carries a DPoP key (cnf.jkt), with or without an audience and an action', () => {
    const jkt = 'x'.repeat(43);
    for (const [aud, action] of [
      [null, null],
      ['https://api.example/x', null],
      [null, 'delete_account'],
    ] as const) {
      const claims = { ...CLAIMS, aud, step_up_action: action, jkt };
      const t = codec.seal(claims);
      assert.deepEqual(codec.open(t.token), { ...claims, jti: t.jti });
    }
  });

  it('opens a token of an older release (nine, ten or eleven fields) as bound to no key', () => {
    // The body as releases before DPoP sealed it, under the same key derivation as the codec's.
    const aesKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'ward access tokens v1', 32));
    const base = [
      'j'.repeat(22),
      CLAIMS.grant_id,
      'spa',
      CLAIMS.user_id,
      OFFLINE,
      CLAIMS.auth_time,
      CLAIMS.amr,
      CLAIMS.created_at,
      CLAIMS.expires_at,
    ];
    for (const tail of [[], ['https://api.example/x'], [null, 'delete_account']]) {
      const token = `wat1.${encryptBytes(aesKey, JSON.stringify([...base, ...tail]), Buffer.from([1])).toString('base64url')}`;
      const opened = codec.open(token);
      assert.ok(opened, `${tail.length} optional fields`);
      assert.equal(opened.jkt, null);
      assert.equal(opened.aud, tail[0] ?? null);
      assert.equal(opened.step_up_action, tail[1] ?? null);
    }
  });

  it('refuses every changed, truncated, extended, re-spelled or foreign token', () => {
    const { token } = codec.seal(CLAIMS);
    const body = token.slice(5);
    for (let i = 0; i < body.length; i += 7) {
      const c = body[i] === 'A' ? 'B' : 'A';
      assert.equal(codec.open(`wat1.${body.slice(0, i)}${c}${body.slice(i + 1)}`), null, `byte ${i} changed`);
    }
    for (const bad of [
      token.slice(0, -1),
      `${token}A`,
      `${token}=`,
      `${token}.`,
      token.replace('wat1.', 'wat2.'),
      token.replace('wat1.', ''),
      `wat1.${body.replace(/-/g, '+').replace(/_/g, '/')}`,
      'wat1.',
      'wat1.AAAA',
      '',
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    ]) {
      if (bad === token) continue;
      assert.equal(codec.open(bad), null, bad.slice(0, 30));
    }
    assert.equal(createAccessTokenCodec(randomBytes(32)).open(token), null, 'another master key');
  });
});

describe('sealed access tokens: through Ward', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, MGMT], account: NO_LIMITS });
  });
  after(() => ward.close());

  const revoke = (form: Record<string, string>) =>
    ward.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const rowCount = async () =>
    (await ward.registry.db.db.selectFrom('revoked_access_tokens').select('jti').execute()).length;

  it('issuing writes no token row; revoking one access token leaves its grant (refresh, other tokens) alive', async () => {
    const { tokens } = await offlineTokens(ward);
    const second = await expectTokens(await refresh(ward, tokens.refresh_token!));
    assert.equal(await userinfoStatus(ward, tokens.access_token!), 200);
    const before = await rowCount();
    assert.equal((await revoke({ client_id: 'spa', token: tokens.access_token! })).status, 200);
    assert.equal(await rowCount(), before + 1, 'one revocation row, by jti');
    assert.equal(await userinfoStatus(ward, tokens.access_token!), 401);
    assert.equal(await userinfoStatus(ward, second.access_token!), 200, 'another token of the grant lives');
    await expectTokens(await refresh(ward, second.refresh_token!));
    // Revoking it again, or by another client, changes nothing and is still 200 (RFC 7009 2.2).
    assert.equal((await revoke({ client_id: 'spa', token: tokens.access_token! })).status, 200);
    assert.equal(await rowCount(), before + 1);
  });

  it('another client cannot revoke a token it was not issued', async () => {
    const { tokens } = await offlineTokens(ward);
    assert.equal((await revoke({ client_id: 'ops', client_secret: SECRET, token: tokens.access_token! })).status, 200);
    assert.equal(await userinfoStatus(ward, tokens.access_token!), 200);
  });

  it('a client_credentials token (no grant row) is revoked by its jti; the revocation is swept once it expired', async () => {
    const res = await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'ops', client_secret: SECRET });
    const { access_token: token, expires_in: ttl } = (await res.json()) as { access_token: string; expires_in: number };
    assert.equal((await api(ward, token).get('/api/v1/clients')).status, 200);
    assert.equal((await revoke({ client_id: 'ops', client_secret: SECRET, token })).status, 200);
    assert.equal((await api(ward, token).get('/api/v1/clients')).status, 401);
    const jti = ward.registry.accessTokens.open(token)!.jti;
    const has = async () =>
      (await ward.registry.db.db
        .selectFrom('revoked_access_tokens')
        .select('jti')
        .where('jti', '=', jti)
        .executeTakeFirst()) !== undefined;
    await ward.registry.janitor.sweep();
    assert.ok(await has(), 'kept while the token could still be used');
    ward.clock.advance((ttl + 1) * 1000);
    await ward.registry.janitor.sweep();
    assert.ok(!(await has()), 'swept after the token expired');
    assert.equal((await api(ward, token).get('/api/v1/clients')).status, 401, 'and the token is dead by its expiry');
  });

  it('a token with the same claims sealed under another master key is refused', async () => {
    const { tokens } = await offlineTokens(ward);
    const claims = ward.registry.accessTokens.open(tokens.access_token!)!;
    const { jti: _j, ...rest } = claims;
    const forged = createAccessTokenCodec(randomBytes(32)).seal(rest).token;
    assert.equal(await userinfoStatus(ward, forged), 401);
    assert.equal(await userinfoStatus(ward, tokens.access_token!), 200);
  });
});

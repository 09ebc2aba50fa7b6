// The storage contract, run on SQLite and (when WARD_TEST_DATABASE_URL is set) PostgreSQL.
// Race rules are part of it: a code, a one-time token and a refresh token are consumed by exactly one
// of many concurrent callers, and counters never lose an increment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { isUniqueViolation } from '../../src/storage/sql/errors.js';
import { EMPTY_PROFILE } from '../../src/storage/sql/profiles.js';
import { engines, freshDb } from '../helpers/databases.js';
import { grantRow } from '../helpers/storage-rows.js';

for (const engine of engines()) {
  describe(`storage contract on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());

    const now = 1_700_000_000_000;
    const user = (id: string, email: string) => ({
      id,
      email,
      phone_number: null,
      password_hash: 'h',
      given_name: 'Ada',
      family_name: 'L',
      email_verified: false,
      phone_number_verified: false,
      role: null,
      disabled: false,
    });

    it('creates and finds users; a duplicate email is a unique violation', async () => {
      await s.users.create(user('u1', 'ada@example.com'), now);
      assert.equal((await s.users.findByEmail('ada@example.com'))?.id, 'u1');
      assert.equal((await s.users.findById('u1'))?.email_verified, false);
      await assert.rejects(s.users.create(user('u2', 'ada@example.com'), now), (e) => isUniqueViolation(e));
    });

    it('keeps a profile: made at its first write, replaced whole, its JSON parts as written; names beside it', async () => {
      await s.users.create(user('up1', 'profile@example.com'), now);
      assert.equal(await s.profiles.find('up1'), undefined, 'no profile until one is written');
      const first = {
        middle_name: 'King',
        nickname: 'ada',
        birthdate: '1815-12-10',
        gender: 'female',
        locale: 'en-GB',
        picture: 'https://pics.example/a.png',
        website: null,
        zoneinfo: 'Europe/London',
        address: { locality: 'London', country: 'UK' },
        addresses: [
          { default: true, address_type: 'delivery' as const, locality: 'London', phone_number: '+447700900123' },
        ],
        company: 'Analytical Engines',
        bio: 'Wrote the first program',
        lite_only: true,
        name: 'Ada King Lovelace',
        profile_url: 'https://profiles.example/ada',
        username: 'ada.l',
        custom_fields: { loyalty_id: 'L-1', shoe_size: 38, newsletter: false, note: 'é \u2028 "q"' },
      };
      await s.profiles.put('up1', first, now);
      assert.deepEqual(await s.profiles.find('up1'), { ...first, updated_at: now });
      const second = {
        ...first,
        nickname: null,
        address: null,
        addresses: [],
        company: null,
        bio: null,
        lite_only: false,
        name: null,
        profile_url: null,
        username: null,
        custom_fields: {},
      };
      await s.profiles.put('up1', second, now + 1);
      assert.deepEqual(await s.profiles.find('up1'), { ...second, updated_at: now + 1 });
      await s.users.setNames('up1', { family_name: null }, now + 2);
      const u = await s.users.findById('up1');
      assert.equal(u?.given_name, 'Ada', 'a name not named is kept');
      assert.equal(u?.family_name, null);
      assert.equal(u?.updated_at, now + 2);
      assert.equal(await s.profiles.delete('up1'), true);
      assert.equal(await s.profiles.find('up1'), undefined);
      assert.equal(await s.profiles.delete('up1'), false);
    });

    it('tells a lite profile; gives a phone number only to a user without one', async () => {
      await s.users.create(user('lite1', 'lite@example.com'), now);
      assert.equal(await s.profiles.isLite('lite1'), false, 'no profile: not lite');
      await s.profiles.put('lite1', { ...EMPTY_PROFILE, lite_only: true }, now);
      assert.equal(await s.profiles.isLite('lite1'), true);
      await s.profiles.put('lite1', { ...EMPTY_PROFILE, lite_only: false }, now + 1);
      assert.equal(await s.profiles.isLite('lite1'), false);
      assert.equal(await s.users.setPhoneIfNone('lite1', '+33611111111', now + 2), true);
      const u = (await s.users.findById('lite1'))!;
      assert.equal(u.phone_number, '+33611111111');
      assert.equal(u.phone_number_verified, false);
      assert.equal(await s.users.setPhoneIfNone('lite1', '+33622222222', now + 3), false, 'one it has stays');
      assert.equal((await s.users.findById('lite1'))!.phone_number, '+33611111111');
      await s.users.create(user('lite2', 'lite2@example.com'), now);
      await assert.rejects(s.users.setPhoneIfNone('lite2', '+33611111111', now), (e) => isUniqueViolation(e));
    });

    it("reads a user's lite profile with the user: by id, email, phone, search and the joined reads", async () => {
      const phoned = (id: string, email: string, phone: string) => ({ ...user(id, email), phone_number: phone });
      await s.users.create(phoned('lr-lite', 'lr-lite@example.com', '+33633333331'), now);
      await s.users.create(phoned('lr-none', 'lr-none@example.com', '+33633333332'), now);
      await s.users.create(phoned('lr-off', 'lr-off@example.com', '+33633333333'), now);
      await s.profiles.put('lr-lite', { ...EMPTY_PROFILE, lite_only: true }, now);
      await s.profiles.put('lr-off', { ...EMPTY_PROFILE, lite_only: false, company: 'Not lite' }, now);
      const expected = { 'lr-lite': true, 'lr-none': false, 'lr-off': false } as const;
      for (const [id, lite] of Object.entries(expected)) {
        const byId = await s.users.findById(id);
        assert.equal(byId?.lite, lite, `${id} by id`);
        assert.equal((await s.users.findByEmail(`${id}@example.com`))?.lite, lite, `${id} by email`);
        assert.equal((await s.users.findByPhone(byId!.phone_number!))?.lite, lite, `${id} by phone`);
        assert.equal((await s.users.search(id, 10)).find((u) => u.id === id)?.lite, lite, `${id} by search`);
        assert.equal(await s.profiles.isLite(id), lite, `${id}: isLite agrees`);
        assert.deepEqual(
          Object.keys(byId!).sort(),
          [...Object.keys(user(id, '')), 'created_at', 'updated_at', 'lite'].sort(),
          'the user and nothing of its profile',
        );
        await s.sessions.create({
          id_digest: `s-${id}`,
          user_id: id,
          auth_time: now,
          amr: '["pwd"]',
          created_at: now,
          last_seen_at: now,
          expires_at: now + 10_000,
          revoked_at: null,
          user_agent: null,
          ip: null,
        });
        const session = await s.sessions.findLiveWithUser(`s-${id}`, now + 1, 5_000);
        assert.equal(session?.user?.lite, lite, `${id} with its session`);
        assert.deepEqual(session?.user, byId, `${id}: the same user as a read of its own`);
        await s.tokens.createGrant(
          grantRow(`g-${id}`, id, now, { client_id: 'c1', scope: 'openid', amr: '[]', expires_at: now + 1e6 }),
        );
        await s.tokens.insertRefreshToken({
          digest: `r-${id}`,
          grant_id: `g-${id}`,
          client_id: 'c1',
          user_id: id,
          scope: 'openid',
          created_at: now,
          consumed_at: null,
        });
        const refresh = await s.tokens.findRefreshTokenWithGrant(`r-${id}`);
        assert.equal(refresh?.user?.lite, lite, `${id} with its refresh token`);
        assert.equal(refresh?.profile?.lite_only ?? false, lite, `${id}: its profile says the same`);
        assert.deepEqual(refresh?.user, byId, `${id}: the same user as a read of its own`);
        await s.codes.insert({
          code_digest: `c-${id}`,
          client_id: 'c1',
          user_id: id,
          session_id: null,
          redirect_uri: 'https://a.example/cb',
          scope: 'openid',
          nonce: null,
          code_challenge: null,
          auth_time: now,
          amr: '["pwd"]',
          grant_id: `g-${id}`,
          expires_at: now + 60_000,
          consumed_at: null,
          created_at: now,
          resource: null,
          step_up_action: null,
        });
        const code = await s.codes.consume(`c-${id}`, now);
        assert.equal(code.state === 'ok' && code.user?.lite, lite, `${id} with its authorization code`);
      }
      await s.profiles.delete('lr-lite');
      assert.equal((await s.users.findById('lr-lite'))?.lite, false, 'its profile gone: not lite');
      assert.equal((await s.users.create(user('lr-new', 'lr-new@example.com'), now)).lite, false, 'a new user');
    });

    it('upserts clients and keeps key_mode', async () => {
      const c = {
        client_id: 'c1',
        name: 'C',
        type: 'public' as const,
        secret_sealed: null,
        secret_digest: null,
        jwt_algorithm: 'RS256' as const,
        allowed_callback_urls: ['https://a.example/cb'],
        allowed_origins: [],
        sso: true,
        scope: 'openid',
        pkce_enforced: true,
        implicit_flow: false,
        response_types: ['code'],
        post_logout_redirect_uris: ['https://a.example/'],
        backchannel_logout_uri: 'https://a.example/bcl',
        backchannel_logout_session_required: true,
        key_mode: 'global' as const,
        source: 'config' as const,
        grant_types: ['authorization_code'],
        management_scopes: [],
        custom_token_login: true,
        tokens_not_before: now,
        first_party: false,
        logo_uri: 'https://a.example/logo.png',
        client_uri: null,
        policy_uri: 'https://a.example/privacy',
        tos_uri: null,
        token_endpoint_auth_method: 'private_key_jwt' as const,
        jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'x-of-the-key', kid: 'k1' }] },
        jwks_uri: null,
        require_pushed_authorization_requests: true,
        request_object_signing_alg: 'ES256' as const,
        require_signed_request_object: true,
        dpop_bound_access_tokens: true,
        client_credentials_resources: { 'https://api.example': ['read'] },
        created_at: now,
        updated_at: now,
      };
      await s.clients.upsert(c);
      await s.clients.setKeyMode('c1', 'client', now);
      await s.clients.upsert({ ...c, name: 'C2' });
      const got = await s.clients.find('c1');
      assert.equal(got?.name, 'C2');
      assert.equal(got?.key_mode, 'client');
      assert.equal(got?.custom_token_login, true);
      assert.equal(got?.token_endpoint_auth_method, 'private_key_jwt');
      assert.equal(got?.request_object_signing_alg, 'ES256');
      assert.equal(got?.require_signed_request_object, true);
      assert.equal(got?.dpop_bound_access_tokens, true);
      assert.deepEqual(got?.client_credentials_resources, { 'https://api.example': ['read'] });
      assert.deepEqual(got?.jwks, c.jwks);
      assert.equal(got?.jwks_uri, null);
      assert.equal(got?.require_pushed_authorization_requests, true);
      assert.equal(got?.tokens_not_before, now);
      assert.deepEqual(got?.allowed_callback_urls, ['https://a.example/cb']);
      assert.deepEqual(got?.post_logout_redirect_uris, ['https://a.example/']);
      assert.equal(got?.backchannel_logout_uri, 'https://a.example/bcl');
      assert.equal(got?.backchannel_logout_session_required, true);
      assert.equal(got?.first_party, false);
      assert.equal(got?.logo_uri, 'https://a.example/logo.png');
      assert.equal(got?.client_uri, null);
      assert.equal(got?.policy_uri, 'https://a.example/privacy');
    });

    it('keeps a client registration: its token digest and metadata, replaced whole but created_at', async () => {
      const reg = {
        client_id: 'dcr-1',
        token_digest: 'digest-1',
        auth_method: 'none' as const,
        metadata: { client_name: 'Agent', contacts: ['ops@agent.example'] },
        created_at: now,
        updated_at: now,
      };
      await s.clientRegistrations.put(reg);
      assert.deepEqual(await s.clientRegistrations.find('dcr-1'), reg);
      await s.clientRegistrations.put({
        ...reg,
        token_digest: 'digest-2',
        auth_method: 'client_secret_basic',
        metadata: {},
        created_at: now + 5,
        updated_at: now + 5,
      });
      const got = await s.clientRegistrations.find('dcr-1');
      assert.equal(got?.token_digest, 'digest-2');
      assert.equal(got?.auth_method, 'client_secret_basic');
      assert.deepEqual(got?.metadata, {});
      assert.equal(got?.created_at, now, 'created_at kept');
      assert.equal(got?.updated_at, now + 5);
      assert.equal(await s.clientRegistrations.delete('dcr-1'), true);
      assert.equal(await s.clientRegistrations.delete('dcr-1'), false);
      assert.equal(await s.clientRegistrations.find('dcr-1'), undefined);
    });

    it('consumes an authorization code exactly once under 20 concurrent callers', async () => {
      await s.codes.insert({
        code_digest: 'd1',
        client_id: 'c1',
        user_id: 'u1',
        session_id: null,
        redirect_uri: 'https://a.example/cb',
        scope: 'openid',
        nonce: null,
        code_challenge: null,
        auth_time: now,
        amr: '["pwd"]',
        grant_id: 'g1',
        expires_at: now + 60_000,
        consumed_at: null,
        created_at: now,
        resource: null,
        step_up_action: null,
      });
      const results = await Promise.all(Array.from({ length: 20 }, () => s.codes.consume('d1', now)));
      assert.equal(results.filter((r) => r.state === 'ok').length, 1);
      assert.equal(results.filter((r) => r.state === 'reused').length, 19);
      assert.equal((await s.codes.consume('nope', now)).state, 'missing');
      const won = results.find((r) => r.state === 'ok');
      assert.ok(won?.state === 'ok');
      assert.equal(won.user?.id, 'u1', "the winner gets the code's user");
      assert.equal(won.user?.disabled, false);
      assert.equal(won.challengeSeen, false, 'no challenge: nothing seen');
    });

    it('stores a grant with its first code in one call; the consume tells a PKCE challenge seen on another code', async () => {
      const grant = (id: string) => ({
        id,
        user_id: 'u1',
        client_id: 'c9',
        session_id: null,
        scope: 'openid',
        auth_time: now,
        amr: '["pwd"]',
        created_at: now,
        expires_at: now + 1e6,
        revoked_at: null,
        resource: null,
        step_up_action: null,
      });
      const code = (digest: string, grantId: string, challenge: string, userId = 'u1') => ({
        code_digest: digest,
        client_id: 'c9',
        user_id: userId,
        session_id: null,
        redirect_uri: null,
        scope: 'openid',
        nonce: null,
        code_challenge: challenge,
        auth_time: now,
        amr: '["pwd"]',
        grant_id: grantId,
        expires_at: now + 60_000,
        consumed_at: null,
        created_at: now,
        resource: null,
        step_up_action: null,
      });
      await s.codes.insertWithGrant(grant('g9a'), code('c9a', 'g9a', 'ch-once'));
      await s.codes.insertWithGrant(grant('g9b'), code('c9b', 'g9b', 'ch-twice'));
      await s.codes.insertWithGrant(grant('g9c'), code('c9c', 'g9c', 'ch-twice', 'no-such-user'));
      assert.equal((await s.tokens.findGrant('g9a'))?.client_id, 'c9');
      await assert.rejects(s.codes.insertWithGrant(grant('g9a'), code('c9d', 'g9a', 'x')), (e) => isUniqueViolation(e));
      assert.equal(await s.codes.find('c9d'), undefined, 'a grant that cannot be stored takes its code with it');
      const once = await s.codes.consume('c9a', now);
      assert.ok(once.state === 'ok');
      assert.equal(once.challengeSeen, false);
      const twice = await s.codes.consume('c9b', now);
      assert.ok(twice.state === 'ok');
      assert.equal(twice.challengeSeen, true);
      const orphan = await s.codes.consume('c9c', now);
      assert.ok(orphan.state === 'ok');
      assert.equal(orphan.user, undefined, 'a code whose user is gone has none');
      await s.tokens.revokeGrant('g9b', now);
      assert.equal((await s.codes.consume('c9b', now)).state, 'reused');
    });

    it('consumes a one-time token once, and only as its own kind', async () => {
      await s.oneTime.insert({
        digest: 't1',
        kind: 'tkn',
        user_id: 'u1',
        client_id: 'c1',
        payload: '{}',
        expires_at: now + 1000,
        consumed_at: null,
        created_at: now,
      });
      assert.equal((await s.oneTime.consume('step_up', 't1', now)).state, 'missing');
      const results = await Promise.all(Array.from({ length: 20 }, () => s.oneTime.consume('tkn', 't1', now)));
      assert.equal(results.filter((r) => r.state === 'ok').length, 1);
    });

    it('claims a single-use value once under 20 concurrent callers (a client assertion jti)', async () => {
      const row = {
        digest: 'jti-1',
        kind: 'client_assertion',
        user_id: '',
        client_id: 'c1',
        payload: '',
        expires_at: now + 1000,
        consumed_at: now,
        created_at: now,
      };
      const won = await Promise.all(Array.from({ length: 20 }, () => s.oneTime.claim(row)));
      assert.equal(won.filter(Boolean).length, 1);
      assert.equal(await s.oneTime.claim({ ...row, digest: 'jti-2' }), true);
    });

    it('continues an interaction under a new key at each step, finishes it once, and forgets it when expired', async () => {
      const row = {
        digest: 'i1',
        client_id: 'c1',
        request: '{}',
        browser: 'b1',
        step: 'login',
        user_id: null,
        amr: null,
        auth_time: null,
        created_at: now,
        expires_at: now + 60_000,
      };
      await s.interactions.insert(row);
      assert.equal((await s.interactions.findLive('i1', now))?.step, 'login');
      assert.equal(await s.interactions.findLive('i1', now + 60_000), undefined, 'expired');
      const progress = { step: 'mfa', user_id: 'u1', amr: '["pwd"]', auth_time: now };
      const moves = await Promise.all(
        Array.from({ length: 10 }, (_, i) => s.interactions.advance('i1', `i2-${i}`, progress, now)),
      );
      assert.equal(moves.filter(Boolean).length, 1, 'one step wins');
      const next = `i2-${moves.indexOf(true)}`;
      assert.equal(await s.interactions.findLive('i1', now), undefined, 'the old key no longer works');
      assert.deepEqual({ ...(await s.interactions.findLive(next, now)) }, { ...row, ...progress, digest: next });
      const finishes = await Promise.all(Array.from({ length: 10 }, () => s.interactions.finish(next, now)));
      assert.equal(finishes.filter(Boolean).length, 1, 'finished once');
      assert.equal(await s.interactions.findLive(next, now), undefined);
      assert.equal(await s.interactions.advance(next, 'i3', progress, now), false, 'a finished one does not move on');
      await s.interactions.insert({ ...row, digest: 'i4', expires_at: now + 1 });
      await s.interactions.deleteExpired(now + 2);
      assert.equal(await s.interactions.findLive('i4', now), undefined);
    });

    it('rotates a refresh token once under concurrency, and revoking a grant kills its access tokens', async () => {
      await s.tokens.createGrant({
        id: 'g1',
        user_id: 'u1',
        client_id: 'c1',
        session_id: 's1',
        scope: 'openid',
        auth_time: now,
        amr: '[]',
        created_at: now,
        expires_at: now + 1e6,
        revoked_at: null,
        resource: null,
        step_up_action: null,
      });
      await s.tokens.insertRefreshToken({
        digest: 'r1',
        grant_id: 'g1',
        client_id: 'c1',
        user_id: 'u1',
        scope: 'openid',
        created_at: now,
        consumed_at: null,
      });
      const next = (i: number) => ({
        digest: `r1-next-${i}`,
        grant_id: 'g1',
        client_id: 'c1',
        user_id: 'u1',
        scope: 'openid',
        created_at: now,
        consumed_at: null,
      });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.tokens.rotateRefreshToken('r1', now, next(i))),
      );
      assert.equal(results.filter((won) => won).length, 1);
      const winner = results.indexOf(true);
      const seen = await s.tokens.findRefreshTokenWithGrant('r1');
      assert.equal(seen?.consumed_at, now);
      assert.equal(seen?.grant_revoked_at, null);
      assert.equal(seen?.user?.email, 'ada@example.com', 'the token is read with its user');
      assert.equal(seen?.user?.email_verified, false);
      // Only the winner's successor is stored, and it is live.
      for (let i = 0; i < 20; i++)
        assert.equal(
          (await s.tokens.findRefreshTokenWithGrant(`r1-next-${i}`))?.consumed_at,
          i === winner ? null : undefined,
        );
      assert.equal(await s.tokens.rotateRefreshToken('r1', now, next(99)), false, 'a used token rotates no more');
      assert.equal(await s.tokens.findRefreshTokenWithGrant('r1-next-99'), undefined);
      assert.deepEqual(await s.tokens.grantIdsOfSession('s1'), ['g1']);
      assert.equal(await s.tokens.accessTokenRevoked('j1', 'g1'), false);
      await s.tokens.revokeGrant('g1', now + 1);
      assert.equal(await s.tokens.accessTokenRevoked('j1', 'g1'), true, 'a token of a revoked grant is dead');
      assert.equal((await s.tokens.findGrant('g1'))?.revoked_at, now + 1);
      assert.equal((await s.tokens.findRefreshTokenWithGrant('r1'))?.grant_revoked_at, now + 1);
    });

    it('revokes one access token by its jti, with or without a grant, until it expires', async () => {
      await s.tokens.createGrant({
        id: 'g2',
        user_id: 'u1',
        client_id: 'c1',
        session_id: null,
        scope: 'openid',
        auth_time: now,
        amr: '[]',
        created_at: now,
        expires_at: now + 1e6,
        revoked_at: null,
        resource: null,
        step_up_action: null,
      });
      assert.equal(await s.tokens.accessTokenRevoked('j2', 'g2'), false);
      assert.equal(await s.tokens.accessTokenRevoked('j3', null), false);
      assert.equal(
        await s.tokens.accessTokenRevoked('j2', 'no-such-grant'),
        true,
        'a token of a grant that is gone is dead',
      );
      await s.tokens.revokeAccessToken('j2', now + 1000);
      await s.tokens.revokeAccessToken('j2', now + 1000); // twice is a no-op
      await s.tokens.revokeAccessToken('j3', now + 5000);
      assert.equal(await s.tokens.accessTokenRevoked('j2', 'g2'), true);
      assert.equal(await s.tokens.accessTokenRevoked('j3', null), true);
      assert.equal(await s.tokens.accessTokenRevoked('j4', 'g2'), false, 'another token of the grant lives');
      await s.tokens.deleteExpiredRevocations(now + 2000);
      assert.equal(await s.tokens.accessTokenRevoked('j2', 'g2'), false, 'the expired revocation is swept');
      assert.equal(await s.tokens.accessTokenRevoked('j3', null), true);
    });

    it('finds a live session until it is revoked, idle or past its absolute limit', async () => {
      await s.sessions.create({
        id_digest: 's-1',
        user_id: 'u1',
        auth_time: now,
        amr: '["pwd"]',
        created_at: now,
        last_seen_at: now,
        expires_at: now + 10_000,
        revoked_at: null,
        user_agent: null,
        ip: null,
      });
      assert.equal((await s.sessions.findLive('s-1', now + 1, 5_000))?.user_id, 'u1');
      const withUser = await s.sessions.findLiveWithUser('s-1', now + 1, 5_000);
      assert.equal(withUser?.user?.email, 'ada@example.com');
      assert.equal(withUser?.id_digest, 's-1');
      assert.equal(await s.sessions.findLiveWithUser('s-1', now + 6_000, 5_000), undefined, 'the same limits');
      assert.equal(await s.sessions.findLive('s-1', now + 6_000, 5_000), undefined, 'idle too long');
      await s.sessions.touch('s-1', now + 4_000);
      assert.ok(await s.sessions.findLive('s-1', now + 8_000, 5_000), 'touched: still live');
      assert.equal(await s.sessions.findLive('s-1', now + 10_000, 60_000), undefined, 'past its absolute limit');
      assert.equal(await s.sessions.revoke('s-1', now), true);
      assert.equal(await s.sessions.findLive('s-1', now + 1, 60_000), undefined);
      assert.equal(await s.sessions.revokeAllForUser('u1', now), 0);
    });

    it("lists a user's live sessions with their browser, the most recently used first", async () => {
      const at = (id: string, userId: string, lastSeen: number, ua: string | null, expires = now + 1e6) =>
        s.sessions.create({
          id_digest: id,
          user_id: userId,
          auth_time: now,
          amr: '["pwd"]',
          created_at: now,
          last_seen_at: lastSeen,
          expires_at: expires,
          revoked_at: null,
          user_agent: ua,
          ip: null,
        });
      await at('l-old', 'u1', now - 2_000, 'Firefox');
      await at('l-new', 'u1', now - 1_000, null);
      await at('l-idle', 'u1', now - 90_000, 'Idle');
      await at('l-expired', 'u1', now, 'Expired', now - 1);
      await at('l-revoked', 'u1', now, 'Revoked');
      await s.sessions.revoke('l-revoked', now);
      await at('l-other-user', 'u2', now, 'Other');
      const live = await s.sessions.listLiveOfUser('u1', now, 60_000);
      assert.deepEqual(
        live.map((x) => [x.id_digest, x.user_agent]),
        [
          ['l-new', null],
          ['l-old', 'Firefox'],
        ],
      );
      assert.equal((await s.sessions.listLiveOfUser('u1', now, 60_000, 1)).length, 1, 'the limit holds');
    });

    it("reads a user's latest events of some actions, theirs and an administrator's on their account", async () => {
      const row = (id: string, at: number, action: string, actor: [string, string], target: string | null) =>
        s.audit.insert({
          id,
          at,
          actor_type: actor[0],
          actor_id: actor[1],
          action,
          target,
          ip: null,
          outcome: 'success',
          details: '{}',
        });
      await row('e1', now, 'login.succeeded', ['user', 'ua'], 'client:c1');
      await row('e2', now + 1, 'account.password_changed', ['user', 'ua'], null);
      await row('e3', now + 2, 'user.factors_reset', ['admin', 'root'], 'user:ua');
      await row('e4', now + 3, 'login.succeeded', ['user', 'ub'], null);
      await row('e5', now + 4, 'mfa.code_sent', ['user', 'ua'], null);
      await row('e6', now + 5, 'login.succeeded', ['client', 'ua'], null);
      const actions = ['login.succeeded', 'account.password_changed', 'user.factors_reset'];
      const mine = await s.audit.listAboutUser('ua', actions, 10);
      assert.deepEqual(
        mine.map((e) => e.id),
        ['e3', 'e2', 'e1'],
      );
      assert.deepEqual(
        (await s.audit.listAboutUser('ua', actions, 2)).map((e) => e.id),
        ['e3', 'e2'],
      );
      assert.deepEqual(await s.audit.listAboutUser('ua', [], 10), []);
    });

    it('ends the other sessions and grants of a user, keeping one session and its grants', async () => {
      await s.users.create(user('u9', 'nine@example.com'), now);
      const session = (id: string, userId = 'u9') =>
        s.sessions.create({
          id_digest: id,
          user_id: userId,
          auth_time: now,
          amr: '[]',
          created_at: now,
          last_seen_at: now,
          expires_at: now + 1e6,
          revoked_at: null,
          user_agent: null,
          ip: null,
        });
      const grant = (id: string, sessionId: string | null, userId = 'u9') =>
        s.tokens.createGrant({
          id,
          user_id: userId,
          client_id: 'c1',
          session_id: sessionId,
          scope: 'openid',
          auth_time: now,
          amr: '[]',
          created_at: now,
          expires_at: now + 1e6,
          revoked_at: null,
          resource: null,
          step_up_action: null,
        });
      for (const id of ['keep', 'other-1', 'other-2']) await session(id);
      await session('someone-else', 'u1');
      await grant('g-mine', 'keep');
      await grant('g-same-browser', 'keep');
      await grant('g-other', 'other-1');
      await grant('g-no-session', null);
      await grant('g-someone-else', 'someone-else', 'u1');
      const ended = await s.transaction(async (tx) => [
        await tx.sessions.revokeAllForUser('u9', now + 1, 'keep'),
        await tx.tokens.revokeGrantsOfUser('u9', now + 1, { grant: 'g-mine', session: 'keep' }),
      ]);
      assert.deepEqual(ended, [2, 2]);
      const live = async (id: string) => (await s.tokens.findGrant(id))?.revoked_at === null;
      assert.deepEqual(
        await Promise.all(['g-mine', 'g-same-browser', 'g-other', 'g-no-session', 'g-someone-else'].map(live)),
        [true, true, false, false, true],
      );
      assert.ok(await s.sessions.findLive('keep', now + 2, 1e6));
      assert.equal(await s.sessions.findLive('other-1', now + 2, 1e6), undefined);
      assert.ok(await s.sessions.findLive('someone-else', now + 2, 1e6));
      // Without a session to keep, every session ends; the caller's grant alone stays.
      assert.equal(await s.sessions.revokeAllForUser('u9', now + 3), 1);
      assert.equal(await s.tokens.revokeGrantsOfUser('u9', now + 3, { grant: 'g-mine', session: null }), 1);
      assert.deepEqual(await Promise.all(['g-mine', 'g-same-browser'].map(live)), [true, false]);
      // A session kept without a grant of the caller's (the hosted account page): its grants stay.
      await session('page');
      await grant('g-page', 'page');
      await grant('g-elsewhere', null);
      assert.equal(await s.sessions.revokeAllForUser('u9', now + 4, 'page'), 0);
      assert.equal(await s.tokens.revokeGrantsOfUser('u9', now + 4, { grant: null, session: 'page' }), 2);
      assert.deepEqual(await Promise.all(['g-page', 'g-elsewhere', 'g-mine'].map(live)), [true, false, false]);
      assert.ok(await s.sessions.findLive('page', now + 5, 1e6));
    });

    it('schedules, moves, lists when due and cancels a deletion of an account', async () => {
      await s.accountDeletions.schedule('del1', now, now + 1000);
      await s.accountDeletions.schedule('del2', now, now + 5000);
      await s.accountDeletions.schedule('del1', now + 10, now + 2000);
      assert.deepEqual(await s.accountDeletions.find('del1'), {
        user_id: 'del1',
        requested_at: now + 10,
        due_at: now + 2000,
      });
      assert.deepEqual(await s.accountDeletions.due(now + 1999, 10), []);
      assert.deepEqual(
        (await s.accountDeletions.due(now + 5000, 10)).map((d) => d.user_id),
        ['del1', 'del2'],
      );
      assert.equal((await s.accountDeletions.due(now + 5000, 1)).length, 1);
      assert.equal(await s.accountDeletions.cancel('del1'), true);
      assert.equal(await s.accountDeletions.cancel('del1'), false);
      assert.equal(await s.accountDeletions.find('del1'), undefined);
      await s.accountDeletions.cancel('del2');
    });

    it('counts 50 concurrent hits without losing one', async () => {
      const counts = await Promise.all(
        Array.from({ length: 50 }, () => s.counters.hit('login:1.2.3.4', now, now + 60_000)),
      );
      assert.equal(Math.max(...counts), 50);
      assert.equal(new Set(counts).size, 50);
    });

    it('rolls back a failed transaction', async () => {
      await assert.rejects(
        s.transaction(async (tx) => {
          await tx.settings.put('k', { v: 1 }, now);
          throw new Error('boom');
        }),
      );
      assert.equal(await s.settings.get('k'), undefined);
      await s.transaction(async (tx) => tx.settings.put('k', { v: 2 }, now));
      assert.deepEqual(await s.settings.get('k'), { v: 2 });
    });

    it('keeps API resources, one per identifier, and the resource of a grant and its code', async () => {
      const row = (id: string, identifier: string) => ({
        id,
        identifier,
        name: `API ${id}`,
        scopes: '["orders:read"]',
        token_format: 'jwt' as const,
        access_token_ttl: null,
        created_at: now,
        updated_at: now,
      });
      assert.equal(await s.apiResources.insert(row('r1', 'https://api.example/one')), true);
      assert.equal(await s.apiResources.insert(row('r2', 'https://api.example/one')), false, 'identifier taken');
      assert.equal(await s.apiResources.insert(row('r2', 'https://api.example/two')), true);
      assert.equal((await s.apiResources.findByIdentifier('https://api.example/two'))?.id, 'r2');
      assert.equal(await s.apiResources.findByIdentifier('https://api.example/TWO'), undefined, 'compared exactly');
      assert.equal(await s.apiResources.update('r2', { identifier: 'https://api.example/one' }), 'taken');
      const changed = await s.apiResources.update('r2', { token_format: 'opaque', access_token_ttl: 120 });
      assert.equal(changed !== 'taken' && changed?.access_token_ttl, 120);
      assert.equal(await s.apiResources.update('nope', { name: 'x' }), undefined);
      assert.deepEqual(
        (await s.apiResources.list()).map((r) => r.id),
        ['r1', 'r2'],
      );
      assert.equal(await s.apiResources.remove('r1'), true);
      assert.equal(await s.apiResources.remove('r1'), false);

      const grant = {
        id: 'g-res',
        user_id: 'u-res',
        client_id: 'c-res',
        session_id: null,
        scope: 'orders:read offline_access',
        auth_time: now,
        amr: '["pwd"]',
        created_at: now,
        expires_at: now + 60_000,
        revoked_at: null,
        resource: 'https://api.example/two',
        step_up_action: null,
      };
      await s.codes.insertWithGrant(grant, {
        code_digest: 'd-res',
        client_id: 'c-res',
        user_id: 'u-res',
        session_id: null,
        redirect_uri: null,
        scope: grant.scope,
        nonce: null,
        code_challenge: null,
        auth_time: now,
        amr: '["pwd"]',
        grant_id: 'g-res',
        expires_at: now + 60_000,
        consumed_at: null,
        created_at: now,
        resource: grant.resource,
        step_up_action: null,
      });
      const consumed = await s.codes.consume('d-res', now);
      assert.equal(consumed.state === 'ok' && consumed.row.resource, 'https://api.example/two');
      await s.tokens.insertRefreshToken({
        digest: 'rt-res',
        grant_id: 'g-res',
        client_id: 'c-res',
        user_id: 'u-res',
        scope: grant.scope,
        created_at: now,
        consumed_at: null,
      });
      assert.equal((await s.tokens.findRefreshTokenWithGrant('rt-res'))?.grant_resource, 'https://api.example/two');
    });

    it('keeps signing keys by set and status', async () => {
      const k = (kid: string, set: string) => ({
        kid,
        key_set: set,
        alg: 'RS256',
        status: 'current' as const,
        public_jwk: '{}',
        private_sealed: 'x',
        cert_der: 'y',
        created_at: now,
        retired_at: null,
        revoked_at: null,
      });
      await s.keys.insert(k('k1', 'global'));
      assert.equal(await s.keys.retireCurrent('global', now), 1);
      await s.keys.insert(k('k2', 'global'));
      assert.deepEqual(
        (await s.keys.listLive()).map((r) => [r.kid, r.status]),
        [
          ['k1', 'previous'],
          ['k2', 'current'],
        ],
      );
      assert.equal(await s.keys.revoke('k1', now), true);
      assert.equal(await s.keys.revoke('k1', now), false);
      assert.deepEqual(
        (await s.keys.listLive()).map((r) => r.kid),
        ['k2'],
      );
    });

    it('keeps one current signing key per set and algorithm, and retires one family alone', async () => {
      const k = (kid: string, alg: string) => ({
        kid,
        key_set: 'client:families',
        alg,
        status: 'current' as const,
        public_jwk: '{}',
        private_sealed: 'x',
        cert_der: 'y',
        created_at: now,
        retired_at: null,
        revoked_at: null,
      });
      await s.keys.insert(k('rs', 'RS256'));
      await s.keys.insert(k('es', 'ES256'));
      await s.keys.insert(k('ed', 'EdDSA'));
      await assert.rejects(s.keys.insert(k('es-2', 'ES256')), (e) => isUniqueViolation(e), 'a second current EC key');
      assert.equal(await s.keys.retireCurrent('client:families', now, 'ES256'), 1);
      await s.keys.insert(k('es-2', 'ES256'));
      const live = await s.keys.listSet('client:families');
      assert.deepEqual(live.map((r) => [r.kid, r.status]).sort(), [
        ['ed', 'current'],
        ['es', 'previous'],
        ['es-2', 'current'],
        ['rs', 'current'],
      ]);
      assert.equal(
        await s.keys.retireCurrent('client:families', now),
        3,
        'without an algorithm: every current key of the set',
      );
    });
  });
}

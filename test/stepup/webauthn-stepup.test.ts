// Issue 38, item 3: a registered security key or passkey answers the step-up of /identity/v1/mfa/stepup
// through the JSON API (options, then the assertion at /mfa/stepup/verify): the factor is listed in
// `factors` (amr keeps email/sms), user verification is discouraged, only the user's keys are allowed,
// the amr says hwk and mfa. Refused: a replayed assertion, a key of another user, an assertion of the
// challenge of another step-up. Software authenticator, real HTTP, SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, bearer, plainToken, stepUpOf, type User } from './support.js';

const ORIGIN = 'https://app.example';

for (const engine of engines()) {
  describe(`step-up answered by a security key, JSON API (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...OPEN, passkeys: { enabled: true, rp_id: 'app.example', origins: [ORIGIN] } },
      });
    });
    after(() => m.close());

    /** A user with a password, a security key (no user verification) and an email factor. */
    async function keyUser(): Promise<{ user: User; key: SoftAuthenticator }> {
      const { user, access } = await plainToken(m);
      const key = new SoftAuthenticator({ userVerified: false });
      const o = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration-options',
        { origin: ORIGIN, friendly_name: 'Key' },
        bearer(access),
      );
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const r = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration',
        key.create(o.body.options.public_key, ORIGIN),
        bearer(access),
      );
      assert.equal(r.status, 204, JSON.stringify(r.body));
      await giveFactors(m.ward, user.id, { email: user.email });
      return { user, key };
    }

    const options = (stepUp: string, origin = ORIGIN) =>
      postJson(m.ward, '/identity/v1/mfa/stepup/webauthn-options', { step_up: stepUp, origin });
    const answer = (stepUp: string, credential: unknown) =>
      postJson(m.ward, '/identity/v1/mfa/stepup/verify', { step_up: stepUp, auth_type: 'webauthn', credential });

    it('lists webauthn in factors, answers with the key (amr hwk, mfa), records it as the last factor', async () => {
      const { user, key } = await keyUser();
      const step = await stepUpOf(m, user);
      assert.deepEqual(step.amr, ['email'], 'amr keeps email/sms only');
      const { token } = step;
      const o = await options(token);
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const pk = o.body.public_key;
      assert.equal(pk.user_verification, 'discouraged');
      assert.deepEqual(
        pk.allow_credentials.map((c: { id: string }) => c.id),
        key.credentials.map((c) => c.id.toString('base64url')),
      );
      const v = await answer(token, key.get(pk, ORIGIN));
      assert.equal(v.status, 200, JSON.stringify(v.body));
      const { res, body } = await redeem(m.ward, v.body.code, step.verifier);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);
      assert.equal(await m.ward.registry.storage.lastFactors.find(user.id), 'webauthn');
      await m.ward.registry.events.flush(true);
      const events = await m.ward.registry.db.db
        .selectFrom('audit_events')
        .select(['details'])
        .where('action', '=', 'mfa.stepup_verified')
        .where('actor_id', '=', user.id)
        .execute();
      assert.ok(
        events.some((e) => e.details.includes('webauthn')),
        events.map((e) => e.details).join('\n'),
      );
    });

    it('the factors of /mfa/stepup list webauthn first for a user with a key, and not without', async () => {
      const { user } = await keyUser();
      const login = await postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid',
        email: user.email,
        password: user.password,
      });
      const s = await postJson(m.ward, '/identity/v1/mfa/stepup', {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        tkn: login.body.tkn,
      });
      assert.equal(s.status, 200, JSON.stringify(s.body));
      assert.deepEqual(s.body.factors, ['webauthn', 'email']);
      assert.deepEqual(s.body.amr, ['email']);

      const { user: plain } = await plainToken(m);
      await giveFactors(m.ward, plain.id, { email: plain.email });
      const other = await stepUpOf(m, plain);
      const none = await options(other.token);
      assert.equal(none.status, 400, JSON.stringify(none.body));
      assert.equal(none.body.error_message_key, 'error.mfa.noCredential');
    });

    it('refuses a replayed assertion, a key of another user and the challenge of another step-up', async () => {
      const { user, key } = await keyUser();
      const { key: otherKey } = await keyUser();

      // Replay: an assertion that answered one step-up answers no other.
      const first = await stepUpOf(m, user);
      const pk1 = (await options(first.token)).body.public_key;
      const used = key.get(pk1, ORIGIN);
      assert.equal((await answer(first.token, used)).status, 200);
      const second = await stepUpOf(m, user);
      const replay = await answer(second.token, used);
      assert.equal(replay.status, 400, JSON.stringify(replay.body));
      assert.equal(replay.body.error_message_key, 'error.webauthn.invalidChallenge');
      // Nor the same step-up twice (it is used up).
      assert.equal((await answer(first.token, used)).status, 400);

      // Another user's key signing this user's challenge.
      const pk2 = (await options(second.token)).body.public_key;
      const foreign = otherKey.get({ ...pk2, allow_credentials: [] }, ORIGIN);
      const refused = await answer(second.token, foreign);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error_message_key, 'error.webauthn.verificationFailed');

      // The challenge of another step-up of the same user.
      const third = await stepUpOf(m, user);
      const pk3 = (await options(third.token)).body.public_key;
      const fourth = await stepUpOf(m, user);
      const crossed = await answer(fourth.token, key.get(pk3, ORIGIN));
      assert.equal(crossed.status, 400, JSON.stringify(crossed.body));
      assert.equal(crossed.body.error_message_key, 'error.webauthn.invalidChallenge');

      // The step-ups refused stay answerable with their own challenge.
      const pk4 = (await options(fourth.token)).body.public_key;
      const ok = await answer(fourth.token, key.get(pk4, ORIGIN));
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(decodeJwt((await redeem(m.ward, ok.body.code, fourth.verifier)).body.id_token!).amr, [
        'pwd',
        'mfa',
        'hwk',
      ]);
    });

    it('refuses bad input with a clear 400 and a wrong origin', async () => {
      const { user } = await keyUser();
      const step = await stepUpOf(m, user);
      const badOrigin = await options(step.token, 'https://evil.example');
      assert.equal(badOrigin.status, 400, JSON.stringify(badOrigin.body));
      assert.ok(badOrigin.body.error_message_key);
      const noCredential = await answer(step.token, 'nope');
      assert.equal(noCredential.status, 400, JSON.stringify(noCredential.body));
      assert.ok(noCredential.body.error_message_key);
      const unknown = await options('not-a-step-up');
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error_message_key, 'error.mfa.invalidStepUp');
    });
  });
}

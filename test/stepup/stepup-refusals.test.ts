// Which refusal answers when several apply to one step-up request: a gone or disabled user is
// refused (plain invalid_token) before a token of another client, credentials naming different users
// or a bad `action`, and before "no factor"; a code request checks the token, the user, the factor,
// then whether codes are enabled, and counts nothing it refuses. The amr of /mfa/stepup lists the
// factor types in the order the user got them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/lib/secrets.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, pkcePair, signup } from '../helpers/oauth.js';
import { OPEN, bearer, mfaUser, plainToken, start, stepUpBody, stepUpOf } from './support.js';

const PLAIN = 'The access token is missing, invalid, expired or revoked';

describe('step-up: the order of refusals', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT, { ...PUBLIC_CLIENT, client_id: 'spa2', name: 'Other SPA' }],
      account: { ...OPEN },
    });
  });
  after(() => m.close());

  const stepUp = (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
    postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody(pkcePair().challenge, extra), headers);
  const disable = (id: string) => m.ward.registry.storage.users.setDisabled(id, true, m.ward.clock.now());
  const tknOf = async (user: { email: string; password: string }) => {
    const l = await postJson(m.ward, '/identity/v1/password/login', {
      client_id: 'spa',
      scope: 'openid email',
      email: user.email,
      password: user.password,
    });
    assert.equal(l.status, 200, JSON.stringify(l.body));
    return l.body.tkn as string;
  };
  const assertRefused = (res: { status: number; body: Record<string, any> }, description: string, what: string) => {
    assert.equal(res.status, 401, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error, 'invalid_token', what);
    assert.equal(res.body.error_description, description, what);
  };

  it('refuses a disabled user before anything else, and answers the other refusals for an enabled one', async () => {
    const on = await plainToken(m);
    await giveFactors(m.ward, on.user.id, { email: on.user.email });
    const off = await plainToken(m);
    await giveFactors(m.ward, off.user.id, { email: off.user.email });
    await disable(off.user.id);
    const other = await mfaUser(m);

    assertRefused(await stepUp({}, bearer(off.access)), PLAIN, 'disabled, Bearer');
    assertRefused(await stepUp({ client_id: 'spa2' }, bearer(off.access)), PLAIN, 'disabled, Bearer of another client');
    assertRefused(
      await stepUp({ client_id: 'spa2' }, bearer(on.access)),
      'The access token was issued to another client',
      'Bearer of another client',
    );
    assertRefused(
      await stepUp({ tkn: await tknOf(other) }, bearer(off.access)),
      PLAIN,
      "disabled Bearer with another user's tkn",
    );
    assertRefused(
      await stepUp({ tkn: await tknOf(other) }, bearer(on.access)),
      'The credentials sent name different users',
      'different users',
    );
    assertRefused(await stepUp({ action: 'x'.repeat(101) }, bearer(off.access)), PLAIN, 'disabled, action too long');
    const long = await stepUp({ action: 'x'.repeat(101) }, bearer(on.access));
    assert.equal(long.status, 400, JSON.stringify(long.body));
    assert.equal(long.body.error, 'invalid_request');

    const offTkn = await mfaUser(m);
    const tkn = await tknOf(offTkn);
    await disable(offTkn.id);
    assertRefused(await stepUp({ tkn }), PLAIN, 'disabled, tkn');
    // The refused step-up did not use the tkn up: it is still refused for the user, not as used.
    assertRefused(await stepUp({ tkn }), PLAIN, 'disabled, same tkn');

    const bare = await plainToken(m);
    const none = await stepUp({}, bearer(bare.access));
    assert.equal(none.status, 400);
    assert.equal(none.body.error_message_key, 'error.mfa.noCredential');
    await disable(bare.user.id);
    assertRefused(await stepUp({}, bearer(bare.access)), PLAIN, 'disabled and without factors');
    assert.equal((await stepUp({}, bearer(on.access))).status, 200);
  });

  it('answers the factor types in the order the user got them (pending factors do not count)', async () => {
    const user = await signup(m.ward);
    const now = m.ward.clock.now();
    const add = (type: 'email' | 'sms', destination: string, at: number, verified = true) =>
      m.ward.registry.storage.mfaCredentials.insert({
        id: `${user.id}-${type}-${at}`,
        user_id: user.id,
        type,
        destination,
        friendly_name: null,
        verified_at: verified ? at : null,
        created_at: at,
      });
    await add('email', 'pending@example.com', now - 3000, false);
    await add('sms', '+33611111111', now - 2000);
    await add('email', user.email, now - 1000);
    assert.deepEqual((await stepUpOf(m, user)).amr, ['sms', 'email']);
  });

  it('refuses a code request as the checks rank, with codes disabled too, and counts nothing it refuses', async () => {
    const user = await mfaUser(m);
    const s = await stepUpOf(m, user);
    const requests = async () =>
      (
        await m.ward.registry.db.db
          .selectFrom('step_ups')
          .select('requests')
          .where('digest', '=', sha256(s.token))
          .executeTakeFirstOrThrow()
      ).requests;
    const noSms = await start(m, s.token, 'sms');
    assert.equal(noSms.status, 400);
    assert.equal(noSms.body.error_message_key, 'error.mfa.noCredential');
    assert.equal(Number(await requests()), 0, 'a request for a factor the user lacks is not counted');

    m.ward.setAccount({ verification_requests_per_step_up: 0 });
    try {
      const unknown = await start(m, 'y'.repeat(43));
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error_message_key, 'error.mfa.invalidStepUp');
      assert.equal((await start(m, s.token, 'sms')).body.error_message_key, 'error.mfa.noCredential');
      const disabled = await start(m, s.token, 'email');
      assert.equal(disabled.status, 403);
      assert.equal(disabled.body.error_message_key, 'error.mfa.codesDisabled');
    } finally {
      m.ward.setAccount({ verification_requests_per_step_up: 5 });
    }
    assert.equal(Number(await requests()), 0);
    assert.equal((await start(m, s.token, 'email')).status, 200);
    assert.equal(Number(await requests()), 1);

    await disable(user.id);
    const gone = await start(m, s.token, 'sms');
    assert.equal(gone.status, 400);
    assert.equal(
      gone.body.error_message_key,
      'error.mfa.invalidStepUp',
      'a disabled user is answered as an unknown token, before the factor',
    );
    assert.equal(Number(await requests()), 1);
  });
});

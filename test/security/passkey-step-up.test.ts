// Issue 33, item 3: the step-up is not bypassed through passkeys. A passkey signs in (with `mfa` when
// it verified the user), so adding or removing one is a factor change: with a verified factor, a
// password-only access token adds none and removes none (MF-01), a fresh step-up does, a stale one
// (5 minutes) does not; every change revokes the trusted devices and tells the user (MF-03). Without a
// factor, a plain token adds and removes passkeys as before. Passkeys from a software authenticator,
// real HTTP, SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, bearer, del, getJson, plainToken, steppedUpToken } from '../stepup/support.js';

const W = '/identity/v1/webauthn';
const ORIGIN = 'https://app.example';

function assertStepUpRequired(r: { status: number; body: Record<string, any> }, what: string): void {
  assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error_message_key, 'error.mfa.stepUpRequired', what);
}

for (const engine of engines()) {
  describe(`issue 33 item 3: step-up before a passkey changes (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...OPEN, passkeys: { enabled: true, rp_id: 'app.example', origins: [ORIGIN] } },
      });
    });
    after(() => m.close());

    const options = (access: string) =>
      postJson(m.ward, `${W}/registration-options`, { origin: ORIGIN, friendly_name: 'Laptop' }, bearer(access));
    const register = (access: string, attestation: Record<string, any>) =>
      postJson(m.ward, `${W}/registration`, attestation, bearer(access));
    const devices = async (access: string) => {
      const r = await getJson(m, `${W}/registration`, bearer(access));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as unknown as Array<{ id: string }>;
    };
    const trusted = async (userId: string) =>
      m.ward.registry.storage.trustedDevices.listOfUser(userId, m.ward.clock.now());

    /** Options with `access`, the software authenticator's attestation, registered with `access`. */
    async function addPasskey(authenticator: SoftAuthenticator, access: string) {
      const o = await options(access);
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const r = await register(access, authenticator.create(o.body.options.public_key, ORIGIN));
      assert.equal(r.status, 204, JSON.stringify(r.body));
    }

    it('MF-01: with a verified factor, a password-only token neither adds nor removes a passkey', async () => {
      const { user, access } = await plainToken(m);
      await giveFactors(m.ward, user.id, { email: user.email });
      const authenticator = new SoftAuthenticator();

      assertStepUpRequired(await options(access), 'registration-options with amr pwd');

      // Options got with a fresh step-up, the registration sent with the password-only token: refused.
      const stepped = await steppedUpToken(m, user, access);
      const o = await options(stepped.access);
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const attestation = authenticator.create(o.body.options.public_key, ORIGIN);
      assertStepUpRequired(await register(access, attestation), 'registration with amr pwd');
      assert.deepEqual(await devices(access), []);

      // The fresh step-up adds it; the password-only token cannot remove it.
      assert.equal((await register(stepped.access, attestation)).status, 204);
      const [key] = await devices(access);
      assert.ok(key);
      assertStepUpRequired(await del(m, `${W}/registration/${key.id}`, bearer(access)), 'removal with amr pwd');
      assert.equal((await devices(access)).length, 1);

      // Five minutes later the step-up is stale: no more changes with it.
      m.ward.clock.advance(5 * 60_000 + 1000);
      assertStepUpRequired(await options(stepped.access), 'registration-options with a stale step-up');
      assertStepUpRequired(
        await del(m, `${W}/registration/${key.id}`, bearer(stepped.access)),
        'removal with a stale step-up',
      );
      assert.equal((await devices(access)).length, 1);
      assert.equal((await m.ward.registry.storage.passkeys.listOfUser(user.id)).length, 1);
    });

    it('MF-03: adding and removing a passkey revoke the trusted devices and tell the user', async () => {
      const { user, access } = await plainToken(m);
      await giveFactors(m.ward, user.id, { email: user.email });
      const authenticator = new SoftAuthenticator();

      const first = await steppedUpToken(m, user, access, { trustDevice: true });
      assert.equal((await trusted(user.id)).length, 1);
      await addPasskey(authenticator, first.access);
      assert.deepEqual(await trusted(user.id), [], 'adding revoked the trusted device');
      const added = await m.smtp.next(user.email);
      assert.match(added.subject, /passkey was added/i);

      const second = await steppedUpToken(m, user, access, { trustDevice: true });
      assert.equal((await trusted(user.id)).length, 1);
      const [key] = await devices(access);
      assert.equal((await del(m, `${W}/registration/${key!.id}`, bearer(second.access))).status, 204);
      assert.deepEqual(await trusted(user.id), [], 'removing revoked the trusted device');
      const removed = await m.smtp.next(user.email);
      assert.match(removed.subject, /passkey was removed/i);
      assert.doesNotMatch(removed.text, /Laptop/, 'the passkey is not named (its name is the caller’s words)');
    });

    it('without a verified factor, a password-only token adds, uses and removes a passkey as before', async () => {
      const { user, access } = await plainToken(m);
      const authenticator = new SoftAuthenticator();
      await addPasskey(authenticator, access);
      assert.match((await m.smtp.next(user.email)).subject, /passkey was added/i);

      // The passkey signs in (webauthn, mfa: the authenticator verified the user).
      const a = await postJson(m.ward, `${W}/authentication-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin: ORIGIN,
        scope: 'openid',
        email: user.email,
      });
      assert.equal(a.status, 200, JSON.stringify(a.body));
      const signedIn = await postJson(m.ward, `${W}/authentication`, authenticator.get(a.body.public_key, ORIGIN));
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.ok(signedIn.body.tkn);

      const [key] = await devices(access);
      assert.equal((await del(m, `${W}/registration/${key!.id}`, bearer(access))).status, 204);
      assert.deepEqual(await devices(access), []);
      assert.match((await m.smtp.next(user.email)).subject, /passkey was removed/i);
    });
  });
}

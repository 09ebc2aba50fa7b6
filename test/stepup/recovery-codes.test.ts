// Recovery codes, on both engines: ten single-use codes shown once when the first authenticator app is
// enrolled, each good for one second factor (as typed: case and dash ignored), stored hashed, counted,
// the user told by email at each use; a new set (behind a fresh step-up) voids the old one; audited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { OPEN, assertWrongCode, bearer, getJson, plainToken } from './support.js';
import { enrolTotp, signInWith, totpStepUp, verifyFactor } from './totp-support.js';

for (const engine of engines()) {
  describe(`recovery codes (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    });
    after(() => m.close());

    const remaining = async (access: string) => {
      const r = await getJson(m, '/identity/v1/mfa/recovery-codes', bearer(access));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.remaining as number;
    };

    /** The next message to `to` whose subject matches (earlier ones, such as the enrolment's notice, skipped). */
    async function mailAbout(to: string, subject: RegExp) {
      for (let i = 0; i < 5; i++) {
        const msg = await m.smtp.next(to);
        if (subject.test(msg.subject)) return msg;
      }
      throw new Error(`no message about ${subject}`);
    }

    it('each code answers one second factor, the user is told, and the count goes down', async () => {
      const { user, access } = await plainToken(m);
      const { recoveryCodes: codes } = await enrolTotp(m, access);
      assert.equal(codes.length, 10);
      const stored = await m.ward.registry.db.db
        .selectFrom('mfa_recovery_codes')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      assert.equal(stored.length, 10);
      for (const c of codes)
        assert.ok(stored.every((r) => !r.code_hash.includes(c) && !r.code_hash.includes(c.replace('-', ''))));

      const first = await signInWith(m, user, 'recovery_code', codes[0]!);
      assert.deepEqual(first.amr, ['pwd', 'mfa']);
      const notice = await mailAbout(user.email, /recovery code/i);
      assert.match(notice.text, /recovery code was used/);
      assert.match(notice.text, /9 of your recovery codes are left/);
      assert.equal(await remaining(first.access), 9);

      // Used once: the same code again is refused.
      const again = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, again.token, 'recovery_code', codes[0]!), 'a used code');
      // Typed in capitals, without its dash, with spaces: still the code.
      await signInWith(m, user, 'recovery_code', ` ${codes[1]!.replace('-', '').toUpperCase()} `);
      assert.equal(await remaining(first.access), 8);
      // Not a code: refused, nothing used.
      const other = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, other.token, 'recovery_code', 'zzzzz-zzzzz'));
      assert.equal(await remaining(first.access), 8);
    });

    it('a new set needs a fresh step-up and voids the old one', async () => {
      const { user, access } = await plainToken(m);
      const { recoveryCodes: old } = await enrolTotp(m, access);
      const plain = await postJson(m.ward, '/identity/v1/mfa/recovery-codes', {}, bearer(access));
      assert.equal(plain.status, 403, JSON.stringify(plain.body));
      assert.equal(plain.body.error_message_key, 'error.mfa.stepUpRequired');

      const fresh = await signInWith(m, user, 'recovery_code', old[0]!);
      const r = await postJson(m.ward, '/identity/v1/mfa/recovery-codes', {}, bearer(fresh.access));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const codes = r.body.recovery_codes as string[];
      assert.equal(codes.length, 10);
      assert.equal(codes.filter((c) => old.includes(c)).length, 0);
      assert.equal(await remaining(fresh.access), 10);
      const s = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, s.token, 'recovery_code', old[1]!), 'a code of the old set');
      await signInWith(m, user, 'recovery_code', codes[9]!);

      await m.ward.registry.events.flush(true);
      const actions = (
        await m.ward.registry.db.db
          .selectFrom('audit_events')
          .select('action')
          .where('actor_id', '=', user.id)
          .execute()
      ).map((e) => e.action);
      assert.equal(actions.filter((a) => a === 'mfa.recovery_codes_generated').length, 2, actions.join(', '));
      assert.equal(actions.filter((a) => a === 'mfa.recovery_code_used').length, 2, actions.join(', '));
    });

    it('a user without an authenticator app gets no recovery codes', async () => {
      const { access } = await plainToken(m);
      const r = await postJson(m.ward, '/identity/v1/mfa/recovery-codes', {}, bearer(access));
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error_message_key, 'error.mfa.noCredential');
    });
  });
}

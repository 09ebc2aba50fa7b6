// The Core SDK's remote settings (GET /identity/v1/config) say what the account really offers: the
// passwordless SMS and the MFA channels only when Ward can send on them (a transport, or development
// mode's outbox), the account's default language when the SDK names none, and no risk-based step.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

type Remote = Record<string, unknown>;

describe('the remote settings say what the account offers', () => {
  const wards: TestWard[] = [];
  after(async () => {
    for (const w of wards) await w.close();
  });
  const remote = async (w: TestWard, query = '') =>
    (await (await w.fetch(`/identity/v1/config?client_id=spa${query}`)).json()) as Remote;

  it('without transports in production mode, no channel is announced', async () => {
    const w = await startWard({
      clients: [PUBLIC_CLIENT],
      account: { passwordless: { sms: true }, default_language: 'de' },
    });
    wards.push(w);
    const r = await remote(w);
    assert.deepEqual(
      { sms: r.sms, mfaSms: r.mfa_sms_enabled, mfaEmail: r.mfa_email_enabled, rba: r.rba_enabled, lang: r.language },
      { sms: false, mfaSms: false, mfaEmail: false, rba: false, lang: 'de' },
    );
    assert.equal((await remote(w, '&lang=fr')).language, 'fr', 'the language the SDK asks for');
  });

  it('in development mode (the outbox), every channel is; SMS passwordless only when the account allows it', async () => {
    const w = await startWard({ clients: [PUBLIC_CLIENT], delivery: { mode: 'development' } });
    wards.push(w);
    let r = await remote(w);
    assert.deepEqual(
      { sms: r.sms, mfaSms: r.mfa_sms_enabled, mfaEmail: r.mfa_email_enabled },
      { sms: false, mfaSms: true, mfaEmail: true },
    );
    w.setAccount({ passwordless: { sms: true } });
    r = await remote(w);
    assert.equal(r.sms, true);
  });
});

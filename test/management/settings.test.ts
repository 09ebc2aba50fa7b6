// Account settings through the management API: read, change at run time (the change applies at
// once), refuse bad values without changing anything; a new process reads the stored settings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, codeFor, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('management API: account settings', () => {
  let ward: TestWard;
  let a: ReturnType<typeof api>;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT] });
    a = api(ward, (await consoleToken(ward, 'manager')).token);
  });
  after(() => ward.close());

  it('changes token lifetimes at run time', async () => {
    const before = await a.get('/api/v1/settings/account');
    assert.equal(before.body.access_token_ttl, 3600);
    const changed = await a.patch('/api/v1/settings/account', { access_token_ttl: 900, mfa_required: 'Always' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.mfa_required, 'always');
    const { code, verifier } = await codeFor(ward);
    const { body } = await redeem(ward, code, verifier);
    assert.equal(body.expires_in, 900 as unknown as string);
    assert.deepEqual(
      await ward.registry.storage.settings
        .get('account')
        .then((s) => (s as { access_token_ttl: number }).access_token_ttl),
      900,
    );
  });

  it('refuses bad values and changes nothing', async () => {
    for (const body of [
      { access_token_ttl: 0 },
      { access_token_ttl: '900' },
      { mfa_required: 'sometimes' },
      { authorization_code_ttl: 3600 },
      { unknown: 1 },
      {},
      { rate_limits: { login: { limit: -1 } } },
    ]) {
      const r = await a.patch('/api/v1/settings/account', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.error_message_key);
    }
    assert.equal((await a.get('/api/v1/settings/account')).body.access_token_ttl, 900);
  });
});

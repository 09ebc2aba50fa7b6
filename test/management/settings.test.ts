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

  it('turns passkeys on with a relying-party ID and origins; /identity/v1/config says web_authn', async () => {
    const config = () =>
      ward
        .fetch(`/identity/v1/config?client_id=${PUBLIC_CLIENT.client_id}`)
        .then((r) => r.json() as Promise<{ web_authn: boolean }>);
    assert.equal((await config()).web_authn, false);
    const passkeys = {
      enabled: true,
      rp_id: 'example.com',
      origins: ['https://example.com', 'https://app.example.com'],
    };
    const r = await a.patch('/api/v1/settings/account', { passkeys });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.passkeys, {
      ...passkeys,
      rp_name: 'Ward',
      user_verification_is_mfa: true,
      challenge_ttl: 300,
    });
    assert.equal((await config()).web_authn, true);
    await a.patch('/api/v1/settings/account', { passkeys: { enabled: false } });
    assert.equal((await config()).web_authn, false);
  });

  it('refuses passkey settings whose origins are not on the relying-party ID, or a bad rp_id', async () => {
    for (const passkeys of [
      { rp_id: 'example.com', origins: ['https://example.org'] },
      { rp_id: 'example.com', origins: ['https://notexample.com'] },
      { rp_id: 'https://example.com' },
      { rp_id: '127.0.0.1' },
      { origins: ['https://example.com/path'] },
      { origins: ['http://example.com'] },
      { enabled: 'yes' },
      { challenge_ttl: 5 },
      { unknown: true },
    ]) {
      const r = await a.patch('/api/v1/settings/account', { passkeys });
      assert.equal(r.status, 400, JSON.stringify(passkeys));
      assert.ok(r.body.error_message_key);
    }
    assert.equal((await a.get('/api/v1/settings/account')).body.passkeys.rp_id, 'example.com');
  });
});

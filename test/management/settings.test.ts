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
      { password_min_strength: 5 },
      { password_min_strength: -1 },
      { password_refuse_common: 'yes' },
      { password_refuse_user_info: 1 },
      { password_breach_check_url: 'ftp://pwned.example/range/' },
      { password_breach_check_url: 'http://pwned.example/range/' },
      { password_breach_check_url: 'https://pwned.example/range/?x=1' },
      { password_breach_check_url: 'not a url' },
      { password_breach_check_timeout_ms: 50 },
    ]) {
      const r = await a.patch('/api/v1/settings/account', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.error_message_key);
    }
    assert.equal((await a.get('/api/v1/settings/account')).body.access_token_ttl, 900);
  });

  it('changes the password policy: signup and /identity/v1/config follow at once; a Viewer may only read it', async () => {
    const signup = (password: string) =>
      ward.fetch('/identity/v1/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: 'spa',
          data: { email: `pp-${password.length}-${Date.now()}@example.com`, password },
        }),
      });
    assert.equal((await signup('password')).status, 400, 'the defaults refuse "password"');
    const viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
    const read = await viewer.get('/api/v1/settings/account');
    assert.equal(read.status, 200);
    assert.equal(read.body.password_min_strength, 2);
    const refused = await viewer.patch('/api/v1/settings/account', { password_min_strength: 0 });
    assert.equal(refused.status, 403);
    assert.equal(ward.registry.account().password_min_strength, 2);

    const changed = await a.patch('/api/v1/settings/account', {
      password_min_length: 8,
      password_min_strength: 0,
      password_refuse_common: false,
      password_refuse_user_info: false,
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.password_min_strength, 0);
    assert.equal(changed.body.password_refuse_common, false);
    const stored = (await ward.registry.storage.settings.get('account')) as Record<string, unknown>;
    assert.equal(stored.password_refuse_common, false);
    const config = await (await ward.fetch('/identity/v1/config?client_id=spa')).json();
    assert.deepEqual((config as { password_policy: unknown }).password_policy, {
      min_length: 8,
      min_strength: 0,
      refuse_user_info: false,
      refuse_common: false,
      breach_check: false,
      allow_update_with_access_token_only: false,
    });
    // The complaint, on purpose: with every rule off, "password" is accepted again.
    assert.equal((await signup('password')).status, 200);
    assert.equal(
      (await a.patch('/api/v1/settings/account', { password_min_strength: 3, password_refuse_common: true })).status,
      200,
    );
    assert.equal((await signup('password')).status, 400);

    const url = 'https://api.pwnedpasswords.com/range/';
    const breach = await a.patch('/api/v1/settings/account', { password_breach_check_url: url });
    assert.equal(breach.status, 200);
    assert.equal(breach.body.password_breach_check_url, url);
    assert.equal(breach.body.password_breach_check_timeout_ms, 2000);
    const off = await a.patch('/api/v1/settings/account', { password_breach_check_url: null });
    assert.equal(off.body.password_breach_check_url, null);
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
      recovery_replaces: true,
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

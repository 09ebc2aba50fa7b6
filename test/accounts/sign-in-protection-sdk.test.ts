// What the unmodified Core SDK (@reachfive/identity-core) surfaces of per-account protection: its
// loginWithPassword rejects with the catalog body, camel-cased by the SDK (error, errorDescription,
// errorUserMsg, errorMessageKey), first the wrong password, then the wait, then the lockout; the
// right password then works once the lockout is over (Ward's clock moved on).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';

describe('per-account protection through the Core SDK', () => {
  let ward: TestWard;
  let page: SdkPage;
  let sdk: typeof import('@reachfive/identity-core');
  before(async () => {
    ward = await startWard({
      clients: [
        {
          client_id: 'spa',
          name: 'Shop',
          type: 'public',
          jwt_algorithm: 'RS256',
          allowed_callback_urls: [CALLBACK],
          allowed_origins: [ORIGIN],
        },
      ],
      account: { sign_in_delay_after: 2, sign_in_lock_after: 3, sign_in_lock_seconds: 600 },
    });
    page = installBrowserShims(ward, ORIGIN);
    sdk = await import('@reachfive/identity-core');
  });
  after(() => ward.close());

  it('rejects with error.signIn.delayed, then error.account.locked, then lets the right password in', async () => {
    const user = await signup(ward);
    const client = sdk.createClient({ domain: new URL(ward.url).host, clientId: 'spa' });
    const attempt = (password: string) =>
      client.loginWithPassword({ email: user.email, password, auth: { redirectUri: CALLBACK } }).then(
        () => 'ok',
        (e: { error?: string; errorMessageKey?: string; errorUserMsg?: string }) => {
          assert.ok(e.errorUserMsg, 'a message to show');
          return `${e.error} ${e.errorMessageKey}`;
        },
      );
    assert.equal(await attempt('wrong 1'), 'invalid_grant error.invalidEmailOrPassword');
    assert.equal(await attempt('wrong 2'), 'invalid_grant error.invalidEmailOrPassword');
    assert.equal(await attempt(user.password), 'rate_limit_reached error.signIn.delayed');
    ward.clock.advance(2000);
    assert.equal(await attempt('wrong 3'), 'invalid_grant error.invalidEmailOrPassword');
    assert.equal(await attempt(user.password), 'rate_limit_reached error.account.locked');
    ward.clock.advance(600_000);
    const nav = page.nextNavigation();
    assert.equal(await attempt(user.password), 'ok');
    assert.ok((await nav).startsWith(`${ward.url}/oauth/authorize?`));
  });
});

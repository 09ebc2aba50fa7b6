// The Device Authorization Grant (RFC 8628) over real HTTP: openid-client's device flow end to end
// (the user part posted with the hosted forms: the code prefilled, the password sign-in, the
// approval), the polling answers (authorization_pending, slow_down, expired_token, access_denied),
// guessed user codes refused and rate limited, a device code used twice, and a client the grant is
// not allowed to.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TV = {
  client_id: 'tv',
  name: 'Living-room TV',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://tv.example/cb'],
  grant_types: [DEVICE_GRANT, 'refresh_token'],
};

interface DeviceAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

for (const engine of engines()) {
  describe(`Device Authorization Grant (RFC 8628) (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, TV],
        account: { rate_limits: { device: { limit: 6 } } },
      });
    });
    after(() => ward.close());

    const form = (path: string, params: Record<string, string>) =>
      ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });

    async function authorizeDevice(scope = 'openid profile', clientId = 'tv'): Promise<DeviceAnswer> {
      const res = await form('/oauth/device_authorization', { client_id: clientId, scope });
      assert.equal(res.status, 200, await res.clone().text());
      return (await res.json()) as DeviceAnswer;
    }

    const poll = async (deviceCode: string, clientId = 'tv') => {
      const res = await form('/oauth/token', {
        grant_type: DEVICE_GRANT,
        device_code: deviceCode,
        client_id: clientId,
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };

    /** The user's part: the code typed on /device, the password sign-in, then Allow or Deny. */
    async function userAnswers(
      userCode: string,
      decision: 'allow' | 'deny',
      user?: { email: string; password: string },
    ) {
      const who = user ?? (await signup(ward));
      const browser = new Browser(ward);
      const page = await browser.get(`/device?user_code=${encodeURIComponent(userCode)}`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(
        html,
        new RegExp(`name="user_code"[^>]*value="${userCode}"`),
        'verification_uri_complete prefills it',
      );
      // Typed in lower case without the dash: the code is normalised.
      const typed = userCode.replace('-', '').toLowerCase();
      const entered = await browser.postForm('/device', { csrf: field(html, 'csrf'), user_code: typed });
      assert.equal(entered.status, 303);
      const login = await browser.get(entered.headers.get('location')!);
      assert.equal(login.status, 200);
      const approval = await submitLoginPage(browser, await login.text(), who.email, who.password);
      assert.equal(approval.status, 200);
      const approvalHtml = await approval.text();
      assert.match(approvalHtml, /Connect Living-room TV on your device\?/);
      assert.match(approvalHtml, /<li data-scope="openid">Know who you are/, 'the scopes in plain words');
      const done = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(approvalHtml, 'interaction'),
        csrf: field(approvalHtml, 'csrf'),
        decision,
      });
      assert.equal(done.status, 200);
      return { who, html: await done.text() };
    }

    it('runs the device flow with openid-client: discovery, the hosted pages, polling, tokens', async () => {
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'tv', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const meta = config.serverMetadata();
      assert.equal(meta.device_authorization_endpoint, `${ward.url}/oauth/device_authorization`);
      assert.ok(meta.grant_types_supported?.includes(DEVICE_GRANT));
      const rfc8414 = (await (await ward.fetch('/.well-known/oauth-authorization-server')).json()) as Record<
        string,
        unknown
      >;
      assert.equal(rfc8414.device_authorization_endpoint, meta.device_authorization_endpoint);
      const started = await client.initiateDeviceAuthorization(config, {
        scope: 'openid profile email offline_access',
      });
      assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      assert.equal(started.verification_uri, `${ward.url}/device`);
      assert.equal(started.expires_in, 600);
      assert.equal(started.interval, 5);
      const { who, html } = await userAnswers(started.user_code, 'allow');
      assert.match(html, /data-device="approved"/);
      const tokens = await client.pollDeviceAuthorizationGrant(config, started);
      const sub = tokens.claims()!.sub;
      const signedUp = await ward.registry.storage.users.findByEmail(who.email);
      assert.equal(sub, signedUp!.id);
      assert.ok(tokens.refresh_token, 'offline_access: a refresh token');
      assert.equal((await client.fetchUserInfo(config, tokens.access_token, sub)).email, who.email);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      assert.ok(refreshed.access_token);
      // Stored as digests only: neither code is in the database in clear.
      const rows = await ward.registry.storage.deviceAuthorizations.findByDeviceCode(
        (await import('../../src/lib/secrets.js')).sha256(started.device_code),
      );
      assert.equal(rows?.status, 'consumed');
      assert.notEqual(rows?.device_code_digest, started.device_code);
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'device.approved', limit: 10 });
      assert.ok(
        audit.some((e) => e.actor_id === sub && e.target === 'client:tv'),
        'the approval is audited',
      );
      assert.equal(
        (await ward.registry.storage.audit.list({ action: 'device.tokens_issued', limit: 10 })).length >= 1,
        true,
      );
    });

    it('answers authorization_pending, then slow_down when polled too fast (the interval grows by 5 s)', async () => {
      const d = await authorizeDevice();
      const first = await poll(d.device_code);
      assert.equal(first.status, 400);
      assert.equal(first.body.error, 'authorization_pending');
      assert.equal(first.body.error_message_key, 'error.device.authorizationPending');
      const fast = await poll(d.device_code);
      assert.equal(fast.body.error, 'slow_down');
      ward.clock.advance(6_000);
      assert.equal((await poll(d.device_code)).body.error, 'slow_down', 'the interval is 10 s now');
      ward.clock.advance(15_000);
      assert.equal((await poll(d.device_code)).body.error, 'authorization_pending');
    });

    it('answers access_denied when the user denies, and expired_token once the code has expired', async () => {
      const denied = await authorizeDevice();
      const { html } = await userAnswers(denied.user_code, 'deny');
      assert.match(html, /data-device="denied"/);
      assert.equal((await poll(denied.device_code)).body.error, 'access_denied');

      const late = await authorizeDevice();
      ward.clock.advance(601_000);
      const expired = await poll(late.device_code);
      assert.equal(expired.body.error, 'expired_token');
      assert.equal(expired.body.error_message_key, 'error.device.expiredToken');
      // A day later the janitor removes the request; its code is then unknown.
      ward.clock.advance(24 * 3600_000);
      await ward.registry.janitor.sweep();
      assert.equal((await poll(late.device_code)).body.error, 'invalid_grant');
    });

    it("denies the device with the login page's Cancel", async () => {
      const d = await authorizeDevice();
      const browser = new Browser(ward);
      const page = await (await browser.get(`/device?user_code=${d.user_code}`)).text();
      const entered = await browser.postForm('/device', { csrf: field(page, 'csrf'), user_code: d.user_code });
      const login = await (await browser.get(entered.headers.get('location')!)).text();
      assert.match(login, /Sign in to Living-room TV/);
      const cancelled = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(login, 'interaction'),
        csrf: field(login, 'csrf'),
        decision: 'deny',
      });
      assert.match(await cancelled.text(), /data-device="denied"/);
      assert.equal((await poll(d.device_code)).body.error, 'access_denied');
      // The code is used up: typed again, it is refused.
      const again = await browser.postForm('/device', { csrf: field(page, 'csrf'), user_code: d.user_code });
      assert.equal(again.status, 400);
    });

    it('refuses a device code used twice (invalid_grant) and revokes what the first use got', async () => {
      const d = await authorizeDevice('openid offline_access');
      await userAnswers(d.user_code, 'allow');
      const first = await poll(d.device_code);
      assert.equal(first.status, 200);
      assert.ok(first.body.access_token && first.body.id_token && first.body.refresh_token);
      const again = await poll(d.device_code);
      assert.equal(again.status, 400);
      assert.equal(again.body.error, 'invalid_grant');
      const refresh = await form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token!,
        client_id: 'tv',
      });
      assert.equal(refresh.status, 400, 'the family is revoked');
      assert.equal((await poll('not-a-device-code')).body.error, 'invalid_grant');
      assert.equal((await poll(d.device_code, 'spa')).body.error, 'unauthorized_client');
    });

    it('refuses a guessed user code on /device, audits it, and rate limits the guesses', async () => {
      const browser = new Browser(ward);
      const page = await browser.get('/device');
      const csrf = field(await page.text(), 'csrf');
      const wrong = await browser.postForm('/device', { csrf, user_code: 'BCDF-GHJK' });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /This code is not valid or has expired/);
      const malformed = await browser.postForm('/device', { csrf, user_code: 'AEIO-U123' });
      assert.equal(malformed.status, 400);
      const noCsrf = await browser.postForm('/device', { csrf: 'x', user_code: 'BCDF-GHJK' });
      assert.equal(noCsrf.status, 403, 'no CSRF token: the form is refused');
      let status = 0;
      for (let i = 0; i < 8 && status !== 429; i++)
        status = (await browser.postForm('/device', { csrf, user_code: 'BCDF-GHJK' })).status;
      assert.equal(status, 429, 'rate_limits.device per IP');
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'device.user_code_failed', limit: 50 });
      assert.ok(audit.length >= 2, 'each wrong code is audited');
    });

    it('refuses a client not allowed the device grant (unauthorized_client), and unknown scopes', async () => {
      const res = await form('/oauth/device_authorization', { client_id: 'spa', scope: 'openid' });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error: string }).error, 'unauthorized_client');
      const scope = await form('/oauth/device_authorization', { client_id: 'tv', scope: 'openid launch-missiles' });
      assert.equal(((await scope.json()) as { error: string }).error, 'invalid_scope');
      const unknown = await form('/oauth/device_authorization', { client_id: 'nobody' });
      assert.equal(unknown.status, 401);
    });
  });
}

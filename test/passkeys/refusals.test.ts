// Passkey refusals over HTTP, with credentials a real browser made (Chromium and a virtual
// authenticator): a replayed challenge, an expired one, a challenge of another ceremony or user, an
// origin that is not allowed, an assertion signed on another origin than the one the options were
// for, removing the last way to sign in, and passkeys turned off. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Browser } from '../helpers/browser.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, authorizeUrl, codeFor, location, pkcePair, redeem } from '../helpers/oauth.js';
import { addVirtualAuthenticator, browserAssertion, browserAttestation } from '../helpers/passkeys.js';
import { startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const W = '/identity/v1/webauthn';

for (const engine of engines()) {
  describe(`passkey refusals on ${engine}`, { timeout: 180_000 }, () => {
    let ward: TestWard;
    let app: SdkApp;
    let chromium: Chromium;
    let page: Page;
    const otherOrigin = 'https://other.ward.test';
    before(async () => {
      app = await startSdkApp({ host: 'app.ward.test' });
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { passkeys: { enabled: true, rp_id: 'ward.test', origins: [app.origin, otherOrigin] } },
      });
      app.wardUrl = ward.url.replace('localhost', 'id.ward.test');
      chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
      page = await chromium.context.newPage();
      await page.goto(app.origin);
      await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
    });
    after(async () => {
      await chromium?.close();
      await ward?.close();
      await app?.close();
    });

    const post = async (path: string, body: unknown, token?: string) => {
      const res = await ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
    };
    const scope = 'openid profile email';
    let n = 0;

    /** A passkey-only user made through signup-options and signup; answers the signup request too. */
    async function passkeyUser() {
      const email = `refusals-${++n}-${Date.now()}@example.com`;
      const options = await post(`${W}/signup-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin: app.origin,
        scope,
        friendly_name: 'Laptop',
        profile: { email },
      });
      assert.equal(options.status, 200, JSON.stringify(options.body));
      const publicKey = options.body.options.public_key;
      const body = { public_key_credential: await browserAttestation(page, publicKey), webauthn_id: publicKey.user.id };
      const res = await post(`${W}/signup`, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { email, body, tkn: res.body.tkn as string };
    }

    const assertionFor = async (email: string | undefined, origin = app.origin) => {
      const options = await post(`${W}/authentication-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin,
        scope,
        ...(email ? { email } : {}),
      });
      assert.equal(options.status, 200, JSON.stringify(options.body));
      return browserAssertion(page, options.body.public_key);
    };

    it('a signup challenge is used once', async () => {
      const { body } = await passkeyUser();
      const again = await post(`${W}/signup`, body);
      assert.equal(again.status, 400);
      assert.equal(again.body.error_message_key, 'error.webauthn.invalidChallenge');
    });

    it('a sign-in challenge is used once: a replayed assertion is refused', async () => {
      const { email } = await passkeyUser();
      const assertion = await assertionFor(email);
      const first = await post(`${W}/authentication`, assertion);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.ok(first.body.tkn);
      const replay = await post(`${W}/authentication`, assertion);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error_message_key, 'error.webauthn.invalidChallenge');
      assert.ok(
        ward.logs.some((l) => l.includes('"event":"login.failed"') && l.includes('"method":"passkey"')),
        'a failed passkey sign-in is a security event',
      );
    });

    it('an expired challenge is refused', async () => {
      const { email } = await passkeyUser();
      const assertion = await assertionFor(email);
      ward.clock.advance((ward.registry.account().passkeys.challenge_ttl + 1) * 1000);
      const late = await post(`${W}/authentication`, assertion);
      assert.equal(late.status, 400);
      assert.equal(late.body.error_message_key, 'error.webauthn.invalidChallenge');
    });

    it('an origin not allowed gets no options; an assertion signed on another origin than the options named is refused', async () => {
      const { email } = await passkeyUser();
      const evil = await post(`${W}/authentication-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin: 'https://evil.example',
        scope,
        email,
      });
      assert.equal(evil.status, 400);
      assert.equal(evil.body.error_message_key, 'error.webauthn.origin');
      // Options asked for another allowed origin, signed by the page on app.ward.test.
      const crossed = await post(`${W}/authentication`, await assertionFor(email, otherOrigin));
      assert.equal(crossed.status, 400);
      assert.equal(crossed.body.error_message_key, 'error.webauthn.verificationFailed');
    });

    it("the options for one user's email accept no other user's passkey", async () => {
      const a = await passkeyUser();
      const b = await passkeyUser();
      // Options for b, but the authenticator asked to use a's credential only: build them from a's.
      const forB = await post(`${W}/authentication-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin: app.origin,
        scope,
        email: b.email,
      });
      const forA = await post(`${W}/authentication-options`, {
        client_id: PUBLIC_CLIENT.client_id,
        origin: app.origin,
        scope,
        email: a.email,
      });
      const assertion = await browserAssertion(page, {
        ...forB.body.public_key,
        allow_credentials: forA.body.public_key.allow_credentials,
      });
      const res = await post(`${W}/authentication`, assertion);
      assert.equal(res.status, 400);
      assert.equal(res.body.error_message_key, 'error.webauthn.verificationFailed');
    });

    it('a signed-in registration needs a Bearer token, and takes no challenge minted for another user', async () => {
      const none = await post(`${W}/registration-options`, { origin: app.origin, friendly_name: 'x' });
      assert.equal(none.status, 401);
      const { code, verifier } = await codeFor(ward);
      const token = (await redeem(ward, code, verifier)).body.access_token as string;
      const other = await codeFor(ward);
      const otherToken = (await redeem(ward, other.code, other.verifier)).body.access_token as string;
      const options = await post(`${W}/registration-options`, { origin: app.origin, friendly_name: 'Key' }, otherToken);
      assert.equal(options.status, 200, JSON.stringify(options.body));
      const credential = await browserAttestation(page, options.body.options.public_key);
      const res = await post(`${W}/registration`, credential, token);
      assert.equal(res.status, 400);
      assert.equal(res.body.error_message_key, 'error.webauthn.invalidChallenge');
    });

    it('removing the last way to sign in is refused; an unknown passkey is not found', async () => {
      const { tkn } = await passkeyUser();
      const pkce = pkcePair();
      const res = await new Browser(ward).get(
        authorizeUrl({
          client_id: PUBLIC_CLIENT.client_id,
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope,
          state: 's',
          tkn,
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(res.status, 302, await res.text());
      const token = (await redeem(ward, location(res).searchParams.get('code')!, pkce.verifier)).body
        .access_token as string;
      const list = await ward.fetch(`${W}/registration`, { headers: { authorization: `Bearer ${token}` } });
      const [only] = (await list.json()) as Array<{ id: string }>;
      const del = () =>
        ward.fetch(`${W}/registration/${only!.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        });
      const refused = await del();
      assert.equal(refused.status, 409);
      assert.equal(
        ((await refused.json()) as { error_message_key: string }).error_message_key,
        'error.webauthn.lastSignInMethod',
      );
      const missing = await ward.fetch(`${W}/registration/no-such-id`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(missing.status, 404);
    });

    it('malformed credentials get a clear 4xx JSON answer, never a 500', async () => {
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const credential = (response: Record<string, unknown>) => ({
        id: 'AAAA',
        raw_id: 'AAAA',
        type: 'public-key',
        response,
      });
      const bodies: Array<[string, unknown]> = [
        [`${W}/signup`, {}],
        [`${W}/signup`, { public_key_credential: 'x' }],
        [`${W}/signup`, { public_key_credential: credential({ client_data_json: 12345, attestation_object: 'AA' }) }],
        [
          `${W}/signup`,
          { public_key_credential: credential({ client_data_json: 'not base64!', attestation_object: 'AA' }) },
        ],
        [
          `${W}/signup`,
          { public_key_credential: credential({ client_data_json: b64('x'), attestation_object: 'AA' }) },
        ],
        [
          `${W}/signup`,
          { public_key_credential: credential({ client_data_json: b64({ challenge: 5 }), attestation_object: 'AA' }) },
        ],
        [`${W}/authentication`, { id: 'AAAA', type: 'public-key' }],
        [`${W}/authentication`, { ...credential({ client_data_json: 'AA', authenticator_data: 'AA' }), type: 'x' }],
        [
          `${W}/authentication`,
          credential({
            client_data_json: b64({ challenge: 'A'.repeat(43), type: 'webauthn.get' }),
            authenticator_data: 'AA',
            signature: 'AA',
            user_handle: ['x'],
          }),
        ],
        [`${W}/authentication-options`, { client_id: PUBLIC_CLIENT.client_id, origin: app.origin, scope, email: 5 }],
        [`${W}/signup-options`, { client_id: PUBLIC_CLIENT.client_id, origin: app.origin, scope, profile: 'x' }],
        [
          `${W}/signup-options`,
          { client_id: PUBLIC_CLIENT.client_id, origin: ['x'], scope, profile: { email: 'a@b.example' } },
        ],
      ];
      for (const [path, body] of bodies) {
        const res = await post(path, body);
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${JSON.stringify(body)}: ${res.status}`);
        assert.ok(res.body.error_message_key, JSON.stringify(res.body));
      }
    });

    it('passkeys off: every ceremony is refused', async () => {
      ward.setAccount({ passkeys: { enabled: false } });
      try {
        const res = await post(`${W}/authentication-options`, {
          client_id: PUBLIC_CLIENT.client_id,
          origin: app.origin,
          scope,
        });
        assert.equal(res.status, 403);
        assert.equal(res.body.error_message_key, 'error.webauthn.disabled');
      } finally {
        ward.setAccount({ passkeys: { enabled: true } });
      }
    });
  });
}

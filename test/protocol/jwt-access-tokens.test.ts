// API resources at the protocol (issue #39 item 3): the `resource` parameter (RFC 8707) at /oauth/authorize
// and /oauth/token selects the audience; a `jwt` resource gets an RFC 9068 access token that jose
// verifies against /jwks.json over HTTP (typ at+jwt, aud = the resource); an unknown resource is
// invalid_target; a refresh keeps the audience; introspection answers for both formats; userinfo refuses a
// resource's token; without a resource the sealed token of before is unchanged. openid-client runs one
// flow through the hosted login page. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { Browser } from '../helpers/browser.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { api } from '../helpers/management.js';
import { codeFor, location, PUBLIC_CLIENT, signup, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { basic, expectError, expectTokens, userinfoStatus } from './token/support.js';

const ORDERS = 'https://api.example.com/orders';
const BILLING = 'https://api.example.com/billing';
const LONG = 'https://api.example.com/long';
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const RESOURCE_SERVER = { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET };
const OPS_SECRET = 'resource-manager-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients'],
};
const CB = 'https://app.example/cb';

for (const engine of engines()) {
  describe(`API resources and JWT access tokens (${engine})`, () => {
    let ward: TestWard;
    let jwks: ReturnType<typeof createRemoteJWKSet>;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, RESOURCE_SERVER, OPS] });
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS_SECRET,
      });
      const admin = api(ward, ((await res.json()) as { access_token: string }).access_token);
      const orders = {
        identifier: ORDERS,
        name: 'Orders',
        scopes: ['orders:read', 'orders:write'],
        access_token_ttl: 600,
      };
      assert.equal((await admin.post('/api/v1/resources', orders)).status, 201);
      const billing = { identifier: BILLING, name: 'Billing', scopes: ['billing:read'], token_format: 'opaque' };
      assert.equal((await admin.post('/api/v1/resources', billing)).status, 201);
      const long = { identifier: LONG, name: 'Long', scopes: ['long:read'], access_token_ttl: 86400 };
      assert.equal((await admin.post('/api/v1/resources', long)).status, 201);
      // The JWKS is fetched over real HTTP (TLS with the test certificate), as an API would.
      jwks = createRemoteJWKSet(new URL('/jwks.json', ward.url), {
        [customFetch]: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: ward.agent }) as never,
      });
    });
    after(() => ward.close());

    const introspect = async (token: string) => {
      const res = await ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic('orders-api', API_SECRET),
        },
        body: new URLSearchParams({ token }).toString(),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Record<string, unknown>;
    };
    /** A code flow on the public client for `resource`, redeemed with `tokenResource` (null: none sent). */
    async function tokensFor(scope: string, resource?: string, tokenResource: string | null = resource ?? null) {
      const flow = await codeFor(ward, { scope, extra: resource ? { resource } : {} });
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
        ...(tokenResource ? { resource: tokenResource } : {}),
      });
      return { ...flow, tokens: await expectTokens(res) };
    }
    const verify = (token: string, audience = ORDERS) =>
      jwtVerify(token, jwks, { issuer: ward.issuer, audience, typ: 'at+jwt', currentDate: new Date(ward.clock.now()) });

    it('issues an RFC 9068 token that jose verifies from /jwks.json: typ at+jwt, aud the resource', async () => {
      const { user, tokens } = await tokensFor('openid orders:read offline_access', ORDERS);
      const header = decodeProtectedHeader(tokens.access_token!);
      assert.equal(header.typ, 'at+jwt');
      assert.equal(header.alg, 'RS256');
      const { payload } = await verify(tokens.access_token!);
      assert.equal(payload.iss, ward.issuer);
      assert.equal(payload.aud, ORDERS);
      assert.equal(payload.sub, user.id);
      assert.equal(payload.client_id, 'spa');
      assert.equal(payload.scope, 'openid orders:read offline_access');
      assert.equal(typeof payload.jti, 'string');
      assert.equal((payload.exp as number) - (payload.iat as number), 600, "the resource's lifetime");
      assert.equal(Number(tokens.expires_in), 600);
      assert.equal(typeof payload.auth_time, 'number');
      assert.ok((payload.amr as string[]).length > 0, 'amr of the sign-in');
      // Another audience, or another issuer, does not verify.
      await assert.rejects(verify(tokens.access_token!, BILLING), /aud/);
      // The id token is still the client's.
      const idToken = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()) as JWTPayload;
      assert.equal(idToken.aud, 'spa');
    });

    it('never lets a JWT outlive the published keys: its lifetime is at most the key grace', async () => {
      const { tokens } = await tokensFor('long:read', LONG);
      const { payload } = await jwtVerify(tokens.access_token!, jwks, {
        issuer: ward.issuer,
        audience: LONG,
        typ: 'at+jwt',
        currentDate: new Date(ward.clock.now()),
      });
      assert.equal((payload.exp as number) - (payload.iat as number), 3600, 'max(id_token_ttl, access_token_ttl)');
      assert.equal(Number(tokens.expires_in), 3600);
    });

    it('answers invalid_target for a resource Ward does not know, at authorize and at the token endpoint', async () => {
      const browser = new Browser(ward);
      for (const resource of ['https://evil.example/api', `${ORDERS}#x`, 'not-a-uri']) {
        const q = new URLSearchParams({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CB,
          scope: 'openid',
          state: 's',
          resource,
        });
        const res = await browser.get(`/oauth/authorize?${q}`);
        assert.equal(res.status, 302, resource);
        const loc = location(res);
        assert.equal(loc.searchParams.get('error'), 'invalid_target', resource);
        assert.equal(loc.searchParams.get('state'), 's');
      }
      // A resource's scope without the resource is an unknown scope.
      const q = new URLSearchParams({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid orders:read',
      });
      assert.equal(location(await browser.get(`/oauth/authorize?${q}`)).searchParams.get('error'), 'invalid_scope');
      // Another resource's scope with this resource too.
      const flow = codeFor(ward, { scope: 'openid billing:read', extra: { resource: ORDERS } });
      await assert.rejects(flow, /invalid_scope/);

      // At the token endpoint: a code for ORDERS redeemed for BILLING, a code for no resource redeemed for one.
      for (const [asked, named] of [
        [ORDERS, BILLING],
        [undefined, ORDERS],
      ] as const) {
        const f = await codeFor(ward, { scope: 'openid', extra: asked ? { resource: asked } : {} });
        const res = await tokenRequest(ward, {
          grant_type: 'authorization_code',
          code: f.code,
          client_id: 'spa',
          redirect_uri: CB,
          code_verifier: f.verifier,
          resource: named,
        });
        await expectError(res, 400, 'invalid_target');
      }
      // client_credentials gives no API resource token.
      const cc = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS_SECRET,
        resource: ORDERS,
      });
      await expectError(cc, 400, 'invalid_target');
    });

    it('keeps the audience on refresh, and refuses another resource there', async () => {
      const { user, tokens } = await tokensFor('openid orders:read orders:write offline_access', ORDERS, null);
      const refresh = (extra: Record<string, string> = {}, token = tokens.refresh_token!) =>
        tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: token, client_id: 'spa', ...extra });
      await expectError(await refresh({ resource: BILLING }), 400, 'invalid_target');
      const next = await expectTokens(await refresh({ scope: 'orders:read' }));
      const { payload } = await verify(next.access_token!);
      assert.equal(payload.aud, ORDERS);
      assert.equal(payload.sub, user.id);
      assert.equal(payload.scope, 'orders:read', 'narrowed');
      const third = await expectTokens(await refresh({ resource: ORDERS }, next.refresh_token!));
      assert.equal((await verify(third.access_token!)).payload.scope, 'openid orders:read orders:write offline_access');
    });

    it('introspects a JWT access token and an opaque one, each with its audience; a revoked JWT is inactive', async () => {
      const jwt = (await tokensFor('openid orders:read', ORDERS)).tokens;
      const a = await introspect(jwt.access_token!);
      assert.equal(a.active, true, JSON.stringify(a));
      assert.equal(a.aud, ORDERS);
      assert.equal(a.scope, 'openid orders:read');
      assert.equal(a.client_id, 'spa');
      assert.equal(a.iss, ward.issuer);
      assert.equal(a.jti, (await verify(jwt.access_token!)).payload.jti);

      const opaque = (await tokensFor('billing:read', BILLING)).tokens;
      assert.match(opaque.access_token!, /^wat1\./, 'the opaque resource token is sealed');
      const b = await introspect(opaque.access_token!);
      assert.equal(b.active, true);
      assert.equal(b.aud, BILLING);
      assert.equal(b.scope, 'billing:read');

      // The client revokes its JWT access token (RFC 7009): introspection then says inactive.
      const rev = await ward.fetch('/oauth/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: jwt.access_token!, client_id: 'spa' }).toString(),
      });
      assert.equal(rev.status, 200);
      assert.deepEqual(await introspect(jwt.access_token!), { active: false });
      // Expired: inactive.
      const later = (await tokensFor('orders:read', ORDERS)).tokens;
      ward.clock.advance(601_000);
      assert.deepEqual(await introspect(later.access_token!), { active: false });
      assert.equal(
        (await introspect(opaque.access_token!)).active,
        true,
        "the billing token lives the account's 3600 s",
      );
    });

    it("keeps the sealed token when no resource is named; Ward's userinfo refuses a resource's token", async () => {
      const plain = (await tokensFor('openid profile email')).tokens;
      assert.match(plain.access_token!, /^wat1\./);
      const c = await introspect(plain.access_token!);
      assert.equal(c.active, true);
      assert.equal(c.aud, 'spa', 'the client, as before');
      assert.equal(c.jti, undefined);
      assert.equal(await userinfoStatus(ward, plain.access_token!), 200);
      const jwt = (await tokensFor('openid orders:read', ORDERS)).tokens;
      assert.equal(await userinfoStatus(ward, jwt.access_token!), 401);
      const opaque = (await tokensFor('openid billing:read', BILLING)).tokens;
      assert.equal(await userinfoStatus(ward, opaque.access_token!), 401);
    });

    it('runs the code flow with a resource through openid-client and the hosted login page', async () => {
      const user = await signup(ward);
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'spa', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CB,
        scope: 'openid orders:read offline_access',
        state,
        resource: ORDERS,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      assert.equal(page.status, 200);
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const tokens = await client.authorizationCodeGrant(
        config,
        location(posted),
        { pkceCodeVerifier: verifier, expectedState: state },
        { resource: ORDERS },
      );
      const { payload } = await verify(tokens.access_token);
      assert.equal(payload.sub, user.id);
      assert.equal(tokens.claims()!.sub, user.id);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      assert.equal((await verify(refreshed.access_token)).payload.aud, ORDERS);
    });
  });
}

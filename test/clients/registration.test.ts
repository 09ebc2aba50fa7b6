// Dynamic Client Registration (RFC 7591) and its management protocol (RFC 7592), on both engines,
// over real HTTP: off by default; open, a public client registers and runs the code flow with PKCE
// through its consent page; the registration access token reads, replaces and deletes it (and only
// it); refusals carry RFC 7591's codes; an initial access token gates registration when the account
// asks; openid-client registers through its own dynamic registration; RFC 8414 metadata follows the
// settings; every call is audited and rate-limited.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const CB = 'https://agent.example/callback';
const INITIAL_TOKEN = 'initial-access-token-for-the-tests-0123456789';
const NO_LIMITS = { signup: { limit: null }, login: { limit: null } };
const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

type Json = Record<string, unknown>;

async function register(ward: TestWard, metadata: unknown, headers: Record<string, string> = {}) {
  const res = await ward.fetch('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });
  return { res, body: (await res.json()) as Json };
}

function configuration(ward: TestWard, reg: Json, method: string, token: string, body?: unknown) {
  return ward.fetch(String(reg.registration_client_uri), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

/** Signs a new user in to `clientId` through the hosted login and consent pages; returns the token answer. */
async function codeFlow(ward: TestWard, clientId: string, redirectUri = CB) {
  const user = await signup(ward);
  const pkce = pkcePair();
  const browser = new Browser(ward);
  const url = authorizeUrl({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile offline_access',
    state: 'st-9',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  });
  const login = await browser.get(url);
  assert.equal(login.status, 200, await login.clone().text());
  const consent = await submitLoginPage(browser, await login.text(), user.email, user.password);
  assert.equal(consent.status, 200, 'a registered client is third-party: the consent page comes');
  const html = await consent.text();
  assert.match(html, /asks for access to your account/);
  const allowed = await browser.postForm('/oauth/authorize/consent', {
    interaction: field(html, 'interaction')!,
    csrf: field(html, 'csrf')!,
    decision: 'allow',
  });
  assert.equal(allowed.status, 303);
  const loc = new URL(allowed.headers.get('location')!);
  assert.equal(`${loc.origin}${loc.pathname}`, redirectUri);
  const code = loc.searchParams.get('code');
  assert.ok(code, `a code in ${loc}`);
  return { user, html, ...(await redeem(ward, code, pkce.verifier, clientId, redirectUri)) };
}

for (const engine of engines()) {
  describe(`client registration (RFC 7591, 7592) on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: { rate_limits: { ...NO_LIMITS, registration: { limit: 1000 } } },
      });
    });
    after(() => ward.close());
    const setRegistration = (patch: Json) =>
      ward.setAccount({ client_registration: { ...ward.registry.account().client_registration, ...patch } });

    it('is off by default: 403 access_denied, no registration_endpoint in the RFC 8414 metadata', async () => {
      const { res, body } = await register(ward, { redirect_uris: [CB], token_endpoint_auth_method: 'none' });
      assert.equal(res.status, 403);
      assert.equal(body.error, 'access_denied');
      assert.equal(body.error_message_key, 'error.registration.closed');
      const meta = (await (await ward.fetch('/.well-known/oauth-authorization-server')).json()) as Json;
      assert.equal(meta.issuer, ward.issuer);
      assert.equal(meta.token_endpoint, `${ward.issuer}/oauth/token`);
      assert.equal(meta.registration_endpoint, undefined);
      assert.equal(meta.client_id_metadata_document_supported, undefined);
    });

    it('open: a registered client may ask for the device grant (RFC 8628) and use it', async () => {
      setRegistration({ mode: 'open' });
      const device = 'urn:ietf:params:oauth:grant-type:device_code';
      const { res, body } = await register(ward, {
        redirect_uris: [CB],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', device],
        client_name: 'CLI tool',
      });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.deepEqual(body.grant_types, ['authorization_code', device]);
      const started = await ward.fetch('/oauth/device_authorization', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: String(body.client_id), scope: 'openid' }).toString(),
      });
      assert.equal(started.status, 200);
    });

    it('open: a public client registers, signs a user in with PKCE and consent, and gets tokens', async () => {
      setRegistration({ mode: 'open' });
      const meta = (await (await ward.fetch('/.well-known/oauth-authorization-server')).json()) as Json;
      assert.equal(meta.registration_endpoint, `${ward.issuer}/oauth/register`);
      const { res, body } = await register(ward, {
        redirect_uris: [CB],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        client_name: 'Research Agent',
        logo_uri: 'https://agent.example/logo.png',
        contacts: ['ops@agent.example'],
        software_id: 'agent-kit',
      });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(String(body.client_id), /^dcr-/);
      assert.equal(body.client_secret, undefined, 'a public client has no secret');
      assert.equal(body.token_endpoint_auth_method, 'none');
      assert.deepEqual(body.redirect_uris, [CB]);
      assert.deepEqual(body.contacts, ['ops@agent.example']);
      assert.equal(body.software_id, 'agent-kit');
      assert.equal(typeof body.registration_access_token, 'string');
      assert.equal(body.registration_client_uri, `${ward.issuer}/oauth/register/${body.client_id}`);
      assert.equal(typeof body.client_id_issued_at, 'number');
      const stored = await ward.registry.storage.clients.find(String(body.client_id));
      assert.equal(stored?.first_party, false);
      assert.equal(stored?.type, 'public');
      assert.equal(stored?.pkce_enforced, true);
      assert.equal(stored?.source, 'registration');
      const reg = await ward.registry.storage.clientRegistrations.find(String(body.client_id));
      assert.ok(
        reg && !JSON.stringify(reg).includes(String(body.registration_access_token)),
        'the token is not stored',
      );

      const flow = await codeFlow(ward, String(body.client_id));
      assert.match(flow.html, /Research Agent/);
      assert.equal(flow.res.status, 200, JSON.stringify(flow.body));
      assert.ok(flow.body.access_token && flow.body.id_token && flow.body.refresh_token);
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'client.registered', limit: 50 });
      assert.ok(audit.some((e) => e.target === `client:${body.client_id}` && e.outcome === 'success'));
      assert.ok(!JSON.stringify(audit).includes(String(body.registration_access_token)), 'no token in the audit');
    });

    it('reads, replaces and deletes with the registration access token, and only with it', async () => {
      setRegistration({ mode: 'open' });
      const { body: reg } = await register(ward, {
        redirect_uris: [CB],
        token_endpoint_auth_method: 'client_secret_basic',
        client_name: 'Backend Agent',
      });
      const token = String(reg.registration_access_token);
      assert.equal(typeof reg.client_secret, 'string', 'a secret client gets its secret');
      assert.equal(reg.client_secret_expires_at, 0);
      const { body: other } = await register(ward, { redirect_uris: [CB], token_endpoint_auth_method: 'none' });

      const read = await configuration(ward, reg, 'GET', token);
      assert.equal(read.status, 200);
      const readBody = (await read.json()) as Json;
      assert.equal(readBody.client_name, 'Backend Agent');
      assert.equal(readBody.client_secret, reg.client_secret);
      assert.equal(readBody.registration_access_token, undefined);

      for (const wrong of ['not-the-token', String(other.registration_access_token)]) {
        const denied = await configuration(ward, reg, 'GET', wrong);
        assert.equal(denied.status, 401);
        assert.match(denied.headers.get('www-authenticate') ?? '', /invalid_token/);
        assert.equal(((await denied.json()) as Json).error, 'invalid_token');
      }
      const noToken = await ward.fetch(String(reg.registration_client_uri));
      assert.equal(noToken.status, 401);

      const replaced = await configuration(ward, reg, 'PUT', token, {
        client_id: reg.client_id,
        redirect_uris: [CB, 'https://agent.example/second'],
        token_endpoint_auth_method: 'client_secret_post',
        client_name: 'Backend Agent 2',
      });
      const replacedBody = (await replaced.json()) as Json;
      assert.equal(replaced.status, 200, JSON.stringify(replacedBody));
      assert.deepEqual(replacedBody.redirect_uris, [CB, 'https://agent.example/second']);
      assert.equal(replacedBody.client_secret, reg.client_secret, 'the secret is kept');
      assert.equal((await ward.registry.clients.find(String(reg.client_id)))?.name, 'Backend Agent 2');
      const notOwn = await configuration(ward, reg, 'PUT', token, {
        client_id: reg.client_id,
        redirect_uris: [CB],
        registration_access_token: token,
      });
      assert.equal(notOwn.status, 400);
      const badSecret = await configuration(ward, reg, 'PUT', token, {
        client_id: reg.client_id,
        redirect_uris: [CB],
        client_secret: 'another',
      });
      assert.equal(badSecret.status, 400);
      const badUri = await configuration(ward, reg, 'PUT', token, {
        client_id: reg.client_id,
        redirect_uris: ['http://agent.example/cb'],
      });
      assert.equal(badUri.status, 400);
      assert.equal(((await badUri.json()) as Json).error, 'invalid_redirect_uri');

      const deleted = await configuration(ward, reg, 'DELETE', token);
      assert.equal(deleted.status, 204);
      assert.equal(await ward.registry.clients.find(String(reg.client_id)), undefined);
      assert.equal(await ward.registry.storage.clientRegistrations.find(String(reg.client_id)), undefined);
      assert.equal((await configuration(ward, reg, 'GET', token)).status, 401, 'gone: the token is worthless');
      await ward.registry.events.flush();
      const actions = (await ward.registry.storage.audit.list({ limit: 200 }))
        .filter((e) => e.target === `client:${reg.client_id}`)
        .map((e) => e.action);
      for (const a of [
        'client.registered',
        'client.registration_read',
        'client.registration_denied',
        'client.registration_updated',
        'client.registration_deleted',
      ])
        assert.ok(actions.includes(a), `${a} audited`);
    });

    it('refuses with RFC 7591 codes: redirect URIs, metadata, software statements', async () => {
      setRegistration({ mode: 'open' });
      const cases: Array<[Json, string]> = [
        [{ token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['http://agent.example/cb'], token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
        [
          { redirect_uris: ['https://agent.example/cb#frag'], token_endpoint_auth_method: 'none' },
          'invalid_redirect_uri',
        ],
        [{ redirect_uris: [CB], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
        [{ redirect_uris: [CB], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
        [{ redirect_uris: [CB], response_types: ['token'] }, 'invalid_client_metadata'],
        [
          { redirect_uris: [CB], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'HS256' },
          'invalid_client_metadata',
        ],
        [{ redirect_uris: [CB], logo_uri: 'javascript:alert(1)' }, 'invalid_client_metadata'],
        [{ redirect_uris: [CB], software_statement: 'eyJhbGciOiJub25lIn0.e30.' }, 'invalid_software_statement'],
      ];
      for (const [metadata, error] of cases) {
        const { res, body } = await register(ward, metadata);
        assert.equal(res.status, 400, JSON.stringify(metadata));
        assert.equal(body.error, error, `${JSON.stringify(metadata)}: ${JSON.stringify(body)}`);
        assert.equal(typeof body.error_description, 'string');
      }
      const notObject = await ward.fetch('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[1]',
      });
      assert.equal(notObject.status, 400);
    });

    it('answers wrong-typed metadata with a 4xx JSON error, never a 5xx', async () => {
      setRegistration({ mode: 'open' });
      const hostile = [null, 12345, [], '', { $ne: '' }, 'a\u0000b', 'x'.repeat(10_000)];
      for (const key of [
        'redirect_uris',
        'client_name',
        'contacts',
        'grant_types',
        'scope',
        'software_id',
        'logo_uri',
      ]) {
        for (const value of hostile) {
          const { res, body } = await register(ward, {
            redirect_uris: [CB],
            token_endpoint_auth_method: 'none',
            [key]: value,
          });
          if (res.status === 201) continue; // a value Ward may take (null: absent)
          assert.ok(
            res.status >= 400 && res.status < 500,
            `${key}=${JSON.stringify(value).slice(0, 40)}: ${res.status}`,
          );
          assert.equal(typeof body.error_message_key, 'string');
        }
      }
      const reg = (await register(ward, { redirect_uris: [CB], token_endpoint_auth_method: 'none' })).body;
      const odd = await ward.fetch(`/oauth/register/${encodeURIComponent('a\u0000b')}`, {
        headers: { authorization: `Bearer ${reg.registration_access_token}` },
      });
      assert.equal(odd.status, 401);
    });

    it('with an initial access token: none or a wrong one is 401, the right one registers', async () => {
      setRegistration({
        mode: 'initial_access_token',
        initial_access_token_sha256: createHash('sha256').update(INITIAL_TOKEN).digest('hex'),
      });
      const metadata = { redirect_uris: [CB], token_endpoint_auth_method: 'none' };
      const none = await register(ward, metadata);
      assert.equal(none.res.status, 401);
      assert.equal(none.body.error, 'invalid_token');
      const wrong = await register(ward, metadata, { authorization: 'Bearer not-it' });
      assert.equal(wrong.res.status, 401);
      const right = await register(ward, metadata, { authorization: `Bearer ${INITIAL_TOKEN}` });
      assert.equal(right.res.status, 201, JSON.stringify(right.body));
    });

    it('openid-client registers through its dynamic registration and runs the code flow', async () => {
      setRegistration({ mode: 'open', initial_access_token_sha256: null });
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await oidc.dynamicClientRegistration(
        new URL(ward.issuer),
        { redirect_uris: [CB], token_endpoint_auth_method: 'none', client_name: 'openid-client agent' },
        oidc.None(),
        { [oidc.customFetch]: tlsFetch },
      );
      config[oidc.customFetch] = tlsFetch;
      const meta = config.clientMetadata();
      assert.match(meta.client_id, /^dcr-/);
      assert.equal(typeof meta.registration_access_token, 'string');
      const flow = await codeFlow(ward, meta.client_id);
      assert.equal(flow.res.status, 200, JSON.stringify(flow.body));
    });

    it('an administrator sees a registered client and deleting it ends its registration', async () => {
      setRegistration({ mode: 'open' });
      const { body: reg } = await register(ward, { redirect_uris: [CB], token_endpoint_auth_method: 'none' });
      const admin = api(ward, (await consoleToken(ward, 'administrator')).token);
      const seen = await admin.get(`/api/v1/clients/${reg.client_id}`);
      assert.equal(seen.status, 200);
      assert.equal(seen.body.first_party, false);
      assert.equal((await admin.del(`/api/v1/clients/${reg.client_id}`)).status, 204);
      assert.equal(await ward.registry.storage.clientRegistrations.find(String(reg.client_id)), undefined);
      assert.equal((await configuration(ward, reg, 'GET', String(reg.registration_access_token))).status, 401);
    });

    it('is rate-limited per IP', async () => {
      setRegistration({ mode: 'off' });
      const limits = ward.registry.account().rate_limits;
      ward.setAccount({ rate_limits: { ...limits, registration: { limit: 2, window_seconds: 60 } } });
      ward.clock.advance(61_000);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await register(ward, { redirect_uris: [CB] })).res.status);
      assert.deepEqual(statuses, [403, 403, 429]);
      ward.setAccount({ rate_limits: limits });
    });
  });
}

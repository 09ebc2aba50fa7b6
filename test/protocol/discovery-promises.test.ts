// Discovery promises only what works. For each listed value of the metadata below, a request that uses
// it must work (the tables SUPPORTED); the tables must list exactly what discovery lists, so a value
// added to discovery without a working request here, or dropped while it still works, fails. Values
// discovery leaves out are refused (the tables REFUSED). Request objects (request, request_uri) are
// refused with OIDC Core 6's errors. To add a feature (a response mode, an endpoint), add its row.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JSONWebKeySet,
  SignJWT,
} from 'jose';
import type { Response } from 'undici';
import { assertErrorRedirect, CB, codeRequest } from './authorize/support.js';
import { Browser } from '../helpers/browser.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  passwordLogin,
  pkcePair,
  redeem,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_LIMITS, basic, expectError, expectTokens } from './token/support.js';
import { makeProof, proofKey } from '../helpers/dpop.js';

const API_CB = 'https://api.example/cb';
const IMPLICIT = { ...CONFIDENTIAL_CLIENT, client_id: 'implicit-app', implicit_flow: true };
const OIDC_RT = { ...PUBLIC_CLIENT, client_id: 'oidc-rt', response_types: ['code', 'id_token', 'code id_token'] };
/** A client with RP-Initiated and Back-Channel Logout; its back-channel receiver's port is filled in before start. */
const LOGOUT_RP = {
  ...PUBLIC_CLIENT,
  client_id: 'logout-rp',
  post_logout_redirect_uris: ['https://app.example/bye'],
  allowed_callback_urls: [CB],
};
const MESSENGER_CB = 'https://facebook.com/messenger_platform/account_linking/';
const BOT = { client_id: 'bot', name: 'Bot', type: 'public', allowed_callback_urls: [MESSENGER_CB] };
const PASSWORD_APP = { ...PUBLIC_CLIENT, client_id: 'password-app', grant_types: ['password'] };
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const DEVICE_APP = { ...PUBLIC_CLIENT, client_id: 'device-app', grant_types: [DEVICE_GRANT] };
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const API = { client_id: 'api', type: 'resource_server', client_secret: API_SECRET };
const ES = { ...PUBLIC_CLIENT, client_id: 'spa-es', jwt_algorithm: 'ES256' };
const ED = { ...PUBLIC_CLIENT, client_id: 'spa-ed', jwt_algorithm: 'EdDSA' };
/** A third-party app: its users see a consent page (prompt=consent shows it again). */
const PARTNER = { ...PUBLIC_CLIENT, client_id: 'partner', first_party: false };
const OPS_SECRET = 'management-client-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients'],
};

/** private_key_jwt and client_secret_jwt clients (RFC 7523): keys of every listed algorithm's type. */
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SIGNED_SECRET = 'client-secret-jwt-secret-of-at-least-32-bytes';
const KEY_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** One key per algorithm (a WebCrypto key is bound to its hash), named by it. */
const assertionKeys: Record<string, CryptoKey> = {};
async function keyedClients() {
  const keys = [];
  for (const alg of KEY_ALGS) {
    const pair = await generateKeyPair(alg);
    assertionKeys[alg] = pair.privateKey;
    keys.push({ ...(await exportJWK(pair.publicKey)), kid: alg });
  }
  const base = { type: 'confidential', client_secret: OPS_SECRET, grant_types: ['client_credentials'] };
  const keyed = { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys } };
  const signed = { client_secret: SIGNED_SECRET, token_endpoint_auth_method: 'client_secret_jwt' };
  // Resource servers introspect every token; a client, only its own.
  const api = { type: 'resource_server', client_secret: OPS_SECRET };
  return [
    { ...base, ...keyed, client_id: 'keyed' },
    { ...base, ...signed, client_id: 'signed' },
    { ...api, ...keyed, client_id: 'api-keyed' },
    { ...api, ...signed, client_id: 'api-signed' },
  ];
}

type Check = () => Promise<void>;
let phones = 0;
/** A distinct French mobile number per user (an account's phone number is unique). */
const phone = () => `+3361234${String(++phones).padStart(4, '0')}`;
type Discovery = Record<string, unknown>;

describe('discovery lists what works, and only that', () => {
  let ward: TestWard;
  let discovery: Discovery;
  let receiver: Server;
  const logoutTokens: string[] = [];
  let tokenArrived: () => void = () => {};
  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        logoutTokens.push(new URLSearchParams(body).get('logout_token') ?? '');
        res.writeHead(200).end();
        tokenArrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const rp = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    ward = await startWard({
      account: NO_LIMITS,
      clients: [
        PUBLIC_CLIENT,
        CONFIDENTIAL_CLIENT,
        IMPLICIT,
        BOT,
        OPS,
        OIDC_RT,
        PASSWORD_APP,
        DEVICE_APP,
        API,
        ES,
        ED,
        PARTNER,
        { ...LOGOUT_RP, allowed_callback_urls: [CB, `${rp}/cb`], backchannel_logout_uri: `${rp}/backchannel` },
        ...(await keyedClients()),
      ],
    });
    discovery = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Discovery;
  });
  after(async () => {
    await ward.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** A signed-up user's tkn for a client (the Core SDK's way to authorize without a page). */
  async function tkn(clientId = 'spa', scope = 'openid profile email', extra: Record<string, unknown> = {}) {
    const user = await signup(ward, clientId, extra);
    return { user, tkn: await passwordLogin(ward, user.email, user.password, clientId, scope) };
  }
  /** The code flow of the public client with a tkn; the token response. */
  async function tokens(scope: string, extra: Record<string, unknown> = {}) {
    const { tkn: t } = await tkn('spa', scope, extra);
    const pkce = pkcePair();
    const res = await ward.fetch(codeRequest({ scope, tkn: t, code_challenge: pkce.challenge, nonce: 'n-1' }));
    const { body } = await redeem(ward, location(res).searchParams.get('code')!, pkce.verifier);
    return body;
  }
  const userinfo = async (accessToken: string) => ward.fetch('/identity/v1/userinfo', bearer(accessToken));
  const userinfoBody = async (token: string) => (await userinfo(token)).json() as Promise<Record<string, unknown>>;
  const bearer = (accessToken: string) => ({ headers: { authorization: `Bearer ${accessToken}` } });
  /** An authorization error redirected to the public client's callback. */
  const refusedAtAuthorize =
    (over: Record<string, string | undefined>, error: string): Check =>
    async () => {
      assertErrorRedirect(await ward.fetch(codeRequest(over)), CB, error, ward.url);
    };
  /** Redeems a code of the public client: the token response, or the error body when `error` is expected. */
  async function redeemed(code: string, verifier: string, error?: string, clientId = 'spa') {
    const { res, body } = await redeem(ward, code, verifier, clientId);
    assert.equal(res.status, error ? 400 : 200, JSON.stringify(body));
    if (error) assert.equal(body.error, error);
    else assert.ok(body.access_token);
    return body;
  }
  const backendCode = async () => (await codeFor(ward, { clientId: 'backend', redirectUri: API_CB, pkce: false })).code;
  const backendGrant = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: API_CB });

  async function implicitWorks(): Promise<void> {
    const { tkn: t } = await tkn('implicit-app', 'openid');
    const res = await ward.fetch(
      authorizeUrl({
        client_id: 'implicit-app',
        response_type: 'token',
        redirect_uri: API_CB,
        scope: 'openid',
        state: 's',
        tkn: t,
      }),
    );
    const fragment = new URLSearchParams(location(res).hash.slice(1));
    assert.equal(fragment.get('token_type'), 'Bearer');
    assert.equal((await userinfo(fragment.get('access_token')!)).status, 200, 'the implicit access token is accepted');
  }

  async function codeInMode(mode: string): Promise<string> {
    const { tkn: t } = await tkn();
    const pkce = pkcePair();
    const res = await ward.fetch(codeRequest({ response_mode: mode, tkn: t, code_challenge: pkce.challenge }));
    let code: string | null;
    if (mode === 'web_message') {
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /"type":"authorization_response"/);
      code = /"code":"([^"]+)"/.exec(html)?.[1] ?? null;
    } else if (mode === 'form_post') {
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('location'), null, 'not in a URL');
      const html = await res.text();
      assert.match(html, new RegExp(`<form method="post" action="${CB}"`));
      code = /name="code" value="([^"]+)"/.exec(html)?.[1] ?? null;
    } else {
      const loc = location(res);
      code = mode === 'fragment' ? new URLSearchParams(loc.hash.slice(1)).get('code') : loc.searchParams.get('code');
      if (mode === 'fragment') assert.equal(loc.searchParams.get('code'), null, 'not in the query');
    }
    assert.ok(code, `a code in response_mode=${mode}`);
    await redeemed(code, pkce.verifier);
    return code;
  }

  const oidcVerifier = pkcePair().verifier;
  /** An OpenID Connect response type for the client that lists them: the fragment's values. */
  async function oidcResponse(type: string): Promise<URLSearchParams> {
    const { tkn: t } = await tkn('oidc-rt');
    const challenge = createHash('sha256').update(oidcVerifier).digest('base64url');
    const url = codeRequest({
      client_id: 'oidc-rt',
      response_type: type,
      nonce: 'n-rt',
      tkn: t,
      code_challenge: challenge,
    });
    const loc = location(await ward.fetch(url));
    assert.equal(loc.search, '', 'nothing in the query');
    return new URLSearchParams(loc.hash.slice(1));
  }

  /** A client's id token from the code flow: signed with `alg`, and its signature verifies (JWKS or secret). */
  const signedWith =
    (clientId: string, alg: string): Check =>
    async () => {
      const backend = clientId === 'backend';
      const { code, verifier } = await codeFor(ward, {
        clientId,
        redirectUri: backend ? API_CB : CB,
        scope: 'openid',
        pkce: !backend,
      });
      const { body } = backend
        ? {
            body: (await (
              await tokenRequest(ward, backendGrant(code), { authorization: basic('backend', CONFIDENTIAL_SECRET) })
            ).json()) as { id_token?: string },
          }
        : await redeem(ward, code, verifier, clientId);
      const token = body.id_token!;
      assert.equal(decodeProtectedHeader(token).alg, alg);
      const jwks = (await (await ward.fetch(`/jwks.json?client_id=${clientId}`)).json()) as JSONWebKeySet;
      const key = backend ? new TextEncoder().encode(CONFIDENTIAL_SECRET) : createLocalJWKSet(jwks);
      const { payload } = await jwtVerify(token, key as never, {
        issuer: ward.url,
        audience: clientId,
        algorithms: [alg],
      });
      assert.ok(payload.sub);
    };

  const SUPPORTED: Record<string, Record<string, Check>> = {
    id_token_signing_alg_values_supported: {
      RS256: signedWith('spa', 'RS256'),
      HS256: signedWith('backend', 'HS256'),
      ES256: signedWith('spa-es', 'ES256'),
      EdDSA: signedWith('spa-ed', 'EdDSA'),
    },
    prompt_values_supported: {
      none: async () => {
        const browser = new Browser(ward);
        await codeFor(ward, { browser });
        const silent = await browser.get(codeRequest({ prompt: 'none' }));
        assert.ok(location(silent).searchParams.get('code'), 'signed in: a code, no page');
        const stranger = await new Browser(ward).get(codeRequest({ prompt: 'none' }));
        assertErrorRedirect(stranger, CB, 'login_required', ward.url);
      },
      login: async () => {
        const browser = new Browser(ward);
        await codeFor(ward, { browser });
        assert.ok(location(await browser.get(codeRequest())).searchParams.get('code'), 'the session answers alone');
        const page = await browser.get(codeRequest({ prompt: 'login' }));
        assert.equal(page.status, 200, 'prompt=login shows the login page despite the session');
        assert.match(await page.text(), /name="password"/);
      },
      consent: async () => {
        // A third-party client: its consent page, even in a session that already consented.
        const browser = new Browser(ward);
        const { user } = await codeFor(ward, { browser });
        await ward.registry.storage.consents.grant(user.id, 'partner', ['openid', 'profile'], Date.now());
        const asked = { client_id: 'partner', scope: 'openid profile' };
        assert.ok(location(await browser.get(codeRequest(asked))).searchParams.get('code'), 'granted: no page');
        const page = await browser.get(codeRequest({ ...asked, prompt: 'consent' }));
        assert.equal(page.status, 200, 'prompt=consent shows the consent page');
        assert.match(await page.text(), /name="decision" value="allow"/);
        // A first-party client has no consent page: consent_required, as before.
        await refusedAtAuthorize({ prompt: 'consent' }, 'consent_required')();
        await refusedAtAuthorize({ prompt: 'login consent' }, 'consent_required')();
      },
    },
    scopes_supported: {
      openid: async () => {
        assert.ok((await tokens('openid')).id_token);
        assert.equal((await tokens('profile')).id_token, undefined, 'no id_token without openid');
      },
      profile: async () => {
        assert.equal((await userinfoBody((await tokens('openid profile')).access_token!)).given_name, 'Ada');
      },
      email: async () => {
        const { email } = await userinfoBody((await tokens('openid email')).access_token!);
        assert.match(String(email), /@example\.com$/);
      },
      phone: async () => {
        const number = phone();
        const body = await tokens('openid phone', { phone_number: number });
        assert.equal((await userinfoBody(body.access_token!)).phone_number, number);
      },
      address: async () => {
        const address = { locality: 'Paris', country: 'FR' };
        assert.deepEqual(
          (await userinfoBody((await tokens('openid address', { address })).access_token!)).address,
          address,
        );
      },
      mfa: async () => {
        const body = await tokens('openid mfa');
        assert.ok(body.scope!.split(' ').includes('mfa'));
        const res = await ward.fetch('/identity/v1/mfa/credentials', bearer(body.access_token!));
        assert.equal(res.status, 200, 'the token serves the MFA credentials API');
      },
      offline_access: async () => {
        assert.ok((await tokens('openid offline_access')).refresh_token);
        assert.equal((await tokens('openid')).refresh_token, undefined);
      },
    },
    grant_types_supported: {
      authorization_code: async () => assert.ok((await tokens('openid')).access_token),
      refresh_token: async () => {
        const body = await tokens('openid offline_access');
        const form = { grant_type: 'refresh_token', refresh_token: body.refresh_token!, client_id: 'spa' };
        await expectTokens(await tokenRequest(ward, form));
      },
      client_credentials: async () => {
        const form = { grant_type: 'client_credentials', client_id: 'ops', client_secret: OPS_SECRET };
        await expectTokens(await tokenRequest(ward, form));
      },
      implicit: implicitWorks,
      password: async () => {
        const { user } = await tkn('password-app');
        const form = {
          grant_type: 'password',
          username: user.email,
          password: user.password,
          client_id: 'password-app',
        };
        assert.equal((await userinfo((await expectTokens(await tokenRequest(ward, form))).access_token!)).status, 200);
        // Opt-in: a client that does not list it is refused.
        await expectError(await tokenRequest(ward, { ...form, client_id: 'spa' }), 400, 'unauthorized_client');
      },
      // RFC 8628: the device_authorization_endpoint answers, and a poll is told to wait for the user.
      [DEVICE_GRANT]: async () => {
        const res = await ward.fetch(discovery.device_authorization_endpoint as string, {
          method: 'POST',
          body: new URLSearchParams({ client_id: 'device-app', scope: 'openid' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(res.status, 200);
        const { device_code } = (await res.json()) as { device_code: string };
        const form = { grant_type: DEVICE_GRANT, device_code, client_id: 'device-app' };
        await expectError(await tokenRequest(ward, form), 400, 'authorization_pending');
        await expectError(await tokenRequest(ward, { ...form, client_id: 'spa' }), 400, 'unauthorized_client');
      },
    },
    response_types_supported: {
      id_token: async () => {
        const fragment = await oidcResponse('id_token');
        assert.equal(fragment.get('code'), null);
        assert.equal(decodeJwt(fragment.get('id_token')!).nonce, 'n-rt');
      },
      'code id_token': async () => {
        const fragment = await oidcResponse('code id_token');
        const claims = decodeJwt(fragment.get('id_token')!);
        assert.equal(claims.nonce, 'n-rt');
        assert.ok(claims.c_hash, 'c_hash binds the code');
        await redeemed(fragment.get('code')!, oidcVerifier, undefined, 'oidc-rt');
      },
      code: async () => void (await codeInMode('query')),
      token: implicitWorks,
      messenger_code: async () => {
        const { tkn: t } = await tkn('bot');
        const linking = 'https://www.facebook.com/messenger_platform/account_linking?account_linking_token=ARRtok';
        const res = await ward.fetch(
          authorizeUrl({
            client_id: 'bot',
            response_type: 'messenger_code',
            redirect_uri: linking,
            scope: 'openid',
            tkn: t,
          }),
        );
        assert.match(location(res).searchParams.get('authorization_code') ?? '', /^[A-Za-z0-9_-]{43}$/);
      },
    },
    response_modes_supported: {
      query: async () => void (await codeInMode('query')),
      fragment: async () => void (await codeInMode('fragment')),
      web_message: async () => void (await codeInMode('web_message')),
      form_post: async () => void (await codeInMode('form_post')),
    },
    code_challenge_methods_supported: {
      S256: async () => {
        const other = await codeFor(ward);
        await redeemed(other.code, pkcePair().verifier, 'invalid_grant');
        const { code, verifier } = await codeFor(ward);
        await redeemed(code, verifier);
      },
    },
    token_endpoint_auth_methods_supported: {
      client_secret_basic: async () => {
        const headers = { authorization: basic('backend', CONFIDENTIAL_SECRET) };
        await expectTokens(await tokenRequest(ward, backendGrant(await backendCode()), headers));
      },
      client_secret_post: async () => {
        const form = { ...backendGrant(await backendCode()), client_id: 'backend', client_secret: CONFIDENTIAL_SECRET };
        await expectTokens(await tokenRequest(ward, form));
      },
      none: async () => {
        const { code, verifier } = await codeFor(ward);
        await redeemed(code, verifier);
      },
      private_key_jwt: async () =>
        void (await expectTokens(await tokenRequest(ward, await asserted('keyed', 'ES256')))),
      client_secret_jwt: async () =>
        void (await expectTokens(await tokenRequest(ward, await asserted('signed', 'HS256')))),
    },
  };
  /** A client_credentials request authenticated by a client assertion (RFC 7523) signed with `alg`. */
  async function asserted(clientId: string, alg: string): Promise<Record<string, string>> {
    const key = alg.startsWith('HS') ? new TextEncoder().encode(SIGNED_SECRET) : assertionKeys[alg]!;
    const now = Math.floor(ward.clock.now() / 1000);
    const assertion = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg, ...(alg.startsWith('HS') ? {} : { kid: alg }) })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(ward.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key);
    return { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: assertion };
  }
  SUPPORTED.token_endpoint_auth_signing_alg_values_supported = Object.fromEntries(
    [...KEY_ALGS, 'HS256', 'HS384', 'HS512'].map((alg) => [
      alg,
      async () =>
        void (await expectTokens(
          await tokenRequest(ward, await asserted(alg.startsWith('HS') ? 'signed' : 'keyed', alg)),
        )),
    ]),
  );

  /** Introspects the public client's access token as the resource server; the answer's `active`. */
  async function introspected(form: Record<string, string>, headers: Record<string, string> = {}) {
    const token = (await tokens('openid')).access_token!;
    // The endpoint discovery names.
    return ward.fetch(String(discovery.introspection_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ token, ...form }).toString(),
    });
  }
  const active = async (res: Response) => {
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.equal((JSON.parse(text) as { active: boolean }).active, true, text);
  };
  SUPPORTED.introspection_endpoint_auth_methods_supported = {
    client_secret_basic: async () => active(await introspected({}, { authorization: basic('api', API_SECRET) })),
    client_secret_post: async () => active(await introspected({ client_id: 'api', client_secret: API_SECRET })),
    private_key_jwt: async () => {
      const { grant_type: _g, ...auth } = await asserted('api-keyed', 'EdDSA');
      await active(await introspected(auth));
    },
    client_secret_jwt: async () => {
      const { grant_type: _g, ...auth } = await asserted('api-signed', 'HS384');
      await active(await introspected(auth));
    },
  };

  /** A code redeemed with a DPoP proof signed with `alg` (iat: the test Ward's clock): a DPoP token, or `error`. */
  const dpopProof = (alg: string, error?: string) => async () => {
    const key = await proofKey(alg);
    const { code, verifier } = await codeFor(ward);
    const proof = await makeProof(key, {
      htm: 'POST',
      htu: String(discovery.token_endpoint),
      iat: Math.floor(ward.clock.now() / 1000),
    });
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: 'spa',
      redirect_uri: CB,
      code_verifier: verifier,
    };
    const res = await tokenRequest(ward, form, { dpop: proof });
    if (error) return void (await expectError(res, 400, error));
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.equal((JSON.parse(text) as { token_type: string }).token_type, 'DPoP');
  };
  const DPOP_ALGS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'EdDSA', 'Ed25519'];
  SUPPORTED.dpop_signing_alg_values_supported = Object.fromEntries(DPOP_ALGS.map((alg) => [alg, dpopProof(alg)]));

  const REFUSED: Record<string, Record<string, Check>> = {
    dpop_signing_alg_values_supported: { RS384: dpopProof('RS384', 'invalid_dpop_proof') },
    prompt_values_supported: {
      select_account: refusedAtAuthorize({ prompt: 'select_account' }, 'account_selection_required'),
    },
    scopes_supported: { calendar: refusedAtAuthorize({ scope: 'openid calendar' }, 'invalid_scope') },
    grant_types_supported: {
      'urn:ietf:params:oauth:grant-type:jwt-bearer': async () => {
        const form = {
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: 'eyJhbGciOiJub25lIn0.e30.',
          client_id: 'spa',
        };
        await expectError(await tokenRequest(ward, form), 400, 'unsupported_grant_type');
      },
    },
    introspection_endpoint_auth_methods_supported: {
      none: async () => {
        await expectError(await introspected({ client_id: 'spa' }), 401, 'invalid_client');
      },
    },
    response_types_supported: {
      'code token': refusedAtAuthorize({ response_type: 'code token' }, 'unsupported_response_type'),
      'id_token token': refusedAtAuthorize({ response_type: 'id_token token' }, 'unsupported_response_type'),
    },
    response_modes_supported: {
      'form_post.jwt': refusedAtAuthorize({ response_mode: 'form_post.jwt' }, 'invalid_request'),
    },
    code_challenge_methods_supported: {
      plain: refusedAtAuthorize({ code_challenge_method: 'plain' }, 'invalid_request'),
    },
    token_endpoint_auth_signing_alg_values_supported: {
      none: async () => {
        const now = Math.floor(ward.clock.now() / 1000);
        const claims = { iss: 'keyed', sub: 'keyed', aud: ward.issuer, jti: randomUUID(), exp: now + 60 };
        const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
        const form = {
          grant_type: 'client_credentials',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: unsigned,
        };
        await expectError(await tokenRequest(ward, form), 401, 'invalid_client');
      },
    },
  };

  for (const [field, table] of Object.entries(SUPPORTED)) {
    it(`${field}: each listed value works, and every value that works is listed`, async () => {
      const listed = discovery[field] as string[];
      assert.ok(Array.isArray(listed), `${field} is in discovery`);
      assert.deepEqual([...listed].sort(), Object.keys(table).sort(), `${field} lists exactly the values tested here`);
      for (const value of listed) {
        await table[value]!().catch((e: Error) => assert.fail(`${field} lists ${value}, which fails: ${e.message}`));
      }
    });
  }

  for (const [field, table] of Object.entries(REFUSED)) {
    it(`${field}: values left out are refused`, async () => {
      for (const [value, refused] of Object.entries(table)) {
        assert.ok(!(discovery[field] as string[]).includes(value), `${field} does not list ${value}`);
        await refused().catch((e: Error) => assert.fail(`${field}: ${value} is not refused: ${e.message}`));
      }
    });
  }

  const FULL_PROFILE = {
    middle_name: 'King',
    nickname: 'ada',
    picture: 'https://pics.example/ada.png',
    website: 'https://ada.example',
    gender: 'female',
    birthdate: '1815-12-10',
    zoneinfo: 'Europe/London',
    locale: 'en-GB',
    address: { locality: 'London' },
    profile_url: 'https://ada.example/me',
    username: 'ada.l',
  };
  it('claims_supported: every listed claim is in the ID token or the userinfo answer of a full profile', async () => {
    const body = await tokens('openid profile email phone address', { phone_number: phone(), ...FULL_PROFILE });
    const seen = { ...decodeJwt(body.id_token!), ...(await userinfoBody(body.access_token!)) };
    for (const claim of discovery.claims_supported as string[]) assert.ok(claim in seen, `${claim} never released`);
  });

  it('end_session_endpoint, backchannel_logout_supported, backchannel_logout_session_supported: logout works', async () => {
    assert.equal(discovery.backchannel_logout_supported, true);
    assert.equal(discovery.backchannel_logout_session_supported, true);
    const endpoint = new URL(discovery.end_session_endpoint as string);
    const browser = new Browser(ward);
    const { code, verifier } = await codeFor(ward, { clientId: 'logout-rp', redirectUri: CB, browser });
    const { body } = await redeem(ward, code, verifier, 'logout-rp', CB);
    const sid = decodeJwt(body.id_token!).sid;
    assert.equal(typeof sid, 'string', 'sid is in the ID token');
    const arrived = new Promise<void>((resolve) => {
      tokenArrived = resolve;
    });
    endpoint.search = new URLSearchParams({
      id_token_hint: body.id_token!,
      post_logout_redirect_uri: 'https://app.example/bye',
      state: 'st',
    }).toString();
    const res = await browser.get(endpoint.toString());
    assert.equal(location(res).toString(), 'https://app.example/bye?state=st');
    await arrived;
    const token = decodeJwt(logoutTokens[0]!);
    assert.equal(token.sid, sid, 'the logout_token names the session');
    assert.deepEqual(token.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
  });

  it('request objects: an unsigned one is invalid_request_object, request_uri= request_uri_not_supported', async () => {
    assert.equal(discovery.request_parameter_supported, true);
    assert.equal(discovery.request_uri_parameter_supported, false);
    const object = 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.';
    await refusedAtAuthorize({ request: object }, 'invalid_request_object')();
    await refusedAtAuthorize({ request_uri: 'https://app.example/request.jwt' }, 'request_uri_not_supported')();
    await refusedAtAuthorize({ request_uri: 'urn:ietf:params:oauth:request_uri:abc' }, 'request_uri_not_supported')();
    // Delivered the way the request asked, like the other errors: in the fragment for response_mode=fragment.
    const res = await ward.fetch(codeRequest({ request: object, response_mode: 'fragment' }));
    assert.equal(new URLSearchParams(location(res).hash.slice(1)).get('error'), 'invalid_request_object');
    // Never redirected to a redirect_uri that is not registered.
    const page = await ward.fetch(codeRequest({ request: object, redirect_uri: 'https://evil.example/cb' }));
    assert.equal(page.status, 400);
    assert.equal(page.headers.get('location'), null);
    // Not an error when empty (an absent parameter, as for the others), and a normal request still works.
    const { tkn: t } = await tkn();
    const plain = await ward.fetch(codeRequest({ request: '', request_uri: '', tkn: t }));
    assert.ok(location(plain).searchParams.get('code'));
  });
});

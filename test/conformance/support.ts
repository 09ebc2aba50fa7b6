// What the conformance tests share (test/conformance/, docs/conformance.md): a Ward with the relying
// parties the OpenID Foundation's OP test plans register (a confidential client_secret_basic client
// signing its ID tokens with RS256, a second client for the client_secret_post variant), a loopback
// back-channel receiver, openid-client configured from discovery, and a sign-in through the hosted
// login page in a Browser (a cookie jar: the SSO session the prompt and max_age modules lean on).
import assert from 'node:assert/strict';
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch, type Response } from 'undici';
import { Receiver } from '../helpers/backchannel-receiver.js';
import { Browser } from '../helpers/browser.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

export const RP_SECRET = 'conformance-rp-secret-of-at-least-32-bytes!';
export const LOGGED_OUT = 'https://rp.example/logged-out';
export const NO_LIMITS = {
  rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
};

export interface Suite {
  ward: TestWard;
  receiver: Receiver;
  /** The registered redirect_uri of both clients (on the receiver's origin: back-channel logout needs it). */
  redirectUri: string;
  close(): Promise<void>;
}

/** A Ward with `rp` (client_secret_basic) and `rp-post` (client_secret_post), both RS256, SSO, back-channel. */
export async function startSuite(engine: 'sqlite' | 'postgres'): Promise<Suite> {
  const receiver = new Receiver();
  await receiver.start();
  const redirectUri = `${receiver.url}/cb`;
  const rp = (clientId: string, method: string) => ({
    client_id: clientId,
    name: `Conformance ${clientId}`,
    type: 'confidential',
    client_secret: RP_SECRET,
    token_endpoint_auth_method: method,
    jwt_algorithm: 'RS256',
    allowed_callback_urls: [redirectUri],
    // The Basic plans ask for code; the hash checks also use the other response types discovery lists.
    response_types: ['code', 'id_token', 'code id_token'],
    post_logout_redirect_uris: [LOGGED_OUT],
    backchannel_logout_uri: `${receiver.url}/backchannel/${clientId}`,
    backchannel_logout_session_required: true,
    sso: true,
    scope: 'openid profile email phone address offline_access',
  });
  const ward = await startWard({
    engine,
    account: NO_LIMITS,
    clients: [rp('rp', 'client_secret_basic'), rp('rp-post', 'client_secret_post')],
  });
  return {
    ward,
    receiver,
    redirectUri,
    async close() {
      await ward.close();
      await receiver.close();
    },
  };
}

/** openid-client's Configuration from Ward's discovery, for `rp` (Basic) or `rp-post` (Post). */
export async function rpConfig(ward: TestWard, clientId: 'rp' | 'rp-post' = 'rp'): Promise<client.Configuration> {
  const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
  const auth = clientId === 'rp' ? client.ClientSecretBasic(RP_SECRET) : client.ClientSecretPost(RP_SECRET);
  const config = await client.discovery(
    new URL(ward.url),
    clientId,
    { client_secret: RP_SECRET, id_token_signed_response_alg: 'RS256' },
    auth,
    { [client.customFetch]: tlsFetch },
  );
  config[client.customFetch] = tlsFetch;
  client.enableNonRepudiationChecks(config);
  return config;
}

/**
 * Where an authorization answer sends the browser: a redirect's Location, or the URL the display=popup
 * page goes on to when no window opened it (popup-response.ts: a plain relying party's popup).
 */
export async function answerUrl(res: Response): Promise<URL> {
  if (res.status === 302 || res.status === 303) return location(res);
  assert.equal(res.status, 200, `a redirect or the popup page, got ${res.status}`);
  const fallback = /,u=("[^"]*"),w=window\.opener/.exec(await res.text())?.[1];
  assert.ok(fallback, 'the popup page names where it goes without an opener');
  return new URL(JSON.parse(fallback) as string);
}

/** The hidden login form's fields in an authorize page: a page that is one (a prompt for credentials). */
export const isLoginPage = (html: string) => /name="interaction"/.test(html) && /name="password"/.test(html);

export interface SignIn {
  user: { email: string; password: string; id: string };
  browser: Browser;
  callback: URL;
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  nonce: string;
  state: string;
}

/**
 * An authorization request built by openid-client from discovery (code flow, no PKCE as the Basic plan's
 * static client sends it), answered by the hosted login page when the browser has no session, then
 * the code redeemed with openid-client's checks (state, nonce, ID token signature, iss, aud, exp, iat).
 */
export async function signIn(
  suite: Suite,
  opts: {
    config?: client.Configuration;
    browser?: Browser;
    user?: SignIn['user'];
    params?: Record<string, string>;
    /** true: a login page must be shown (false: it must not). */
    expectLogin?: boolean;
    maxAge?: number;
  } = {},
): Promise<SignIn> {
  const { ward } = suite;
  const config = opts.config ?? (await rpConfig(ward));
  const browser = opts.browser ?? new Browser(ward);
  const user = opts.user ?? (await signup(ward, config.clientMetadata().client_id));
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: suite.redirectUri,
    scope: 'openid',
    state,
    nonce,
    ...opts.params,
    ...(opts.maxAge !== undefined ? { max_age: String(opts.maxAge) } : {}),
  });
  let res: Response = await browser.get(url.toString());
  if (res.status === 200) {
    const html = await res.text();
    assert.ok(isLoginPage(html), 'a login page');
    assert.notEqual(opts.expectLogin, false, 'no login page expected');
    res = await submitLoginPage(browser, html, user.email, user.password);
  } else {
    assert.notEqual(opts.expectLogin, true, `a login page expected, got ${res.status}`);
  }
  const callback = await answerUrl(res);
  assert.equal(`${callback.origin}${callback.pathname}`, suite.redirectUri);
  const tokens = await client.authorizationCodeGrant(
    config,
    callback,
    { expectedState: state, expectedNonce: nonce, ...(opts.maxAge !== undefined ? { maxAge: opts.maxAge } : {}) },
    undefined,
  );
  return { user, browser, callback, tokens, nonce, state };
}

/** Verifies a JWT against Ward's published JWKS (jose, fetched over HTTPS like a relying party). */
export async function verifyWithJwks(
  ward: TestWard,
  jwt: string,
  opts: { audience: string; typ?: string },
): Promise<{ payload: JWTPayload; header: Record<string, unknown> }> {
  const jwks = createRemoteJWKSet(new URL(`${ward.url}/jwks.json`), {
    [customFetch]: ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never,
  });
  const { payload, protectedHeader } = await jwtVerify(jwt, jwks, {
    issuer: ward.issuer,
    audience: opts.audience,
    ...(opts.typ ? { typ: opts.typ } : {}),
    currentDate: new Date(ward.clock.now()),
  });
  return { payload, header: protectedHeader as Record<string, unknown> };
}

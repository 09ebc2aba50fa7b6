// What the tests of a user's own sign-ins share (the JSON API's and the account page's): a Ward whose SSO
// client sends back-channel logout to a loopback receiver, two browsers' User-Agents, and a sign-in of
// one browser (a tkn, then the authorize redirect with its User-Agent, the code redeemed).
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { Receiver } from './backchannel-receiver.js';
import type { Browser } from './browser.js';
import { authorizeUrl, location, passwordLogin, pkcePair, redeem } from './oauth.js';
import { startWard, type TestWard } from './ward.js';

export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A Ward with the `spa` SSO client, whose back-channel logout goes to the returned receiver. */
export async function startSignInsWard(engine: 'sqlite' | 'postgres'): Promise<{ ward: TestWard; rp: Receiver }> {
  const rp = new Receiver();
  await rp.start();
  const ward = await startWard({
    engine,
    clients: [
      {
        client_id: 'spa',
        type: 'public',
        allowed_callback_urls: ['https://app.example/cb', `${rp.url}/cb`],
        backchannel_logout_uri: `${rp.url}/backchannel`,
        sso: true,
      },
    ],
    account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
  });
  return { ward, rp };
}

/** Signs `user` in in `browser` with its User-Agent: the session's tokens and its `sid`. */
export async function signInAs(
  ward: TestWard,
  browser: Browser,
  user: { email: string; password: string },
  ua: string,
  scope: string,
): Promise<{ access: string; refresh: string; sid: string }> {
  const pkce = pkcePair();
  const tkn = await passwordLogin(ward, user.email, user.password, 'spa', scope);
  const res = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      tkn,
    }),
    { 'user-agent': ua },
  );
  const code = location(res).searchParams.get('code');
  assert.ok(code, `a code: ${res.headers.get('location')}`);
  const { body } = await redeem(ward, code, pkce.verifier);
  assert.ok(body.access_token && body.refresh_token && body.id_token, JSON.stringify(body));
  return { access: body.access_token, refresh: body.refresh_token, sid: decodeJwt(body.id_token).sid as string };
}

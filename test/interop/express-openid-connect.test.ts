// express-openid-connect (Auth0's Express middleware) with its defaults against Ward: discovery, then
// response_type=id_token with response_mode=form_post and a nonce, through Ward's hosted login page;
// the middleware checks the ID token (signature through the JWKS, iss, aud, nonce) and opens its own
// session. The app is a real Express server on loopback; the user agent is one cookie jar for both.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import eoc from 'express-openid-connect';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { submitLoginPage } from '../helpers/hosted-login.js';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('express-openid-connect with its defaults against Ward', () => {
  let ward: TestWard;
  let server: Server;
  let appUrl: string;
  before(async () => {
    const app = express();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    appUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    ward = await startWard({
      clients: [
        {
          client_id: 'express-app',
          type: 'public',
          allowed_callback_urls: [`${appUrl}/callback`],
          response_types: ['id_token'],
          post_logout_redirect_uris: [appUrl, `${appUrl}/`],
        },
        {
          client_id: 'code-only',
          type: 'public',
          allowed_callback_urls: [`${appUrl}/callback`],
        },
      ],
    });
    app.use(
      eoc.auth({
        issuerBaseURL: ward.url,
        baseURL: appUrl,
        clientID: 'express-app',
        secret: 'a long secret for the cookie of the app session',
        authRequired: false,
        idpLogout: true,
        customFetch: ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never,
      }),
    );
    app.get('/profile', eoc.requiresAuth(), (req, res) => {
      res.json({ user: req.oidc.user, claims: req.oidc.idTokenClaims });
    });
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ward?.close();
  });

  it('signs in: id_token by form_post through the hosted login page, checked by the middleware', async () => {
    const user = await signup(ward, 'express-app');
    const browser = new Browser(ward);
    const login = await browser.get(`${appUrl}/login`);
    assert.equal(login.status, 302);
    const authorize = new URL(login.headers.get('location')!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${ward.url}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('response_type'), 'id_token');
    assert.equal(authorize.searchParams.get('response_mode'), 'form_post');
    const page = await browser.get(authorize.toString());
    assert.equal(page.status, 200);
    const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
    assert.equal(posted.status, 200, 'the form_post page');
    const form = await posted.text();
    assert.match(form, new RegExp(`action="${appUrl}/callback"`));
    assert.equal(field(form, 'code'), undefined, 'an ID token only');
    const callback = await browser.postForm(`${appUrl}/callback`, {
      id_token: field(form, 'id_token')!,
      state: field(form, 'state')!,
      iss: field(form, 'iss')!,
    });
    assert.equal(callback.status, 302, await callback.clone().text());
    const profile = await browser.get(`${appUrl}/profile`);
    assert.equal(profile.status, 200);
    const body = (await profile.json()) as { user: Record<string, unknown>; claims: Record<string, unknown> };
    assert.equal(body.user.email, user.email);
    assert.equal(body.claims.iss, ward.url);
    assert.equal(body.claims.aud, 'express-app');
    assert.ok(body.claims.nonce);
  });

  it('signs out at Ward with idpLogout: the SSO session ends and the browser is back at the app', async () => {
    const user = await signup(ward, 'express-app');
    const browser = new Browser(ward);
    const authorize = new URL((await browser.get(`${appUrl}/login`)).headers.get('location')!);
    const page = await browser.get(authorize.toString());
    const form = await (await submitLoginPage(browser, await page.text(), user.email, user.password)).text();
    const callback = await browser.postForm(`${appUrl}/callback`, {
      id_token: field(form, 'id_token')!,
      state: field(form, 'state')!,
      iss: field(form, 'iss')!,
    });
    assert.equal(callback.status, 302);
    assert.equal((await browser.get(`${appUrl}/profile`)).status, 200);
    const logout = await browser.get(`${appUrl}/logout`);
    assert.equal(logout.status, 302);
    const endSession = new URL(logout.headers.get('location')!);
    assert.equal(`${endSession.origin}${endSession.pathname}`, `${ward.url}/identity/v1/logout`);
    assert.ok(endSession.searchParams.get('id_token_hint'), 'the middleware sends its ID token as the hint');
    const back = await browser.get(endSession.toString());
    assert.equal(back.status, 302, 'tied to the session by the hint: no confirmation page');
    const landing = new URL(back.headers.get('location')!);
    assert.equal(landing.origin, appUrl);
    assert.equal(back.headers.get('location'), endSession.searchParams.get('post_logout_redirect_uri'), 'exactly');
    const sso = await browser.get('/identity/v1/sso/data?client_id=express-app');
    assert.equal(((await sso.json()) as { is_authenticated: boolean }).is_authenticated, false, 'Ward session ended');
    assert.notEqual((await browser.get(`${appUrl}/profile`)).status, 200, 'the app session ended too');
  });

  it('refuses the id_token response type to a client that does not list it', async () => {
    const browser = new Browser(ward);
    const res = await browser.get(
      `/oauth/authorize?client_id=code-only&response_type=id_token&response_mode=form_post&scope=openid&nonce=n1&redirect_uri=${encodeURIComponent(`${appUrl}/callback`)}`,
    );
    assert.equal(res.status, 200);
    assert.equal(field(await res.text(), 'error'), 'unauthorized_client');
  });
});

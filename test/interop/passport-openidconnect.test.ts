// passport-openidconnect (Passport's OpenID Connect strategy) with express-session against Ward, as its
// README sets it up: the endpoints from Ward's discovery document, a confidential client
// (client_secret_post, no PKCE: the strategy sends none), the state in the app's session. Sign-in goes
// through Ward's hosted login page; the strategy checks the ID token's iss, aud, exp and nonce and hands
// the profile to the app: from the ID token's claims with the usual verify(issuer, profile, cb), and from
// the userinfo endpoint too with the long verify signature. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import session from 'express-session';
import { Passport } from 'passport';
import { Strategy, type Profile, type VerifyCallback } from 'passport-openidconnect';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const SECRET = 'the passport app secret, at least 32 bytes long';

interface Signed {
  issuer: string;
  profile: Profile & { _json?: Record<string, unknown> };
}

for (const engine of engines()) {
  describe(`passport-openidconnect with express-session against Ward (${engine})`, () => {
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
        engine,
        clients: [
          {
            client_id: 'passport-app',
            type: 'confidential',
            client_secret: SECRET,
            jwt_algorithm: 'RS256',
            allowed_callback_urls: [`${appUrl}/cb`, `${appUrl}/cb-userinfo`],
          },
        ],
      });
      const discovery = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<
        string,
        string
      >;
      const common = {
        issuer: discovery.issuer!,
        authorizationURL: discovery.authorization_endpoint!,
        tokenURL: discovery.token_endpoint!,
        userInfoURL: discovery.userinfo_endpoint!,
        clientID: 'passport-app',
        clientSecret: SECRET,
        scope: ['profile', 'email'],
        // Ward's development certificate, trusted by this app only.
        agent: new Agent({ ca: ward.ca }),
      };
      const passport = new Passport();
      passport.use(
        'ward',
        new Strategy(
          { ...common, callbackURL: `${appUrl}/cb` },
          (issuer: string, profile: Profile, cb: VerifyCallback) => cb(null, { issuer, profile }),
        ),
      );
      passport.use(
        'ward-userinfo',
        new Strategy(
          { ...common, callbackURL: `${appUrl}/cb-userinfo` },
          (
            issuer: string,
            userinfo: object,
            _idProfile: object,
            _context: object,
            _idToken: string | object,
            _accessToken: string | object,
            _refreshToken: string,
            _params: unknown,
            cb: VerifyCallback,
          ) => cb(null, { issuer, profile: userinfo }),
        ),
      );
      passport.serializeUser((user, cb) => cb(null, user));
      passport.deserializeUser((user: Express.User, cb) => cb(null, user));
      app.use(session({ secret: 'the session secret of the app', resave: false, saveUninitialized: false }));
      app.use(passport.authenticate('session'));
      app.get('/login', passport.authenticate('ward'));
      app.get('/login-userinfo', passport.authenticate('ward-userinfo'));
      const done = { successRedirect: '/profile', failureRedirect: '/failed', failureMessage: true };
      app.get('/cb', passport.authenticate('ward', done));
      app.get('/cb-userinfo', passport.authenticate('ward-userinfo', done));
      app.get('/failed', (req, res) => {
        res.status(401).json({ messages: (req.session as unknown as { messages?: string[] }).messages });
      });
      app.get('/profile', (req, res) => {
        if (!req.user) return res.status(401).json({ signedIn: false });
        res.json(req.user);
      });
    });
    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      await ward?.close();
    });

    /** The app's /login, Ward's hosted login page, the callback: what the app's /profile then shows. */
    async function signIn(
      start: string,
      callbackPath: string,
    ): Promise<{ user: { id: string; email: string } } & Signed> {
      const user = await signup(ward, 'passport-app');
      const browser = new Browser(ward);
      const login = await browser.get(`${appUrl}${start}`);
      assert.equal(login.status, 302);
      const authorize = location(login);
      assert.equal(`${authorize.origin}${authorize.pathname}`, `${ward.url}/oauth/authorize`);
      assert.equal(authorize.searchParams.get('response_type'), 'code');
      assert.equal(authorize.searchParams.get('scope'), 'openid profile email');
      assert.equal(authorize.searchParams.get('code_challenge'), null, 'the strategy sends no PKCE');
      const page = await browser.get(authorize.toString());
      assert.equal(page.status, 200);
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const back = location(posted);
      assert.equal(`${back.origin}${back.pathname}`, `${appUrl}${callbackPath}`);
      const callback = await browser.get(back.toString());
      assert.equal(callback.status, 302, await callback.clone().text());
      assert.equal(callback.headers.get('location'), '/profile');
      const profile = await browser.get(`${appUrl}/profile`);
      assert.equal(profile.status, 200);
      return { user, ...((await profile.json()) as Signed) };
    }

    it('signs in through the hosted login page: the profile comes from the ID token', async () => {
      const { user, issuer, profile } = await signIn('/login', '/cb');
      assert.equal(issuer, ward.url);
      assert.equal(profile.id, user.id);
      assert.deepEqual(profile.emails, [{ value: user.email }]);
      assert.equal(profile.name?.givenName, 'Ada');
      assert.equal(profile.name?.familyName, 'Lovelace');
    });

    it('signs in and loads the profile from the userinfo endpoint', async () => {
      const { user, profile } = await signIn('/login-userinfo', '/cb-userinfo');
      assert.equal(profile.id, user.id);
      assert.deepEqual(profile.emails, [{ value: user.email }]);
      assert.equal(profile._json?.sub, user.id, "the userinfo endpoint's own answer");
    });

    it('refuses a callback whose state is not the one the app sent', async () => {
      const browser = new Browser(ward);
      const login = await browser.get(`${appUrl}/login`);
      assert.equal(login.status, 302);
      const res = await browser.get(`${appUrl}/cb?code=forged&state=forged`);
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), '/failed');
    });
  });
}

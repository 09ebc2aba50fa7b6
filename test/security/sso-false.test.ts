// Issue 33, item 8: `sso: false` is honoured. For a client with `sso: false` (the console
// `ward-console` included) no session of the browser answers /oauth/authorize: prompt=none gets
// login_required, without prompt the login page is shown; not even a session that client's own
// sign-in started (the Core SDK refuses checkSession and loginFromSession for it as well). Its users'
// sessions are still told to no one through it: /sso/data says not signed in and the SSO cookie is no
// credential for its step-up. The same browser's session keeps answering a client with `sso: true`.
// Real HTTP, SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import type { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { giveFactors } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, codeFor, location, pkcePair } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { startSecurityWard } from './support.js';

const INTRANET = {
  client_id: 'intranet',
  name: 'Intranet',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://intranet.example/cb'],
  allowed_origins: ['https://intranet.example'],
  sso: false,
};

for (const engine of engines()) {
  describe(`issue 33 item 8: sso: false is honoured (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startSecurityWard({ engine, clients: [PUBLIC_CLIENT, INTRANET] });
    });
    after(() => ward.close());

    const request = (clientId: string, redirectUri: string, prompt?: string) =>
      authorizeUrl({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        state: 'st-1',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        prompt,
      });
    const spa = (prompt?: string) => request('spa', 'https://app.example/cb', prompt);
    const intranet = (prompt?: string) => request('intranet', 'https://intranet.example/cb', prompt);
    const consoleRequest = (prompt?: string) => request('ward-console', `${ward.issuer}/console/callback`, prompt);

    function assertLoginRequired(res: Response, callback: string, what: string): void {
      assert.equal(res.status, 302, what);
      const loc = location(res);
      assert.equal(`${loc.origin}${loc.pathname}`, callback, what);
      assert.equal(loc.searchParams.get('error'), 'login_required', what);
      assert.equal(loc.searchParams.get('code'), null, what);
      assert.equal(loc.searchParams.get('state'), 'st-1', what);
    }
    async function assertLoginPage(res: Response, what: string): Promise<void> {
      assert.equal(res.status, 200, what);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, what);
      assert.match(await res.text(), /name="password"/, what);
    }
    async function assertSignedInFor(browser: Browser, what: string): Promise<void> {
      const res = await browser.get(spa('none'));
      assert.equal(res.status, 302, what);
      assert.ok(location(res).searchParams.get('code'), `${what}: the session answers a client with sso: true`);
    }

    it('a session another client started answers no request of a client with sso: false', async () => {
      const { browser } = await codeFor(ward);
      await assertSignedInFor(browser, 'signed in through spa');
      assertLoginRequired(await browser.get(intranet('none')), 'https://intranet.example/cb', 'prompt=none');
      await assertLoginPage(await browser.get(intranet()), 'no prompt: the login page, no silent sign-in');
    });

    it('the console (ward-console) is no exception', async () => {
      const { browser } = await codeFor(ward);
      assertLoginRequired(await browser.get(consoleRequest('none')), `${ward.issuer}/console/callback`, 'prompt=none');
      await assertLoginPage(await browser.get(consoleRequest()), 'no prompt');
    });

    it('nor does a session the same client’s own sign-in started (no SSO for it at all)', async () => {
      const { browser } = await codeFor(ward, { clientId: 'intranet', redirectUri: 'https://intranet.example/cb' });
      assert.ok(await browser.cookieValue('__Host-ward_sso'), 'its sign-in started the browser’s session');
      assertLoginRequired(await browser.get(intranet('none')), 'https://intranet.example/cb', 'prompt=none');
      await assertLoginPage(await browser.get(intranet()), 'no prompt');
      await assertSignedInFor(browser, 'the browser’s session is still the session of the clients with sso: true');
    });

    it('the session is told to no one through it: /sso/data and the cookie step-up', async () => {
      const { browser, user } = await codeFor(ward);
      // A factor to step up with: only the credential is refused, nothing else.
      await giveFactors(ward, user.id, { email: user.email });
      const data = await browser.get('/identity/v1/sso/data?client_id=intranet', {
        origin: 'https://intranet.example',
      });
      assert.equal(data.status, 200);
      assert.deepEqual(await data.json(), { is_authenticated: false });

      const stepUp = await browser.postJson(
        '/identity/v1/mfa/stepup',
        {
          client_id: 'intranet',
          response_type: 'code',
          redirect_uri: 'https://intranet.example/cb',
          scope: 'openid',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        },
        { origin: 'https://intranet.example' },
      );
      const body = (await stepUp.json()) as Record<string, unknown>;
      assert.equal(stepUp.status, 401, JSON.stringify(body));
      assert.equal(body.error, 'invalid_token');
      assert.equal(body.token, undefined);
    });
  });
}

// The OpenID Foundation's Form Post Basic OP test plan (oidcc-formpost-basic-certification-test-plan):
// the Basic plan's modules with response_mode=form_post, written here from what they check. Every
// answer (a code or an error) reaches the redirect_uri as a POST of a form-encoded body, never in a
// URL: the page is one auto-submitting form whose action is the redirect_uri and whose fields are
// exactly the response's. openid-client redeems the posted response as a relying party would (a
// Request). test/protocol/form-post-chromium.test.ts watches a real browser submit the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import type { Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { signup } from '../helpers/oauth.js';
import { isLoginPage, rpConfig, type Suite, startSuite } from './support.js';

const unescapeHtml = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

for (const engine of engines()) {
  describe(`OIDCC Form Post Basic plan (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
      assert.ok(config.serverMetadata().response_modes_supported?.includes('form_post'));
    });
    after(() => suite.close());

    /** The auto-submitting page's fields, after checking it posts them to the redirect_uri and only there. */
    async function postedFields(res: Response): Promise<Record<string, string>> {
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('location'), null, 'no redirect: nothing in a URL');
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('cache-control') ?? '', /no-store/);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, new RegExp(`form-action [^;]*${new URL(suite.redirectUri).origin.replace(/\./g, '\\.')}`));
      const html = await res.text();
      const forms = [...html.matchAll(/<form method="post" action="([^"]*)" id="([^"]+)">/g)];
      assert.equal(forms.length, 1, 'one form');
      assert.equal(unescapeHtml(forms[0]![1]!), suite.redirectUri);
      assert.match(html, new RegExp(`<script[^>]*>document\\.getElementById\\("${forms[0]![2]}"\\)\\.submit\\(\\);`));
      const fields: Record<string, string> = {};
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        fields[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
      return fields;
    }

    /** What the browser then POSTs to the callback, as the relying party receives it. */
    const callbackRequest = (fields: Record<string, string>) =>
      new Request(suite.redirectUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });

    const authorize = (params: Record<string, string>) =>
      client
        .buildAuthorizationUrl(config, {
          redirect_uri: suite.redirectUri,
          scope: 'openid',
          response_mode: 'form_post',
          ...params,
        })
        .toString();

    /** Signs a new user in through the login page with form_post: the posted fields and the browser. */
    async function signInFormPost(params: Record<string, string> = {}, browser = new Browser(suite.ward)) {
      const user = await signup(suite.ward, 'rp');
      const page = await browser.get(authorize(params));
      const html = await page.text();
      assert.ok(isLoginPage(html));
      const fields = await postedFields(await submitLoginPage(browser, html, user.email, user.password));
      return { fields, browser, user };
    }

    describe('oidcc-server (form_post)', () => {
      it('posts code, state and iss only; openid-client redeems the posted response', async () => {
        const state = 'st-"<fp>&';
        const nonce = client.randomNonce();
        const { fields } = await signInFormPost({ state, nonce });
        assert.deepEqual(Object.keys(fields).sort(), ['code', 'iss', 'state']);
        assert.equal(fields.state, state, 'the state comes back exactly');
        assert.equal(fields.iss, suite.ward.issuer);
        const tokens = await client.authorizationCodeGrant(config, callbackRequest(fields), {
          expectedState: state,
          expectedNonce: nonce,
        });
        assert.equal(decodeJwt(tokens.id_token!).nonce, nonce);
      });
    });

    describe('oidcc-prompt-none-not-logged-in (form_post)', () => {
      it('posts login_required with the state: an error is a form post too', async () => {
        const res = await suite.ward.fetch(authorize({ prompt: 'none', state: 'st-err' }));
        const fields = await postedFields(res);
        assert.ok(['login_required', 'interaction_required'].includes(fields.error!));
        assert.equal(fields.state, 'st-err');
        assert.equal(fields.code, undefined);
      });
    });

    describe('oidcc-prompt-none-logged-in (form_post)', () => {
      it('posts a code at once when the browser has a session', async () => {
        const first = await signInFormPost();
        const res = await first.browser.get(authorize({ prompt: 'none', state: 's2' }));
        const fields = await postedFields(res);
        const tokens = await client.authorizationCodeGrant(config, callbackRequest(fields), { expectedState: 's2' });
        assert.ok(tokens.id_token);
      });
    });

    describe('oidcc-max-age-1 (form_post)', () => {
      it('shows the login page again after max_age', async () => {
        const first = await signInFormPost();
        suite.ward.clock.advance(2000);
        const res = await first.browser.get(authorize({ max_age: '1' }));
        assert.equal(res.status, 200);
        assert.ok(isLoginPage(await res.text()));
      });
    });

    describe('oidcc-codereuse (form_post)', () => {
      it('refuses the posted code the second time with invalid_grant', async () => {
        const { fields } = await signInFormPost();
        await client.authorizationCodeGrant(config, callbackRequest(fields), { expectedState: client.skipStateCheck });
        await assert.rejects(
          client.authorizationCodeGrant(config, callbackRequest(fields), { expectedState: client.skipStateCheck }),
          (e: { error?: string }) => e.error === 'invalid_grant',
        );
      });
    });

    describe('oidcc-response-type-missing (form_post)', () => {
      it('answers invalid_request or unsupported_response_type, by form post or on an error page', async () => {
        const url = new URL(authorize({ state: 'st-rt' }));
        url.searchParams.delete('response_type');
        const res = await suite.ward.fetch(url.toString());
        assert.equal(res.headers.get('location'), null, 'never in a URL');
        if (res.status === 200) {
          const fields = await postedFields(res);
          assert.ok(['invalid_request', 'unsupported_response_type'].includes(fields.error!));
        } else assert.equal(res.status, 400);
      });
    });

    describe('oidcc-ensure-registered-redirect-uri (form_post)', () => {
      it('shows an error page for an unregistered redirect_uri: no form posts to it', async () => {
        const url = new URL(authorize({}));
        url.searchParams.set('redirect_uri', 'https://attacker.example/cb');
        const res = await suite.ward.fetch(url.toString());
        assert.equal(res.status, 400);
        const html = await res.text();
        assert.ok(!html.includes('attacker.example/cb"'), 'no form to the unregistered URI');
        assert.ok(!/<form method="post" action="https:\/\/attacker/.test(html));
      });
    });
  });
}

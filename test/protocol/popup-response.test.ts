// display=popup (the Core SDK's popup mode): the authorization response is a page that answers the
// window that opened it in winchan's protocol, and only an opener of an origin the client trusts;
// with no such opener it goes on to the redirect_uri. The page's script runs here against a fake
// window; test/social/sdk-popup-chromium.test.ts runs the unmodified SDK in Chromium.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

type Listener = (e: { origin: string; data: unknown }) => void;

/** Runs the page's script in a fake window; returns what it did and a way to send it messages. */
function runPopupScript(html: string, opener: boolean) {
  const m = /<script>([\s\S]*)<\/script>/.exec(html);
  assert.ok(m, 'a script');
  const posted: Array<{ msg: { a: string; d?: unknown }; origin: string }> = [];
  const listeners: Listener[] = [];
  const timers: Array<() => void> = [];
  const did = { replaced: null as string | null, closed: false };
  const window = {
    opener: opener
      ? { postMessage: (msg: string, origin: string) => posted.push({ msg: JSON.parse(msg), origin }) }
      : null,
    addEventListener: (type: string, l: Listener) => type === 'message' && listeners.push(l),
    close: () => {
      did.closed = true;
    },
  };
  const loc = {
    replace: (u: string) => {
      did.replaced = u;
    },
  };
  new Function('window', 'location', 'setTimeout', m[1]!)(window, loc, (f: () => void) => timers.push(f));
  return {
    posted,
    did,
    script: m[1]!,
    send: (origin: string, data: unknown) => {
      for (const l of listeners) l({ origin, data });
    },
    timeout: () => {
      for (const t of timers) t();
    },
  };
}

describe('display=popup: the answer goes to the opener (winchan protocol)', () => {
  let ward: TestWard;
  let browser: Browser;
  let user: Awaited<ReturnType<typeof signup>>;
  before(async () => {
    ward = await startWard({
      clients: [
        PUBLIC_CLIENT,
        {
          ...PUBLIC_CLIENT,
          client_id: 'other-app',
          allowed_callback_urls: ['https://other.example/cb'],
          allowed_origins: [],
        },
      ],
    });
    user = await signup(ward);
    browser = new Browser(ward);
    const pkce = pkcePair();
    const first = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        tkn: user.tkn,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(first.status, 302, 'an SSO session in this browser');
  });
  after(() => ward.close());

  const popup = (extra: Record<string, string> = {}) => {
    const pkce = pkcePair();
    const url = authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid email',
      display: 'popup',
      state: 'st-1',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return { pkce, url };
  };

  it('says ready to the allowed origins, answers the request of one with the code, and closes', async () => {
    const { pkce, url } = popup();
    const res = await browser.get(url);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /frame-ancestors 'none'/);
    const run = runPopupScript(await res.text(), true);
    assert.ok(
      csp.includes(`'sha256-${createHash('sha256').update(run.script).digest('base64')}'`),
      'the CSP names the script by hash',
    );
    assert.deepEqual(run.posted, [{ msg: { a: 'ready' }, origin: 'https://app.example' }]);

    run.send('https://evil.example', JSON.stringify({ a: 'request' }));
    run.send('https://app.example', 'not json');
    run.send('https://app.example', JSON.stringify({ a: 'other' }));
    assert.equal(run.posted.length, 1, 'nothing to a foreign origin or to a message that is no request');

    run.send('https://app.example', JSON.stringify({ a: 'request' }));
    assert.equal(run.posted.length, 2);
    const answer = run.posted[1]!;
    assert.equal(answer.origin, 'https://app.example');
    const { success, data } = answer.msg.d as { success: boolean; data: Record<string, string> };
    assert.equal(success, true);
    assert.equal(data.state, 'st-1');
    assert.equal(data.iss, ward.url);
    assert.ok(run.did.closed);
    run.timeout();
    assert.equal(run.did.replaced, null, 'answered once: no redirect after');
    const { res: tokenRes, body } = await redeem(ward, data.code!, pkce.verifier);
    assert.equal(tokenRes.status, 200, JSON.stringify(body));
  });

  it('with no opener, goes on to the redirect_uri with the code at once', async () => {
    const { pkce, url } = popup();
    const run = runPopupScript(await (await browser.get(url)).text(), false);
    assert.ok(run.did.replaced);
    const back = new URL(run.did.replaced);
    assert.equal(`${back.origin}${back.pathname}`, 'https://app.example/cb');
    assert.equal(back.searchParams.get('state'), 'st-1');
    const { res } = await redeem(ward, back.searchParams.get('code')!, pkce.verifier);
    assert.equal(res.status, 200);
  });

  it('with an opener that never asks (a plain relying party), redirects once the wait is over', async () => {
    const run = runPopupScript(await (await browser.get(popup().url)).text(), true);
    run.send('https://evil.example', JSON.stringify({ a: 'request' }));
    assert.equal(run.did.replaced, null);
    run.timeout();
    assert.match(run.did.replaced ?? '', /^https:\/\/app\.example\/cb\?code=/);
    run.send('https://app.example', JSON.stringify({ a: 'request' }));
    assert.equal(run.posted.length, 1, 'no answer after the redirect');
  });

  it('answers an error as success=false with error and error_description', async () => {
    const res = await new Browser(ward).get(popup({ prompt: 'none' }).url);
    const run = runPopupScript(await res.text(), true);
    run.send('https://app.example', JSON.stringify({ a: 'request' }));
    assert.deepEqual(run.posted[1]!.msg.d, {
      success: false,
      data: { error: 'login_required', error_description: 'The user is not signed in', state: 'st-1', iss: ward.url },
    });
  });

  it("says what it does in the request's language (ui_locales, else Accept-Language), English by default", async () => {
    const en = await (await browser.get(popup().url)).text();
    assert.match(en, /<html lang="en">[\s\S]*Signing you in\. This window closes by itself\./);
    const fr = await (await browser.get(popup({ ui_locales: 'fr' }).url, { 'accept-language': 'en' })).text();
    assert.match(fr, /<html lang="fr">/);
    assert.match(fr, /<title>Connexion<\/title>/);
    assert.match(fr, /Connexion en cours\. Cette fenêtre se ferme d’elle-même\./);
    const refused = await new Browser(ward).get(popup({ prompt: 'none' }).url, { 'accept-language': 'fr' });
    assert.match(await refused.text(), /<html lang="fr">[\s\S]*La connexion n’a pas abouti\./);
  });

  it('a client with no allowed origin answers only the origin of its redirect_uri', async () => {
    const res = await new Browser(ward).get(
      authorizeUrl({
        client_id: 'other-app',
        response_type: 'code',
        redirect_uri: 'https://other.example/cb',
        scope: 'openid',
        display: 'popup',
        prompt: 'none',
        ...(() => {
          const p = pkcePair();
          return { code_challenge: p.challenge, code_challenge_method: 'S256' };
        })(),
      }),
    );
    const run = runPopupScript(await res.text(), true);
    assert.deepEqual(run.posted, [{ msg: { a: 'ready' }, origin: 'https://other.example' }]);
    run.send('https://app.example', JSON.stringify({ a: 'request' }));
    assert.equal(run.posted.length, 1, "another client's origin gets nothing");
  });

  it('refuses a display that OpenID does not define, by redirect', async () => {
    const res = await browser.get(popup({ display: 'fullscreen' }).url);
    assert.equal(res.status, 302);
    const back = location(res);
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    assert.match(back.searchParams.get('error_description')!, /display/);
  });

  it('display=page and display=touch answer by redirect as before; discovery lists the four values', async () => {
    for (const display of ['page', 'touch']) {
      const res = await browser.get(popup({ display }).url);
      assert.equal(res.status, 302);
      assert.ok(location(res).searchParams.get('code'));
    }
    const meta = (await (await ward.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    assert.deepEqual(meta.display_values_supported, ['page', 'popup', 'touch', 'wap']);
  });
});

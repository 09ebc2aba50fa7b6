// The hosted login page and what follows it: AZ-10 (the posted form names a stored interaction: nothing
// it carries can change the request), AZ-13
// (max_age forces a new login and a fresh auth_time), AZ-14 (access_denied only to a trusted URI,
// never a code), AZ-15 (POST then 303, never 307), AZ-16 (anti-framing, no referrer, no-store, no
// third-party resources), AZ-18 (codes only to the registered URI; injected state escaped).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Response } from 'undici';
import { formActionSource } from '../../src/interaction/pages/login.js';
import { Browser } from '../helpers/browser.js';
import { PUBLIC_CLIENT, passwordLogin, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { CB, assertErrorPage, assertErrorRedirect, codeRequest } from '../protocol/authorize/support.js';

const FR = { 'accept-language': 'fr-FR,fr;q=0.9' };
const NO_LIMITS = { rate_limits: { signup: { limit: null }, login: { limit: null } } };
const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/** The hidden fields of the login form. */
function loginFields(html: string): { interaction: string; csrf: string } {
  const interaction = /<input type="hidden" name="interaction" value="([^"]*)">/.exec(html);
  const csrf = /<input type="hidden" name="csrf" value="([^"]*)">/.exec(html);
  assert.ok(interaction && csrf, `login form with hidden fields: ${html.slice(0, 400)}`);
  return { interaction: unescapeHtml(interaction[1]!), csrf: unescapeHtml(csrf[1]!) };
}

/** AZ-16: the page may not be framed, leaks no referrer, is never cached, loads nothing from elsewhere. */
async function assertPageHardened(res: Response, body?: string): Promise<string> {
  const html = body ?? (await res.text());
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /default-src 'none'/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.doesNotMatch(
    html,
    /\b(src|href|action|srcset)\s*=\s*["']?\s*(https?:)?\/\//i,
    'no third-party resource or link',
  );
  assert.doesNotMatch(html, /url\(|@import|<script\b|<iframe\b|<link\b/i);
  return html;
}

describe('hosted login page', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, { ...PUBLIC_CLIENT, client_id: 'spa2' }], account: NO_LIMITS });
  });
  after(() => ward.close());

  async function openLogin(browser: Browser, url: string) {
    const res = await browser.get(url);
    const html = await res.text();
    assert.equal(res.status, 200, `login page expected, got ${res.status} ${res.headers.get('location')}`);
    assert.equal(res.headers.get('location'), null);
    return { res, html, fields: loginFields(html) };
  }

  /** Opens the page for `over`, signs in, and returns the 303 answer and the PKCE verifier. */
  async function signIn(
    browser: Browser,
    user: { email: string; password: string },
    over: Record<string, string | undefined> = {},
  ) {
    const pkce = pkcePair();
    const { fields } = await openLogin(browser, codeRequest({ code_challenge: pkce.challenge, ...over }));
    const res = await browser.postForm('/oauth/authorize/login', {
      ...fields,
      email: user.email,
      password: user.password,
    });
    return { res, verifier: pkce.verifier };
  }

  it('AZ-15: a successful form POST answers 303 (never 307) to the registered URI with the code and state', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const { res, verifier } = await signIn(browser, user);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const loc = new URL(res.headers.get('location')!);
    assert.equal(loc.origin + loc.pathname, CB);
    assert.equal(loc.searchParams.get('state'), 'st-123');
    assert.equal(loc.searchParams.get('iss'), ward.url);
    const { res: tok } = await redeem(ward, loc.searchParams.get('code')!, verifier);
    assert.equal(tok.status, 200);
  });

  it('AZ-15: a wrong password re-renders the form (401), a missing CSRF token is 403; neither redirects', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const { fields } = await openLogin(browser, codeRequest());
    const wrong = await browser.postForm('/oauth/authorize/login', {
      ...fields,
      email: user.email,
      password: 'not the password',
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('location'), null);
    await assertPageHardened(wrong);
    const forged = await browser.postForm('/oauth/authorize/login', {
      interaction: fields.interaction,
      email: user.email,
      password: user.password,
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.headers.get('location'), null);
    const otherJar = await new Browser(ward).postForm('/oauth/authorize/login', {
      ...fields,
      email: user.email,
      password: user.password,
    });
    assert.equal(otherJar.status, 403, 'the CSRF token is bound to the pre-login cookie');
  });

  it('speaks French when ui_locales or Accept-Language asks for it, also in its error state', async () => {
    const user = await signup(ward);
    const byUiLocales = await openLogin(new Browser(ward), codeRequest({ ui_locales: 'fr-CA en' }));
    assert.match(byUiLocales.html, /<html lang="fr">/);
    assert.match(byUiLocales.html, /Connexion à/);
    assert.match(byUiLocales.html, /Mot de passe oublié/);
    const browser = new Browser(ward);
    const res = await browser.get(codeRequest(), { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    const html = await res.text();
    assert.match(html, /Mot de passe/);
    const wrong = await browser.postForm(
      '/oauth/authorize/login',
      { ...loginFields(html), email: user.email, password: 'not the password' },
      { 'accept-language': 'fr-FR' },
    );
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /mot de passe est incorrect/);
    // The first of ui_locales Ward speaks: German now; a language it does not speak is skipped.
    const german = await openLogin(new Browser(ward), codeRequest({ ui_locales: 'de en' }));
    assert.match(german.html, /Bei Shop SPA anmelden/);
    const english = await openLogin(new Browser(ward), codeRequest({ ui_locales: 'it en' }));
    assert.match(english.html, /Sign in to/);
  });

  it('shows the expired form page in the language of its request (ui_locales), else of Accept-Language', async () => {
    const browser = new Browser(ward);
    // No interaction to read a language from: Accept-Language, English by default.
    const english = await browser.postForm('/oauth/authorize/login', { interaction: 'x', csrf: 'y' });
    assert.equal(english.status, 403);
    const en = await english.text();
    assert.match(en, /<html lang="en">/);
    assert.match(en, /This sign-in form has expired/);
    const french = await browser.postForm('/oauth/authorize/login', { interaction: 'x', csrf: 'y' }, FR);
    assert.equal(french.status, 403);
    const fr = await french.text();
    assert.match(fr, /<html lang="fr">/);
    assert.match(fr, /<title>Connexion expirée<\/title>/);
    assert.match(fr, /Ce formulaire de connexion a expiré/);
    assert.match(fr, /Revenez à l’application et recommencez\./);
    // The login page's interaction posted to the second-factor form: its request's ui_locales decides.
    const { fields } = await openLogin(browser, codeRequest({ ui_locales: 'fr' }));
    const notAtMfa = await browser.postForm('/oauth/authorize/mfa', fields, { 'accept-language': 'en' });
    assert.equal(notAtMfa.status, 403);
    assert.match(await notAtMfa.text(), /<html lang="fr">[\s\S]*Ce formulaire de connexion a expiré/);
  });

  it('writes the form_post page in the language of the request, else of Accept-Language', async () => {
    const page = async (over: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await new Browser(ward).get(
        codeRequest({ response_mode: 'form_post', tkn: (await signup(ward)).tkn, ...over }),
        headers,
      );
      assert.equal(res.status, 200);
      return res.text();
    };
    const en = await page({});
    assert.match(en, /<html lang="en">/);
    assert.match(en, /Scripts are off: continue to the application\./);
    for (const fr of [await page({ ui_locales: 'fr-CA' }, { 'accept-language': 'en' }), await page({}, FR)]) {
      assert.match(fr, /<html lang="fr">/);
      assert.match(fr, /<title>Envoyer ce formulaire<\/title>/);
      assert.match(fr, /Les scripts sont désactivés : continuez vers l’application\./);
      assert.match(fr, /<button type="submit">Continuer<\/button>/);
    }
  });

  it('AZ-15: a real browser posts the form with Origin: null (the page is no-referrer) and still gets its 303', async () => {
    // Fetch "append a request Origin header": a non-CORS POST from a no-referrer document says `null`.
    const user = await signup(ward);
    const browser = new Browser(ward);
    const { fields } = await openLogin(browser, codeRequest());
    const form = { ...fields, email: user.email, password: user.password };
    const crossSite = await browser.postForm('/oauth/authorize/login', form, {
      origin: 'null',
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(crossSite.status, 403, 'Sec-Fetch-Site cross-site is refused even with a valid token');
    const foreign = await browser.postForm('/oauth/authorize/login', form, {
      origin: 'https://evil.tld',
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(foreign.status, 403, 'a foreign Origin is refused');
    const res = await browser.postForm('/oauth/authorize/login', form, {
      origin: 'null',
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
    });
    assert.equal(res.status, 303);
    assert.ok(new URL(res.headers.get('location')!).searchParams.get('code'));
  });

  it("AZ-15/AZ-16: the login form may end only at the redirect target: CSP form-action is 'self' plus that origin", async () => {
    // Chrome and Safari check form-action against the 303 after the POST: 'self' alone blocks the login.
    const browser = new Browser(ward);
    const { res } = await openLogin(browser, codeRequest({ redirect_uri: 'https://app.example/other' }));
    assert.match(res.headers.get('content-security-policy')!, /; form-action 'self' https:\/\/app\.example;/);
    const { fields } = await openLogin(browser, codeRequest());
    const wrong = await browser.postForm('/oauth/authorize/login', {
      ...fields,
      email: 'nobody@example.com',
      password: 'wrong password',
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('content-security-policy')!, /; form-action 'self' https:\/\/app\.example;/);
    const errorPage = await ward.fetch(codeRequest({ client_id: 'nobody' }));
    assert.match(errorPage.headers.get('content-security-policy')!, /; form-action 'self';/);
  });

  it('AZ-16: form-action widening is exact: an origin, a private-use scheme, never a path or a wildcard', () => {
    assert.deepEqual(formActionSource('https://app.example/cb?a=1'), ['https://app.example']);
    assert.deepEqual(formActionSource('http://127.0.0.1:8123/cb'), ['http://127.0.0.1:8123']);
    assert.deepEqual(formActionSource('com.example.app:/oauth2redirect'), ['com.example.app:']);
    assert.deepEqual(formActionSource(null), []);
  });

  it('AZ-16: the login page, its error states and the error page are unframeable, no-referrer, no-store, self-contained', async () => {
    const browser = new Browser(ward);
    const { res, html } = await openLogin(browser, codeRequest());
    await assertPageHardened(res, html);
    assert.match(html, /<form method="post" action="\/oauth\/authorize\/login"/);
    await assertPageHardened(await ward.fetch(codeRequest({ client_id: 'nobody' })));
    await assertPageHardened(await browser.postForm('/oauth/authorize/login', { interaction: 'x', csrf: 'y' }));
  });

  it('AZ-13: max_age=1 two seconds after a login forces a new login, and the new id_token has a fresh auth_time', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const first = await signIn(browser, user);
    assert.equal(first.res.status, 303);
    const t1 = decodeJwt(
      (await redeem(ward, new URL(first.res.headers.get('location')!).searchParams.get('code')!, first.verifier)).body
        .id_token!,
    ).auth_time as number;
    assert.equal(t1, Math.floor(ward.clock.now() / 1000));

    ward.clock.advance(2000);
    // Control: without max_age (or with a larger one) the SSO session answers with a code at once.
    assert.equal((await browser.get(codeRequest())).status, 302);
    const pkce = pkcePair();
    const sso = await browser.get(codeRequest({ max_age: '10', code_challenge: pkce.challenge }));
    assert.equal(sso.status, 302);
    const kept = decodeJwt(
      (await redeem(ward, new URL(sso.headers.get('location')!).searchParams.get('code')!, pkce.verifier)).body
        .id_token!,
    );
    assert.equal(kept.auth_time, t1, 'SSO keeps the original auth_time');

    // max_age=1: the 2-second-old session is not enough. prompt=none says so; otherwise the form is shown.
    assertErrorRedirect(
      await browser.get(codeRequest({ max_age: '1', prompt: 'none' })),
      CB,
      'login_required',
      ward.url,
    );
    const again = await signIn(browser, user, { max_age: '1' });
    assert.equal(again.res.status, 303);
    const t2 = decodeJwt(
      (await redeem(ward, new URL(again.res.headers.get('location')!).searchParams.get('code')!, again.verifier)).body
        .id_token!,
    ).auth_time as number;
    assert.equal(t2, t1 + 2);
  });

  it('AZ-13: max_age=0 always asks for a login, even right after one', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    assert.equal((await signIn(browser, user)).res.status, 303);
    ward.clock.advance(1);
    await openLogin(browser, codeRequest({ max_age: '0' }));
  });

  it('AZ-13: a tkn whose login is older than max_age is not a fresh enough authentication', async () => {
    const user = await signup(ward);
    const tkn = await passwordLogin(ward, user.email, user.password);
    ward.clock.advance(2000);
    assertErrorRedirect(
      await ward.fetch(codeRequest({ tkn, max_age: '1', prompt: 'none' })),
      CB,
      'login_required',
      ward.url,
    );
    const tkn2 = await passwordLogin(ward, user.email, user.password);
    ward.clock.advance(2000);
    await openLogin(new Browser(ward), codeRequest({ tkn: tkn2, max_age: '1' }));
    // A fresh tkn within max_age is used as the login it is.
    const tkn3 = await passwordLogin(ward, user.email, user.password);
    const ok = await ward.fetch(codeRequest({ tkn: tkn3, max_age: '60' }));
    assert.equal(ok.status, 302);
    assert.ok(new URL(ok.headers.get('location')!).searchParams.get('code'));
  });

  it('AZ-14: a refused authentication (bad, reused or foreign tkn) redirects access_denied to the registered URI, never a code', async () => {
    const user = await signup(ward);
    assertErrorRedirect(await ward.fetch(codeRequest({ tkn: 'x'.repeat(43) })), CB, 'access_denied', ward.url);
    const tkn = await passwordLogin(ward, user.email, user.password);
    assert.equal((await ward.fetch(codeRequest({ tkn }))).status, 302);
    assertErrorRedirect(await ward.fetch(codeRequest({ tkn })), CB, 'access_denied', ward.url);
    const stale = await passwordLogin(ward, user.email, user.password);
    ward.clock.advance(121_000);
    assertErrorRedirect(await ward.fetch(codeRequest({ tkn: stale })), CB, 'access_denied', ward.url);
    const foreign = await passwordLogin(ward, user.email, user.password, 'spa2');
    assertErrorRedirect(await ward.fetch(codeRequest({ tkn: foreign })), CB, 'access_denied', ward.url);
  });

  it('AZ-14: with an untrusted redirect_uri a refused authentication is the error page, not access_denied there', async () => {
    const user = await signup(ward);
    const tkn = await passwordLogin(ward, user.email, user.password);
    await assertErrorPage(
      await ward.fetch(codeRequest({ tkn, redirect_uri: 'https://evil.tld/cb' })),
      'invalid_request',
    );
    await assertErrorPage(
      await ward.fetch(codeRequest({ tkn: 'x'.repeat(43), redirect_uri: 'https://evil.tld/cb' })),
      'invalid_request',
    );
    // The refused request did not spend the tkn.
    assert.ok(new URL((await ward.fetch(codeRequest({ tkn }))).headers.get('location')!).searchParams.get('code'));
  });

  it('AZ-10/AZ-18: the form names a stored interaction: request fields added to it change nothing, a forged or reused one gets no code', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const { fields } = await openLogin(browser, codeRequest());
    const post = (extra: Record<string, string>) =>
      browser.postForm('/oauth/authorize/login', { ...fields, email: user.email, password: user.password, ...extra });
    const evil = 'https://evil.tld/cb';
    // A handle that is not the one the page was given: the expired page, never a redirect.
    for (const interaction of [`${fields.interaction}x`, fields.interaction.slice(1), 'a'.repeat(43), '']) {
      const res = await post({ interaction });
      assert.equal(res.status, 403, interaction);
      assert.equal(res.headers.get('location'), null);
    }
    // Authorization parameters posted with the form are not read: the code goes to the stored redirect_uri.
    const done = await post({
      redirect_uri: evil,
      client_id: 'spa',
      scope: 'openid',
      response_type: 'token',
      state: 'forged',
    });
    assert.equal(done.status, 303);
    const location = new URL(done.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, CB);
    assert.ok(location.searchParams.get('code'));
    assert.equal(location.searchParams.get('state'), 'st-123');
    // The interaction is finished: posting it again signs nobody in.
    const again = await post({});
    assert.equal(again.status, 403);
    assert.equal(again.headers.get('location'), null);
  });

  it('AZ-18: an injected state is escaped in the login page and returned byte for byte after the login', async () => {
    const state = '"><script>alert(1)</script><img src=x onerror=alert(2)>\'';
    const user = await signup(ward);
    const browser = new Browser(ward);
    const { html, fields } = await openLogin(browser, codeRequest({ state }));
    assert.ok(!html.includes('<script>alert') && !html.includes('<img'), 'state reflected unescaped');
    const res = await browser.postForm('/oauth/authorize/login', {
      ...fields,
      email: user.email,
      password: user.password,
    });
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get('location')!).searchParams.get('state'), state);
  });

  it('AZ-18: form_post delivers the code only to the registered URI in an escaped auto-submitted form; web_message escapes the state', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const injected = '"><script>alert(1)</script><img src=x onerror=alert(2)>\'';
    const posted = await browser.get(codeRequest({ response_mode: 'form_post', tkn: user.tkn, state: injected }));
    assert.equal(posted.status, 200);
    assert.equal(posted.headers.get('location'), null, 'the code is in no URL');
    for (const [h, v] of [
      ['x-frame-options', 'DENY'],
      ['referrer-policy', 'no-referrer'],
      ['cache-control', 'no-store'],
    ]) {
      assert.equal(posted.headers.get(h!), v, h);
    }
    const page = await posted.text();
    assert.ok(!page.includes('<script>alert') && !page.includes('<img'), 'state reflected unescaped');
    assert.equal((page.match(/<form /g) ?? []).length, 1);
    assert.match(page, new RegExp(`<form method="post" action="${CB}" id="response">`));
    const value = (name: string) => unescapeHtml(new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '');
    assert.equal(value('state'), injected);
    assert.equal(value('iss'), ward.url);
    assert.ok(value('code'));
    const csp = posted.headers.get('content-security-policy')!;
    assert.match(csp, new RegExp(`form-action 'self' ${new URL(CB).origin};`));
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    // An error after the redirect_uri is trusted travels the same way; before it, the error page.
    const refused = await (
      await browser.get(codeRequest({ response_mode: 'form_post', scope: 'openid bogus' }))
    ).text();
    assert.match(refused, /name="error" value="invalid_scope"/);
    await assertErrorPage(
      await browser.get(codeRequest({ response_mode: 'form_post', redirect_uri: 'https://evil.tld/cb' })),
      'invalid_request',
    );
    const state = '</script><script>alert(1)</script>"><!--';
    const res = await browser.get(codeRequest({ response_mode: 'web_message', prompt: 'none', state }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('location'), null);
    const html = await res.text();
    const scripts = html.match(/<script>[\s\S]*?<\/script>/g) ?? [];
    assert.equal(scripts.length, 1, 'one script of Ward, none injected');
    assert.ok(!html.includes('alert(1)</script>') && !html.includes('<!--'));
    const data = JSON.parse(/var m=(\{.*?\});var o=/.exec(scripts[0]!)![1]!) as {
      type: string;
      response: Record<string, string>;
    };
    assert.equal(data.type, 'authorization_response');
    assert.equal(data.response.state, state);
    assert.ok(data.response.code);
    assert.match(res.headers.get('content-security-policy')!, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors https:\/\/app\.example;/);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

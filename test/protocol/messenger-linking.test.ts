// Messenger account linking on Ward's side (ML-01..ML-08): response_type=messenger_code for a client
// that registered the Messenger callback; the strict callback rule (both spellings accepted, every
// bypass refused without a redirect); the redirect back with authorization_code added by the URL API;
// never a silent code from an SSO cookie; cancel = error=access_denied; the code exchanged with
// client_id and no secret, single use, at most 5 minutes, bound to client and callback; nonce kept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, jwtVerify } from 'jose';
import { Browser } from '../helpers/browser.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { authorizeUrl, location, passwordLogin, signup, tokenRequest } from '../helpers/oauth.js';

const CB = 'https://facebook.com/messenger_platform/account_linking/';
const SECRET = 'chatbot-client-secret-of-at-least-32-chars';
const BOT = {
  client_id: 'bot',
  name: 'Shop bot',
  type: 'confidential',
  client_secret: SECRET,
  jwt_algorithm: 'HS256',
  allowed_callback_urls: [CB, 'https://bot.example/link'],
  // Linking from an SSO cookie alone (ML-05): only a client with sso: true reads the session (issue 33).
  sso: true,
};
const BOT_RS = {
  client_id: 'bot-rs',
  name: 'RS bot',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: [CB],
};
const OTHER = {
  client_id: 'other',
  name: 'Other',
  type: 'confidential',
  client_secret: 'o'.repeat(40),
  allowed_callback_urls: ['https://other.example/cb'],
};
const META = (t = 'ARRtoken_123-abc') =>
  `https://www.facebook.com/messenger_platform/account_linking?account_linking_token=${t}`;
const R5 = (t = 'ARRtoken_123-abc') =>
  `https://facebook.com/messenger_platform/account_linking/?account_linking_token=${t}`;
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe('Messenger account linking: Ward side', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({
      clients: [BOT, BOT_RS, OTHER],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
    });
  });
  after(() => m.close());
  const ward = () => m.ward;

  const linkUrl = (redirectUri: string, extra: Record<string, string> = {}, clientId = 'bot') =>
    authorizeUrl({
      client_id: clientId,
      response_type: 'messenger_code',
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      ...extra,
    });

  async function linkWithTkn(redirectUri: string, clientId = 'bot', extra: Record<string, string> = {}) {
    const user = await signup(ward(), clientId);
    const tkn = await passwordLogin(ward(), user.email, user.password, clientId, 'openid profile email');
    const res = await new Browser(ward()).get(linkUrl(redirectUri, { tkn, ...extra }, clientId));
    return { user, res };
  }

  const exchange = (code: string, form: Record<string, string> = {}) =>
    tokenRequest(ward(), { grant_type: 'authorization_code', code, client_id: 'bot', redirect_uri: CB, ...form });

  it('redirects to the Messenger URL (both spellings) with authorization_code added, the rest kept (ML-02)', async () => {
    for (const url of [META(), R5('tok2')]) {
      const { res } = await linkWithTkn(url);
      assert.equal(res.status, 302);
      const loc = location(res);
      assert.equal(`${loc.origin}${loc.pathname}`, url.split('?')[0]);
      assert.equal(
        loc.searchParams.get('account_linking_token'),
        new URL(url).searchParams.get('account_linking_token'),
      );
      assert.match(loc.searchParams.get('authorization_code')!, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual([...loc.searchParams.keys()], ['account_linking_token', 'authorization_code']);
    }
  });

  it('refuses every bypass of the Messenger callback with an error page and no redirect (ML-03)', async () => {
    const t = 'account_linking_token=ARR';
    const corpus = [
      `https://www.facebook.com.evil.tld/messenger_platform/account_linking?${t}`,
      `https://evil.tld@www.facebook.com/messenger_platform/account_linking?${t}`,
      `http://www.facebook.com/messenger_platform/account_linking?${t}`,
      `https://www.facebook.com:8443/messenger_platform/account_linking?${t}`,
      `https://www.facebook.com/messenger_platform/account_linking/../../l.php?u=https://evil.tld&${t}`,
      `https://www.facebook.com/messenger_platform/account%5Flinking?${t}`,
      `https://www.facebook.com/messenger_platform/%2e%2e/account_linking?${t}`,
      `https://www.facebook.com/messenger_platform/account_linking;x?${t}`,
      `https://www.facebook.com\\messenger_platform/account_linking?${t}`,
      `https://www.facebook.com/messenger_platform/account_linking?${t}#frag`,
      `https://WWW.FACEBOOK.COM/messenger_platform/account_linking?${t}`,
      `https://www.facebook.com/messenger_platform/account_linking?${t}&authorization_code=ATTACKER`,
      `https://www.facebook.com/messenger_platform/account_linking?${t}&next=https://evil.tld`,
      `https://www.facebook.com/messenger_platform/account_linking?${t}&${t}`,
      'https://www.facebook.com/messenger_platform/account_linking',
      'https://www.facebook.com/messenger_platform/account_linking?account_linking_token=',
      `https://www.facebook.com/messenger_platform/account_linking?account_linking_token=${'a'.repeat(2049)}`,
      `https://m.facebook.com/messenger_platform/account_linking?${t}`,
      `https://www.facebook.com/messenger_platform/account_linking?account_linking_token=a%20b`,
      `https://www.facebook.com/messenger_platform/account_linking//?${t}`,
    ];
    for (const bad of corpus) {
      const res = await ward().fetch(linkUrl(bad));
      assert.equal(res.status, 400, bad);
      assert.equal(res.headers.get('location'), null, bad);
    }
    const notRegistered = await ward().fetch(linkUrl(META(), {}, 'other'));
    assert.equal(notRegistered.status, 400);
    assert.equal(notRegistered.headers.get('location'), null);
    const asCode = await ward().fetch(
      authorizeUrl({ client_id: 'bot', response_type: 'code', redirect_uri: META(), scope: 'openid' }),
    );
    assert.equal(asCode.status, 400, 'the Messenger URL is no callback for response_type=code');
  });

  it('never issues a code from an SSO cookie alone: a confirmation page first (ML-05); cancel sends access_denied (ML-04)', async () => {
    const user = await signup(ward(), 'bot');
    const browser = new Browser(ward());
    const tkn = await passwordLogin(ward(), user.email, user.password, 'bot');
    assert.equal(
      (await browser.get(linkUrl('https://bot.example/link', { tkn }).replace('messenger_code', 'code'))).status,
      302,
      'a session',
    );
    const page = await browser.get(linkUrl(META('victim')));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Link your Messenger account to Shop bot\?/);
    const cancel = await browser.postForm('/oauth/authorize/consent', {
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      decision: 'deny',
    });
    assert.equal(cancel.status, 303);
    const denied = location(cancel);
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.equal(denied.searchParams.get('authorization_code'), null);
    assert.equal(denied.searchParams.get('account_linking_token'), 'victim');
    // The cancelled confirmation is over: allowing it afterwards issues nothing.
    const late = await browser.postForm('/oauth/authorize/consent', {
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      decision: 'allow',
    });
    assert.equal(late.status, 403);
    assert.equal(late.headers.get('location'), null);
    const again = await (await browser.get(linkUrl(META('victim')))).text();
    const allow = await browser.postForm('/oauth/authorize/consent', {
      interaction: field(again, 'interaction'),
      csrf: field(again, 'csrf'),
      decision: 'allow',
    });
    assert.equal(allow.status, 303);
    assert.ok(location(allow).searchParams.get('authorization_code'));
    const silent = await browser.get(linkUrl(META('v2'), { prompt: 'none' }));
    assert.equal(location(silent).searchParams.get('error'), 'interaction_required');
    assert.equal(location(silent).searchParams.get('authorization_code'), null);
  });

  it('asks for the confirmation in French (ui_locales=fr or Accept-Language: fr), in English by default', async () => {
    const user = await signup(ward(), 'bot');
    const browser = new Browser(ward());
    const tkn = await passwordLogin(ward(), user.email, user.password, 'bot');
    const session = await browser.get(linkUrl('https://bot.example/link', { tkn }).replace('messenger_code', 'code'));
    assert.equal(session.status, 302, 'a session');
    const en = await (await browser.get(linkUrl(META('en')))).text();
    assert.match(en, /<html lang="en">/);
    assert.match(en, /Link your Messenger account to Shop bot\?/);
    assert.match(en, /You are signed in as/);
    const pages = [
      await browser.get(linkUrl(META('fr1'), { ui_locales: 'fr' }), { 'accept-language': 'en' }),
      await browser.get(linkUrl(META('fr2')), { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' }),
    ];
    for (const page of pages) {
      assert.equal(page.status, 200);
      const fr = await page.text();
      assert.match(fr, /<html lang="fr">/);
      assert.match(fr, /<title>Associer votre compte Messenger<\/title>/);
      assert.match(fr, /Associer votre compte Messenger à Shop bot \?/);
      assert.match(fr, new RegExp(`Vous êtes connecté en tant que ${user.email}\\. Shop bot connaîtra votre nom`));
      assert.match(fr, /value="allow">Associer mon compte<\/button>/);
      assert.match(fr, /value="deny">Annuler<\/button>/);
    }
    // A login page's interaction posted as a confirmation: the expired page, in its request's language.
    const other = new Browser(ward());
    const html = await (await other.get(linkUrl(META('fr3'), { ui_locales: 'fr' }))).text();
    const form = { interaction: field(html, 'interaction'), csrf: field(html, 'csrf'), decision: 'allow' };
    const notConfirm = await other.postForm('/oauth/authorize/consent', form, { 'accept-language': 'en' });
    assert.equal(notConfirm.status, 403);
    assert.match(await notConfirm.text(), /<html lang="fr">[\s\S]*Ce formulaire de connexion a expiré/);
  });

  it('shows the refusal of a client without the Messenger callback in French, accents whole', async () => {
    const res = await ward().fetch(linkUrl(META(), {}, 'other'), { headers: { 'accept-language': 'fr' } });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /<html lang="fr">/);
    assert.match(html, /Cette demande ne peut pas aboutir/);
    assert.match(html, /Cette application n&#39;a pas enregistré l&#39;adresse de retour Messenger\./);
  });

  it('cancelling on the login page sends access_denied without a code (ML-04)', async () => {
    const browser = new Browser(ward());
    const page = await browser.get(linkUrl(META('c1')));
    const html = await page.text();
    const cancel = await browser.postForm('/oauth/authorize/consent', {
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      decision: 'deny',
    });
    const loc = location(cancel);
    assert.equal(`${loc.origin}${loc.pathname}`, 'https://www.facebook.com/messenger_platform/account_linking');
    assert.equal(loc.searchParams.get('error'), 'access_denied');
    assert.equal(loc.searchParams.get('authorization_code'), null);
  });

  it('exchanges the code with client_id and no secret for the profile; the nonce is kept; HS256 with the secret (ML-06)', async () => {
    const { user, res } = await linkWithTkn(META(), 'bot', { nonce: 'psid-nonce-1' });
    const code = location(res).searchParams.get('authorization_code')!;
    const ex = await exchange(code, { redirect_uri: 'https://www.facebook.com/messenger_platform/account_linking' });
    assert.equal(ex.status, 200);
    const body = (await ex.json()) as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    const { payload } = await jwtVerify(body.id_token as string, new TextEncoder().encode(SECRET), {
      issuer: ward().url,
      audience: 'bot',
      algorithms: ['HS256'],
    });
    assert.equal(payload.sub, user.id);
    assert.equal(payload.email, user.email);
    assert.equal(payload.given_name, 'Ada');
    assert.equal(payload.family_name, 'Lovelace');
    assert.equal(payload.nonce, 'psid-nonce-1');
  });

  it('binds the code: single use, 5 minutes, its client, the callback base; a sent secret is checked (ML-07, ML-08)', async () => {
    const code = async (clientId = 'bot') =>
      location((await linkWithTkn(META(), clientId)).res).searchParams.get('authorization_code')!;
    const c1 = await code();
    assert.equal(
      (await exchange(c1, { redirect_uri: 'https://bot.example/link' })).status,
      400,
      'another redirect_uri',
    );
    const c2 = await code();
    assert.equal((await exchange(c2)).status, 200);
    assert.equal((await exchange(c2)).status, 400, 'single use');
    const c3 = await code();
    ward().clock.advance(301_000);
    assert.equal(
      ((await (await exchange(c3)).json()) as { error: string }).error,
      'invalid_grant',
      'dead after 5 minutes',
    );
    const c4 = await code();
    const foreign = await tokenRequest(ward(), {
      grant_type: 'authorization_code',
      code: c4,
      client_id: 'other',
      client_secret: 'o'.repeat(40),
      redirect_uri: CB,
    });
    assert.equal(foreign.status, 400, 'bound to its client');
    const c5 = await code();
    const wrongSecret = await exchange(c5, { client_secret: 'w'.repeat(40) });
    assert.equal(wrongSecret.status, 401);
    assert.equal(((await wrongSecret.json()) as { error: string }).error, 'invalid_client');
    assert.equal(
      (await exchange(c5, { client_secret: SECRET })).status,
      200,
      'the refused attempt did not burn the code',
    );
    const c6 = await code('bot-rs');
    const rs = await tokenRequest(ward(), {
      grant_type: 'authorization_code',
      code: c6,
      client_id: 'bot-rs',
      redirect_uri: 'https://facebook.com/messenger_platform/account_linking',
    });
    assert.equal(rs.status, 200);
    assert.equal(decodeJwt(((await rs.json()) as { id_token: string }).id_token).aud, 'bot-rs');
  });

  it('does not let a confidential client skip its secret for an ordinary code', async () => {
    const user = await signup(ward(), 'bot');
    const tkn = await passwordLogin(ward(), user.email, user.password, 'bot');
    const res = await new Browser(ward()).get(
      authorizeUrl({
        client_id: 'bot',
        response_type: 'code',
        redirect_uri: 'https://bot.example/link',
        scope: 'openid',
        tkn,
      }),
    );
    const code = location(res).searchParams.get('code')!;
    const noSecret = await tokenRequest(ward(), {
      grant_type: 'authorization_code',
      code,
      client_id: 'bot',
      redirect_uri: 'https://bot.example/link',
    });
    assert.equal(noSecret.status, 401);
    const withSecret = await tokenRequest(ward(), {
      grant_type: 'authorization_code',
      code,
      client_id: 'bot',
      client_secret: SECRET,
      redirect_uri: 'https://bot.example/link',
    });
    assert.equal(withSecret.status, 200, 'the code was not consumed by the refused attempt');
  });

  it('steps up inside the linking flow when MFA is required (hosted page)', async () => {
    m.ward.setAccount({ mfa_required: 'always' });
    try {
      const user = await signup(ward(), 'bot');
      await giveFactors(ward(), user.id, { email: user.email });
      const browser = new Browser(ward());
      const html = await (await browser.get(linkUrl(META('mfa')))).text();
      const mfaPage = await browser.postForm('/oauth/authorize/login', {
        interaction: field(html, 'interaction'),
        csrf: field(html, 'csrf'),
        email: user.email,
        password: user.password,
      });
      const mfaHtml = await mfaPage.text();
      assert.match(mfaHtml, /Verify it is you/);
      const verified = await browser.postForm('/oauth/authorize/mfa', {
        interaction: field(mfaHtml, 'interaction'),
        csrf: field(mfaHtml, 'csrf'),
        step_up: field(mfaHtml, 'step_up'),
        challenge_id: field(mfaHtml, 'challenge_id'),
        auth_type: 'email',
        action: 'verify',
        verification_code: codeIn((await m.smtp.next(user.email)).text),
      });
      assert.equal(verified.status, 303);
      const code = location(verified).searchParams.get('authorization_code')!;
      const ex = await exchange(code);
      assert.deepEqual(decodeJwt(((await ex.json()) as { id_token: string }).id_token).amr, ['pwd', 'mfa', 'email']);
    } finally {
      m.ward.setAccount({ mfa_required: 'never' });
    }
  });
});

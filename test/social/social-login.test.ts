// Social login against a real local provider (test/helpers/tiny-idp.ts): OIDC with state, nonce and
// PKCE, the upstream id_token validated (issuer, audience, signature through its JWKS, nonce); the
// generic OAuth 2.0 path with a claim mapping; identities (first login creates the user, the next
// finds it, a verified email matching an existing account links only after its password); upstream
// errors end in the client's redirect_uri, never a 500; MFA Always still applies; unlink (never the last way in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { hashPassword } from '../../src/accounts/passwords.js';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe('social login', () => {
  let idp: TinyIdp;
  let m: MfaWard;
  before(async () => {
    idp = await startTinyIdp();
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
      socialProviders: [
        {
          name: 'corp',
          type: 'oidc',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          label: 'Corp',
        },
        {
          name: 'plain',
          type: 'oauth2',
          authorization_url: `${idp.issuer}/authorize`,
          token_url: `${idp.issuer}/token`,
          userinfo_url: `${idp.issuer}/me`,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          claims: { sub: 'id', email: 'mail', given_name: 'first', family_name: 'last' },
        },
      ],
    });
  });
  after(async () => {
    await m.close();
    await idp.close();
  });

  /** Runs /oauth/authorize?provider=... through the provider and back; returns Ward's last answer. */
  async function viaProvider(
    provider: string,
    browser = new Browser(m.ward),
    pkce = pkcePair(),
    extra: Record<string, string> = {},
  ) {
    const start = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid email profile',
        state: 'soc',
        nonce: 'client-nonce',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        provider,
        ...extra,
      }),
    );
    assert.equal(start.status, 302, await start.text());
    const upstream = location(start);
    assert.ok(upstream.searchParams.get('state') && upstream.searchParams.get('code_challenge'));
    const back = await browser.get(upstream.toString());
    const callback = location(back);
    const res = await browser.get(callback.toString());
    return { res, browser, pkce, upstream, callback };
  }

  it('creates the user at the first OIDC login and finds it the next time; the id_token says how', async () => {
    idp.account = {
      sub: 'corp-1',
      email: 'new.user@corp.example',
      email_verified: true,
      given_name: 'New',
      family_name: 'User',
    };
    const { res, pkce, upstream } = await viaProvider('corp');
    assert.equal(upstream.origin, idp.issuer);
    assert.ok(upstream.searchParams.get('nonce'));
    assert.equal(res.status, 302);
    const cb = location(res);
    assert.equal(cb.searchParams.get('state'), 'soc');
    const { body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
    const claims = decodeJwt(body.id_token!);
    assert.equal(claims.email, 'new.user@corp.example');
    assert.equal(claims.nonce, 'client-nonce');
    assert.deepEqual(claims.amr, ['social', 'corp']);
    assert.equal(claims.auth_type, 'corp');
    const again = await viaProvider('corp');
    const { body: body2 } = await redeem(m.ward, location(again.res).searchParams.get('code')!, again.pkce.verifier);
    assert.equal(decodeJwt(body2.id_token!).sub, claims.sub, 'the same user');
  });

  it('reads the profile of a plain OAuth 2.0 provider through the claim mapping', async () => {
    idp.account = {
      sub: 'plain-7',
      email: 'plain@corp.example',
      email_verified: false,
      given_name: 'Pla',
      family_name: 'In',
    };
    const { res, pkce } = await viaProvider('plain');
    const { body } = await redeem(m.ward, location(res).searchParams.get('code')!, pkce.verifier);
    const claims = decodeJwt(body.id_token!);
    assert.equal(claims.given_name, 'Pla');
    assert.equal(claims.email, undefined, 'an unverified email is not taken');
  });

  it('never links silently to an existing account with the same email: its password first', async () => {
    const owner = await signup(m.ward);
    idp.account = { sub: 'corp-takeover', email: owner.email, email_verified: true, given_name: 'X', family_name: 'Y' };
    const { res, browser, pkce } = await viaProvider('corp');
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /You already have an account/);
    const wrong = await browser.postForm('/identity/v1/oauth/link', {
      link_token: field(html, 'link_token'),
      csrf: field(html, 'csrf'),
      password: 'not the password',
    });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /The password is incorrect/);
    assert.equal(await m.ward.registry.storage.identities.find('corp', 'corp-takeover'), undefined, 'not linked');
    const ok = await browser.postForm('/identity/v1/oauth/link', {
      link_token: field(html, 'link_token'),
      csrf: field(html, 'csrf'),
      password: owner.password,
    });
    assert.equal(ok.status, 303);
    const { body } = await redeem(m.ward, location(ok).searchParams.get('code')!, pkce.verifier);
    assert.equal(decodeJwt(body.id_token!).sub, owner.id);
    assert.equal((await m.ward.registry.storage.identities.find('corp', 'corp-takeover'))?.user_id, owner.id);
  });

  it('shows the link page, its refusals and the expired page in French (ui_locales=fr), else English', async () => {
    const owner = await signup(m.ward);
    idp.account = { sub: 'corp-fr', email: owner.email, email_verified: true, given_name: 'F', family_name: 'R' };
    const en = await (await viaProvider('corp')).res.text();
    assert.match(en, /<html lang="en">/);
    assert.match(en, /Enter its password to link your Corp sign-in to it\./);
    const { res, browser, callback } = await viaProvider('corp', undefined, undefined, { ui_locales: 'fr-FR' });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<html lang="fr">/);
    assert.match(html, /<title>Associer votre compte<\/title>/);
    assert.match(html, /<h1>Vous avez déjà un compte<\/h1>/);
    assert.match(
      html,
      new RegExp(
        `Un compte existe pour ${owner.email}\\. Saisissez son mot de passe pour y associer votre connexion Corp\\.`,
      ),
    );
    assert.match(html, /<label for="password">Mot de passe<\/label>/);
    assert.match(html, /<button type="submit">Associer et me connecter<\/button>/);
    // The refusals follow the stored request's language, whatever the browser says.
    const post = (password: string) =>
      browser.postForm(
        '/identity/v1/oauth/link',
        { link_token: field(html, 'link_token'), csrf: field(html, 'csrf'), password },
        { 'accept-language': 'en' },
      );
    for (let i = 0; i < 5; i++) {
      const wrong = await post('not the password');
      assert.equal(wrong.status, 401);
      const text = await wrong.text();
      assert.match(text, /<html lang="fr">/);
      assert.match(text, /Le mot de passe est incorrect\./);
    }
    const waiting = await post(owner.password);
    assert.equal(waiting.status, 429, 'the per-account protection waits after 5 failures');
    assert.match(await waiting.text(), /Trop de tentatives échouées pour ce compte\. Réessayez dans un instant\./);
    // A callback that belongs to no sign-in any more: the expired page, by Accept-Language.
    const replay = await browser.get(callback.toString(), { 'accept-language': 'fr' });
    assert.equal(replay.status, 400);
    const fr = await replay.text();
    assert.match(fr, /<html lang="fr">/);
    assert.match(fr, /Cette connexion a expiré ou n’a pas commencé ici/);
    const replayEn = await browser.get(callback.toString());
    assert.match(await replayEn.text(), /<html lang="en">[\s\S]*This sign-in has expired or did not start here/);
  });

  const failures: Array<[TinyIdp['mode'], string]> = [
    ['refuse', 'access_denied'],
    ['wrong_nonce', 'access_denied'],
    ['foreign_key', 'access_denied'],
    ['wrong_audience', 'access_denied'],
    ['down', 'server_error'],
  ];
  for (const [mode, error] of failures) {
    it(`ends an upstream failure (${mode}) in the client's redirect_uri with ${error}, no code`, async () => {
      idp.account = {
        sub: `corp-${mode}`,
        email: `${mode}@corp.example`,
        email_verified: true,
        given_name: 'F',
        family_name: 'M',
      };
      idp.mode = mode;
      try {
        const { res } = await viaProvider('corp');
        assert.equal(res.status, 302);
        const cb = location(res);
        assert.equal(`${cb.origin}${cb.pathname}`, 'https://app.example/cb');
        assert.equal(cb.searchParams.get('error'), error);
        assert.equal(cb.searchParams.get('code'), null);
        assert.equal(cb.searchParams.get('state'), 'soc');
      } finally {
        idp.mode = 'ok';
      }
    });
  }

  it('refuses a tampered state, a replayed callback and a callback in another browser', async () => {
    const { callback, browser } = await viaProvider('corp');
    const replay = await browser.get(callback.toString());
    assert.equal(replay.status, 400, 'the state is single use');
    const browser2 = new Browser(m.ward);
    const start = await browser2.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        provider: 'corp',
      }),
    );
    const back = location(await browser2.get(location(start).toString()));
    assert.equal((await new Browser(m.ward).get(back.toString())).status, 400, 'another browser (login CSRF)');
    const tampered = new URL(back);
    tampered.searchParams.set('state', 'forged');
    assert.equal((await browser2.get(tampered.toString())).status, 400);
    assert.equal(
      (
        await browser2.get(
          authorizeUrl({
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: 'https://app.example/cb',
            scope: 'openid',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
            provider: 'nope',
          }),
        )
      ).headers
        .get('location')
        ?.includes('error=invalid_request'),
      true,
    );
  });

  it('still asks for the second factor under MFA Always', async () => {
    idp.account = {
      sub: 'corp-mfa',
      email: 'mfa.social@corp.example',
      email_verified: true,
      given_name: 'M',
      family_name: 'F',
    };
    const first = await viaProvider('corp');
    const { body } = await redeem(m.ward, location(first.res).searchParams.get('code')!, first.pkce.verifier);
    const userId = decodeJwt(body.id_token!).sub!;
    await giveFactors(m.ward, userId, { email: 'mfa.social@corp.example' });
    m.ward.setAccount({ mfa_required: 'always' });
    try {
      const { res, browser, pkce } = await viaProvider('corp');
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /Verify it is you/);
      const done = await browser.postForm('/oauth/authorize/mfa', {
        interaction: field(html, 'interaction'),
        csrf: field(html, 'csrf'),
        step_up: field(html, 'step_up'),
        challenge_id: field(html, 'challenge_id'),
        auth_type: 'email',
        action: 'verify',
        verification_code: codeIn((await m.smtp.next('mfa.social@corp.example')).text),
      });
      assert.equal(done.status, 303);
      const { body: b2 } = await redeem(m.ward, location(done).searchParams.get('code')!, pkce.verifier);
      assert.deepEqual(decodeJwt(b2.id_token!).amr, ['social', 'corp', 'mfa', 'email']);
    } finally {
      m.ward.setAccount({ mfa_required: 'never' });
    }
  });

  it('lists providers in the remote config and on the login page; unlink removes an identity', async () => {
    const config = (await (await m.ward.fetch('/identity/v1/config?client_id=spa')).json()) as {
      social_providers: string[];
    };
    assert.deepEqual(config.social_providers, ['corp', 'plain']);
    const page = await m.ward.fetch(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.match(await page.text(), /Continue with Corp/);
    idp.account = {
      sub: 'corp-unlink',
      email: 'unlink@corp.example',
      email_verified: true,
      given_name: 'U',
      family_name: 'L',
    };
    const { res, pkce } = await viaProvider('corp');
    const { body } = await redeem(m.ward, location(res).searchParams.get('code')!, pkce.verifier);
    const unlink = () =>
      m.ward.fetch('/identity/v1/unlink', {
        method: 'POST',
        headers: { authorization: `Bearer ${body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'corp' }),
      });
    // The provider is this user's only way to sign in: unlinking it is refused, and nothing changes.
    const last = await unlink();
    assert.equal(last.status, 409);
    assert.equal(
      ((await last.json()) as { error_message_key: string }).error_message_key,
      'error.identity.lastSignInMethod',
    );
    assert.ok(await m.ward.registry.storage.identities.find('corp', 'corp-unlink'));
    // With a password set, the identity may go.
    const user = (await m.ward.registry.storage.identities.find('corp', 'corp-unlink'))!;
    await m.ward.registry.storage.users.setPassword(user.user_id, await hashPassword('a long enough password'), 0);
    assert.equal((await unlink()).status, 204);
    assert.equal(await m.ward.registry.storage.identities.find('corp', 'corp-unlink'), undefined);
  });
});

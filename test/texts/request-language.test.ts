// One language for the whole of a sign-in: with ui_locales=fr and a browser that prefers English, the
// login page is French and so is the second-factor email it sends (before #34 the email followed
// Accept-Language and came in English). German and Spanish go the same way; the account's
// default_language decides when nothing in the request names a language Ward speaks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, signup } from '../helpers/oauth.js';
import { EMPTY_PROFILE } from '../../src/storage/sql/profiles.js';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe("a sign-in's language", () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: { mfa_required: 'always', rate_limits: { login: { limit: null }, signup: { limit: null } } },
    });
  });
  after(() => m.close());

  async function signInWith(uiLocales: string | undefined, acceptLanguage: string, storedLocale?: string) {
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email });
    if (storedLocale)
      await m.ward.registry.storage.profiles.put(user.id, { ...EMPTY_PROFILE, locale: storedLocale }, Date.now());
    const pkce = pkcePair();
    const browser = new Browser(m.ward);
    const headers = { 'accept-language': acceptLanguage };
    const url = authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ui_locales: uiLocales,
    });
    const loginPage = await (await browser.get(url, headers)).text();
    const afterPassword = await browser.postForm(
      '/oauth/authorize/login',
      {
        interaction: field(loginPage, 'interaction'),
        csrf: field(loginPage, 'csrf'),
        email: user.email,
        password: user.password,
      },
      headers,
    );
    assert.equal(afterPassword.status, 200);
    const mail = await m.smtp.next(user.email);
    return { loginPage, mfaPage: await afterPassword.text(), mail };
  }

  it('ui_locales=fr with Accept-Language: en: the login page and the second-factor email are French', async () => {
    const { loginPage, mfaPage, mail } = await signInWith('fr', 'en');
    assert.match(loginPage, /<html lang="fr">/);
    assert.match(mfaPage, /<html lang="fr">/);
    assert.match(mail.subject, /est votre code de vérification/);
    assert.match(mail.text, /Saisissez-le pour confirmer votre identité\./);
    codeIn(mail.text);
  });

  it('without ui_locales the weighted Accept-Language decides, for the email too', async () => {
    const { loginPage, mail } = await signInWith(undefined, 'en;q=0.5, fr;q=0.9');
    assert.match(loginPage, /<html lang="fr">/);
    assert.match(mail.subject, /est votre code de vérification/);
  });

  it('ui_locales=de sends the second-factor email in German, whatever the browser prefers', async () => {
    const { mail } = await signInWith('de-DE', 'fr-FR,fr;q=0.9');
    assert.match(mail.subject, /ist Ihr Bestätigungscode für/);
    assert.match(mail.text, /Geben Sie ihn ein, um zu bestätigen, dass Sie es sind\./);
  });

  it('ui_locales=en beats a French browser', async () => {
    const { loginPage, mail } = await signInWith('en', 'fr');
    assert.match(loginPage, /<html lang="en">/);
    assert.match(mail.subject, /is your Ward verification code/);
  });

  it("the user's stored locale comes before Accept-Language, after ui_locales, for the second-factor email", async () => {
    const stored = await signInWith(undefined, 'fr-FR,fr;q=0.9', 'de');
    assert.match(stored.loginPage, /<html lang="fr">/, 'the login page does not know the user yet');
    assert.match(stored.mail.subject, /ist Ihr Bestätigungscode für/);
    const asked = await signInWith('es', 'fr-FR,fr;q=0.9', 'de');
    assert.match(asked.mail.subject, /es su código de verificación/);
  });

  it("the account's default_language speaks when the request names no language Ward speaks", async () => {
    m.ward.setAccount({ default_language: 'es' });
    try {
      const { loginPage, mail } = await signInWith(undefined, 'it-IT,it;q=0.9');
      assert.match(loginPage, /<html lang="es">/);
      assert.match(mail.subject, /es su código de verificación/);
      const refused = await m.ward.fetch('/identity/v1/no-such-route', { headers: { 'accept-language': 'it' } });
      assert.equal(refused.status, 404);
      const body = (await refused.json()) as { error_user_msg: string; error_message_key: string };
      assert.equal(body.error_message_key, 'error.notFound');
      assert.equal(body.error_user_msg, 'No encontrado.');
      // A language the browser names and Ward speaks still wins over the default.
      const { loginPage: french } = await signInWith(undefined, 'it;q=0.9, fr;q=0.5');
      assert.match(french, /<html lang="fr">/);
    } finally {
      m.ward.setAccount({ default_language: 'en' });
    }
  });
});

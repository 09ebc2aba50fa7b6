// The device verification page in headless Chromium, in French: the user opens verification_uri,
// types the code the device shows (lower case, no dash), signs in with a password on the login page,
// approves on the approval page (the client and its scopes in plain words), and the device's poll
// gets its tokens. A mistyped code first: the page says so and keeps the form.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TV = {
  client_id: 'tv',
  name: 'Téléviseur du salon',
  type: 'public',
  allowed_callback_urls: ['https://tv.example/cb'],
  grant_types: [DEVICE_GRANT],
};

for (const engine of engines()) {
  describe(`the device page in Chromium (${engine})`, { timeout: 120_000 }, () => {
    let ward: TestWard;
    let chromium: Chromium;
    before(async () => {
      ward = await startWard({ engine, issuerHost: 'id.ward.test', clients: [TV] });
      chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await ward?.close();
    });

    const form = (path: string, params: Record<string, string>) =>
      ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });

    it('types the code, signs in, approves: the device gets its tokens', async () => {
      const user = await signup(ward, 'tv');
      const started = (await (
        await form('/oauth/device_authorization', { client_id: 'tv', scope: 'openid email' })
      ).json()) as { device_code: string; user_code: string; verification_uri: string };
      const pending = await form('/oauth/token', {
        grant_type: DEVICE_GRANT,
        device_code: started.device_code,
        client_id: 'tv',
      });
      assert.equal(((await pending.json()) as { error: string }).error, 'authorization_pending');

      const page = await chromium.context.newPage();
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'fr' });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(started.verification_uri);
      await page.getByRole('heading', { name: 'Connecter un appareil' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr');

      await page.getByLabel('Code').fill('BBBB-BBBB');
      await page.getByRole('button', { name: 'Continuer' }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Ce code n'est pas valide ou a expiré/);

      await page.getByLabel('Code').fill(started.user_code.replace('-', ' ').toLowerCase());
      await page.getByRole('button', { name: 'Continuer' }).click();
      await page.getByRole('heading', { name: 'Connexion à Téléviseur du salon' }).waitFor();
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Me connecter' }).click();

      await page.getByRole('heading', { name: 'Connecter Téléviseur du salon sur votre appareil ?' }).waitFor();
      const scopes = await page.locator('ul.scopes li').allTextContents();
      assert.equal(scopes.length, 2);
      assert.ok(
        scopes.some((s) => /adresse e-mail/i.test(s)),
        scopes.join(' | '),
      );
      await page.getByRole('button', { name: 'Autoriser' }).click();
      await page.getByRole('heading', { name: 'Appareil connecté' }).waitFor();
      assert.deepEqual(problems, []);

      ward.clock.advance(5_000);
      const res = await form('/oauth/token', {
        grant_type: DEVICE_GRANT,
        device_code: started.device_code,
        client_id: 'tv',
      });
      assert.equal(res.status, 200);
      const tokens = (await res.json()) as { access_token: string; id_token: string; refresh_token?: string };
      assert.ok(tokens.access_token && tokens.id_token);
      assert.equal(tokens.refresh_token, undefined, 'no offline_access: no refresh token');
      const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString()) as { sub: string };
      assert.equal(claims.sub, user.id);
      await page.close();
    });
  });
}

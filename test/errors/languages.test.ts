// Error answers follow Accept-Language: the JSON body's error_user_msg and the /oauth/authorize error
// page are French when the request prefers French, English otherwise; error_description, the key and
// the redirect to the client stay the same in every language (clients parse them). Refusals of the
// authorization checks stay JSON on the step-up API, and become a page or a redirect on /oauth/authorize.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textsIn } from '../../src/texts/texts.js';
import { authorizeUrl, PUBLIC_CLIENT, pkcePair, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const FR = { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' };

describe('error messages in the caller language', () => {
  let ward: TestWard;
  let email: string;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
    ({ email } = await signup(ward));
  });
  after(() => ward.close());

  const login = (headers: Record<string, string>) =>
    ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password: 'not the password' }),
    });

  it('answers the API in French when asked, the same body otherwise', async () => {
    const en = await login({});
    const fr = await login(FR);
    assert.equal(en.status, 400);
    assert.equal(fr.status, 400);
    assert.deepEqual(await en.json(), {
      error: 'invalid_grant',
      error_description: 'Invalid email or password',
      error_user_msg: 'Invalid email or password',
      error_message_key: 'error.invalidEmailOrPassword',
    });
    assert.deepEqual(await fr.json(), {
      error: 'invalid_grant',
      error_description: 'Invalid email or password',
      error_user_msg: 'Adresse e-mail ou mot de passe incorrect.',
      error_message_key: 'error.invalidEmailOrPassword',
    });
    // A language Ward does not speak: English (German and Spanish it speaks since #34, below).
    const other = await login({ 'accept-language': 'it-IT,it;q=0.9' });
    assert.equal(((await other.json()) as { error_user_msg: string }).error_user_msg, 'Invalid email or password');
  });

  it('answers the API in German and in Spanish, the description and key unchanged', async () => {
    const de = await login({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    assert.equal(de.status, 400);
    assert.deepEqual(await de.json(), {
      error: 'invalid_grant',
      error_description: 'Invalid email or password',
      error_user_msg: 'E-Mail-Adresse oder Passwort ist falsch.',
      error_message_key: 'error.invalidEmailOrPassword',
    });
    const es = await login({ 'accept-language': 'en;q=0.3, es-ES' });
    assert.equal(
      ((await es.json()) as { error_user_msg: string }).error_user_msg,
      'Correo electrónico o contraseña incorrectos.',
    );
    const missing = await ward.fetch('/identity/v1/nothing-here', { headers: { 'accept-language': 'de' } });
    assert.equal(((await missing.json()) as Record<string, string>).error_user_msg, 'Nicht gefunden.');
  });

  it('answers a 404 and a transport refusal in French too', async () => {
    const missing = await ward.fetch('/identity/v1/nothing-here', { headers: FR });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as Record<string, string>).error_user_msg, textsIn('fr').errors.notFound);
    const media = await ward.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...FR },
      body: 'grant_type=password',
    });
    assert.equal(media.status, 415);
    const body = (await media.json()) as Record<string, string>;
    assert.equal(body.error_user_msg, textsIn('fr').errors.unsupportedMediaType);
    assert.equal(body.error_message_key, 'error.unsupportedMediaType');
  });

  it('shows the /oauth/authorize error page in the language asked for, never redirecting an unknown client', async () => {
    const url = authorizeUrl({ client_id: 'nobody', redirect_uri: 'https://app.example/cb', response_type: 'code' });
    const en = await ward.fetch(url, { redirect: 'manual' });
    const fr = await ward.fetch(url, { redirect: 'manual', headers: FR });
    assert.equal(en.status, 400);
    assert.equal(fr.status, 400);
    assert.equal(en.headers.get('location'), null);
    assert.equal(fr.headers.get('location'), null);
    const [enPage, frPage] = [await en.text(), await fr.text()];
    assert.match(enPage, /This request cannot be completed/);
    assert.match(enPage, /Unknown client_id/);
    assert.match(frPage, /Cette demande ne peut pas aboutir/);
    assert.match(frPage, /Application inconnue\./);
    assert.match(frPage, /invalid_client/);
  });

  it('redirects a redirectable refusal to the client the same way in every language', async () => {
    const { challenge } = pkcePair();
    const url = authorizeUrl({
      client_id: 'spa',
      redirect_uri: 'https://app.example/cb',
      response_type: 'code',
      scope: 'openid',
      state: 'st-1',
      prompt: 'none',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const locations: string[] = [];
    for (const headers of [{}, FR]) {
      const res = await ward.fetch(url, { redirect: 'manual', headers });
      assert.equal(res.status, 302);
      locations.push(res.headers.get('location')!);
    }
    assert.equal(locations[0], locations[1]);
    const target = new URL(locations[0]!);
    assert.equal(target.origin + target.pathname, 'https://app.example/cb');
    assert.equal(target.searchParams.get('error'), 'login_required');
    assert.equal(target.searchParams.get('error_description'), 'The user is not signed in');
    assert.equal(target.searchParams.get('state'), 'st-1');
  });

  it('answers the same authorization checks as JSON on the step-up API', async () => {
    const res = await ward.fetch('/identity/v1/mfa/stepup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...FR },
      body: JSON.stringify({ client_id: 'nobody', redirect_uri: 'https://app.example/cb', response_type: 'code' }),
    });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await res.json(), {
      error: 'invalid_client',
      error_description: 'Unknown client_id',
      error_user_msg: 'Application inconnue.',
      error_message_key: 'error.invalidRequest',
    });
  });
});

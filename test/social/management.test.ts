// Social providers through the management API: add, list (no secret), use at once, change, remove;
// bad definitions refused; a Developer cannot touch them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair } from '../helpers/oauth.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('management API: social providers', () => {
  let idp: TinyIdp;
  let ward: TestWard;
  before(async () => {
    idp = await startTinyIdp();
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT] });
  });
  after(async () => {
    await ward.close();
    await idp.close();
  });

  it('adds a provider that works at once, never shows its secret, changes and removes it', async () => {
    const admin = api(ward, (await consoleToken(ward, 'manager')).token);
    const created = await admin.post('/api/v1/social-providers', {
      name: 'tiny',
      type: 'oidc',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      label: 'Tiny',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.client_secret, undefined);
    const listed = await admin.get('/api/v1/social-providers');
    assert.deepEqual(
      listed.body.providers.map((p: { name: string }) => p.name),
      ['tiny'],
    );
    assert.ok(!JSON.stringify(listed.body).includes(idp.clientSecret));
    const config = (await (await ward.fetch('/identity/v1/config?client_id=spa')).json()) as {
      social_providers: string[];
    };
    assert.deepEqual(config.social_providers, ['tiny']);
    const browser = new Browser(ward);
    const start = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        provider: 'tiny',
      }),
    );
    assert.equal(location(start).origin, idp.issuer);
    const back = await browser.get(location(start).toString());
    const cb = await browser.get(location(back).toString());
    assert.ok(location(cb).searchParams.get('code'), 'the provider added through the API signs users in');

    assert.equal((await admin.patch('/api/v1/social-providers/tiny', { label: 'Tiny IdP' })).body.label, 'Tiny IdP');
    assert.equal((await admin.patch('/api/v1/social-providers/tiny', { issuer: 'http://evil.example' })).status, 400);
    assert.equal(
      (
        await admin.post('/api/v1/social-providers', {
          name: 'tiny',
          type: 'oidc',
          issuer: idp.issuer,
          client_id: 'x',
          client_secret: 'y',
        })
      ).status,
      409,
    );
    assert.equal((await admin.post('/api/v1/social-providers', { name: 'BAD NAME', type: 'oidc' })).status, 400);
    assert.equal((await admin.del('/api/v1/social-providers/tiny')).status, 204);
    const gone = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        provider: 'tiny',
      }),
    );
    assert.equal(location(gone).searchParams.get('error'), 'invalid_request');
  });

  it('refuses a Developer', async () => {
    const dev = api(ward, (await consoleToken(ward, 'developer')).token);
    assert.equal(
      (await dev.post('/api/v1/social-providers', { preset: 'google', client_id: 'a', client_secret: 'b' })).status,
      403,
    );
    assert.equal((await dev.get('/api/v1/social-providers')).status, 200);
  });
});

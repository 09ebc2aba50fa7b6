// A management client: client_credentials tokens carrying management scopes, each scope within the
// client's allowed management_scopes; the token works only on the management API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const SECRET = 'management-client-secret-of-40-characters!';
const MGMT = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients', 'manage:keys'],
};

describe('management client (client_credentials)', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, MGMT] });
  });
  after(() => ward.close());

  const cc = (scope?: string) =>
    tokenRequest(ward, {
      grant_type: 'client_credentials',
      client_id: 'ops',
      client_secret: SECRET,
      ...(scope ? { scope } : {}),
    });

  it('issues a bearer token with the asked management scopes, no id_token and no refresh token', async () => {
    const res = await cc('manage:keys');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.scope, 'manage:keys');
    assert.equal(body.id_token, undefined);
    assert.equal(body.refresh_token, undefined);
    const a = api(ward, body.access_token as string);
    assert.equal((await a.post('/api/v1/clients/spa/keys', {})).status, 201);
    assert.equal((await a.get('/api/v1/clients')).status, 403, 'read:clients was not asked for');
    assert.equal((await a.patch('/api/v1/settings/account', { tkn_ttl: 60 })).status, 403);
    const ui = await ward.fetch('/identity/v1/userinfo', {
      headers: { authorization: `Bearer ${body.access_token as string}` },
    });
    assert.equal(ui.status, 401, 'no user behind a client_credentials token');
  });

  it('grants all the allowed management scopes when none is asked, and refuses others', async () => {
    const all = (await (await cc()).json()) as { scope: string };
    assert.equal(all.scope, 'read:clients manage:keys');
    const refused = await cc('manage:settings');
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error: string }).error, 'invalid_scope');
    const wrong = await tokenRequest(ward, {
      grant_type: 'client_credentials',
      client_id: 'ops',
      client_secret: 'x'.repeat(40),
    });
    assert.equal(wrong.status, 401);
    const code = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      client_id: 'ops',
      client_secret: SECRET,
      code: 'x',
    });
    assert.equal(
      ((await code.json()) as { error: string }).error,
      'unauthorized_client',
      'ops does not list authorization_code',
    );
  });
});

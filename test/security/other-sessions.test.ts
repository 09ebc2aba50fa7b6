// "Sign out everywhere else" (ASVS 7.4.3; checklist MF-03: the option to end the other sessions after
// a factor change): DELETE /identity/v1/sessions/others with a user's access token ends that user's
// other SSO sessions and revokes their other grants (refresh and access tokens); the caller's grant,
// its SSO session and that session's other grants stay; another user's sessions are not touched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import {
  PUBLIC_CLIENT,
  authorizeUrl,
  location,
  passwordLogin,
  pkcePair,
  redeem,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const SCOPE = 'openid profile email offline_access';

/** A code in `browser`: by tkn (a new login, a new SSO session) or by the session it has (prompt=none). */
async function tokensIn(ward: TestWard, browser: Browser, user: { email: string; password: string } | null) {
  const pkce = pkcePair();
  const tkn = user ? await passwordLogin(ward, user.email, user.password, 'spa', SCOPE) : undefined;
  const res = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: SCOPE,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...(tkn ? { tkn } : { prompt: 'none' }),
    }),
  );
  const code = location(res).searchParams.get('code');
  assert.ok(code, `a code: ${res.headers.get('location')}`);
  const { body } = await redeem(ward, code, pkce.verifier);
  assert.ok(body.access_token && body.refresh_token, JSON.stringify(body));
  return { access: body.access_token, refresh: body.refresh_token };
}

const userinfo = async (ward: TestWard, access: string) =>
  (await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${access}` } })).status;
const refreshes = async (ward: TestWard, refresh: string) =>
  (await tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'spa' })).status;
async function silent(browser: Browser): Promise<string | null> {
  const pkce = pkcePair();
  const res = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      prompt: 'none',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  );
  const loc = location(res);
  return loc.searchParams.get('code') ? 'code' : loc.searchParams.get('error');
}
const endOthers = (ward: TestWard, headers: Record<string, string>) =>
  ward.fetch('/identity/v1/sessions/others', { method: 'DELETE', headers });

describe('DELETE /identity/v1/sessions/others', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
    });
  });
  after(() => ward.close());

  it("ends the other sessions and their tokens, keeps the caller's session and its grants", async () => {
    const user = await signup(ward);
    const here = new Browser(ward);
    const elsewhere = new Browser(ward);
    const third = new Browser(ward);
    const mine = await tokensIn(ward, here, user);
    const sameBrowser = await tokensIn(ward, here, null);
    const theirs = await tokensIn(ward, elsewhere, user);
    const also = await tokensIn(ward, third, user);
    const other = await signup(ward);
    const otherBrowser = new Browser(ward);
    const otherTokens = await tokensIn(ward, otherBrowser, other);

    const res = await endOthers(ward, { authorization: `Bearer ${mine.access}` });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await res.json(), { ended_sessions: 2, revoked_grants: 2 });

    for (const t of [theirs, also]) {
      assert.equal(await userinfo(ward, t.access), 401, "the other sessions' access tokens are dead");
      assert.equal(await refreshes(ward, t.refresh), 400, 'and their refresh tokens');
    }
    assert.equal(await silent(elsewhere), 'login_required');
    assert.equal(await silent(third), 'login_required');
    assert.equal(await userinfo(ward, mine.access), 200, 'the caller stays');
    assert.equal(await userinfo(ward, sameBrowser.access), 200, 'and the other app of the same browser session');
    assert.equal(await refreshes(ward, mine.refresh), 200);
    assert.equal(await silent(here), 'code');
    assert.equal(await userinfo(ward, otherTokens.access), 200, 'another user is not touched');
    assert.equal(await silent(otherBrowser), 'code');

    const again = await endOthers(ward, { authorization: `Bearer ${mine.access}` });
    assert.deepEqual(await again.json(), { ended_sessions: 0, revoked_grants: 0 }, 'nothing left to end');
  });

  it('needs a live user access token', async () => {
    const none = await endOthers(ward, {});
    assert.equal(none.status, 401);
    assert.ok(none.headers.get('www-authenticate')?.startsWith('Bearer'));
    const bad = await endOthers(ward, { authorization: 'Bearer wat1.not-a-token' });
    assert.equal(bad.status, 401);
    assert.equal(((await bad.json()) as { error_message_key: string }).error_message_key, 'error.invalidToken');
  });
});

// The OpenID Foundation's Back-Channel RP-Initiated Logout OP test plan (oidcc-backchannel-rp-
// initiated-logout-certification-test-plan), written here from what its modules check: discovery
// says back-channel logout with sessions is supported; after an RP-initiated logout the relying
// party's back-channel URI (a real HTTP receiver on loopback) gets a POST whose form body holds only
// logout_token, a JWT signed with a key of the JWKS, typed logout+jwt, with iss, aud, iat, jti, the
// back-channel logout event, the sid and sub of the ended session, and no nonce; the browser comes
// back to the post_logout_redirect_uri with only the state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { engines } from '../helpers/databases.js';
import { location } from '../helpers/oauth.js';
import { LOGGED_OUT, rpConfig, signIn, type Suite, startSuite, verifyWithJwks } from './support.js';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

for (const engine of engines()) {
  describe(`OIDCC Back-Channel RP-Initiated Logout plan (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
    });
    after(() => suite.close());

    describe('oidcc-backchannel-logout-discovery-endpoint-verification', () => {
      it('says back-channel logout and its sessions are supported, and names an https end_session_endpoint', () => {
        const meta = config.serverMetadata();
        assert.equal(meta.backchannel_logout_supported, true);
        assert.equal(meta.backchannel_logout_session_supported, true);
        assert.equal(new URL(meta.end_session_endpoint!).protocol, 'https:');
        assert.ok(meta.claims_supported?.includes('sid'));
      });
    });

    describe('oidcc-backchannel-rp-initiated-logout', () => {
      it('POSTs only a valid logout_token to each client of the ended session; the browser returns with the state', async () => {
        // Signed in to rp through the login page, then to rp-post by single sign-on: one session, two clients.
        const first = await signIn(suite, { config });
        const post = await signIn(suite, {
          config: await rpConfig(suite.ward, 'rp-post'),
          browser: first.browser,
          user: first.user,
          expectLogin: false,
        });
        const idToken = first.tokens.claims()!;
        assert.equal(typeof idToken.sid, 'string', 'the ID token names its session');
        assert.equal(post.tokens.claims()!.sid, idToken.sid, 'one session, one sid');
        const start = suite.receiver.hits;
        const seen = suite.receiver.requests.length;
        const sent = Math.floor(suite.ward.clock.now() / 1000);

        const url = client.buildEndSessionUrl(config, {
          id_token_hint: first.tokens.id_token!,
          post_logout_redirect_uri: LOGGED_OUT,
          state: 'bc-state',
        });
        const res = await first.browser.get(url.toString(), { accept: 'text/html' });
        assert.equal(res.status, 302);
        assert.equal(location(res).toString(), `${LOGGED_OUT}?state=bc-state`);

        await suite.receiver.hitsReach(start + 2);
        const requests = suite.receiver.requests.slice(seen);
        assert.deepEqual(requests.map((r) => r.path).sort(), ['/backchannel/rp', '/backchannel/rp-post']);
        const jtis = new Set<string>();
        for (const r of requests) {
          assert.equal(r.method, 'POST');
          assert.match(r.contentType, /^application\/x-www-form-urlencoded/);
          const form = new URLSearchParams(r.body);
          assert.deepEqual([...form.keys()], ['logout_token'], 'only logout_token in the body');
          const token = form.get('logout_token')!;
          const audience = r.path.slice('/backchannel/'.length);
          const { payload, header } = await verifyWithJwks(suite.ward, token, { audience, typ: 'logout+jwt' });
          assert.equal(header.alg, 'RS256');
          assert.ok(header.kid, 'a kid of the JWKS');
          assert.equal(payload.iss, suite.ward.issuer);
          assert.ok(payload.aud === audience || (Array.isArray(payload.aud) && payload.aud.includes(audience)));
          assert.ok(typeof payload.iat === 'number' && payload.iat >= sent - 5 && payload.iat <= sent + 300);
          if (payload.exp !== undefined) assert.ok(payload.exp > payload.iat);
          assert.ok(typeof payload.jti === 'string' && payload.jti.length >= 16);
          jtis.add(payload.jti);
          assert.deepEqual(payload.events, { [EVENT]: {} });
          assert.ok(payload.sub || payload.sid, 'sub or sid');
          assert.equal(payload.sid, idToken.sid);
          assert.equal(payload.sub, idToken.sub);
          assert.equal('nonce' in payload, false, 'never a nonce');
        }
        assert.equal(jtis.size, 2, 'a jti per token');
      });

      it('a logout token is no ID token: refused as an id_token_hint', async () => {
        const first = await signIn(suite, { config });
        const start = suite.receiver.hits;
        const seen = suite.receiver.requests.length;
        const url = client.buildEndSessionUrl(config, { id_token_hint: first.tokens.id_token! });
        assert.equal((await first.browser.get(url.toString(), { accept: 'text/html' })).status, 200);
        await suite.receiver.hitsReach(start + 1);
        const r = suite.receiver.requests.slice(seen).find((x) => x.path === '/backchannel/rp')!;
        const token = new URLSearchParams(r.body).get('logout_token')!;
        assert.equal(decodeProtectedHeader(token).typ, 'logout+jwt');
        assert.equal(decodeJwt(token).sid, first.tokens.claims()!.sid);
        // A new session: the logout token offered where an ID token is expected is refused.
        const again = await signIn(suite, { config });
        const refused = await again.browser.get(
          `/identity/v1/logout?${new URLSearchParams({ id_token_hint: token, post_logout_redirect_uri: LOGGED_OUT })}`,
          { accept: 'text/html' },
        );
        assert.equal(refused.status, 400);
        assert.equal(refused.headers.get('location'), null);
      });
    });
  });
}

// An OIDC provider may put the email and profile claims only in its UserInfo answer when it issues
// an access token (OIDC Core 5.4; oidc-provider's default, see corp-idp.test.ts). The upstream
// client (src/social/upstream.ts) against a scripted provider on loopback: UserInfo is
// asked only for what the verified id_token lacks; its answer counts only for the id_token's subject
// (OIDC Core 5.3.2), else access_denied; the id_token's own email (and its email_verified) wins.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { SocialProviderConfig } from '../../src/config/types.js';
import { systemClock } from '../../src/lib/clock.js';
import { UpstreamError, createUpstream } from '../../src/social/upstream.js';
import { loopbackOutbound } from '../helpers/outbound.js';

const CALLBACK = 'https://localhost:1/identity/v1/oauth/callback/scripted';

describe('OIDC upstream: the profile completed from UserInfo', { timeout: 30_000 }, () => {
  let server: Server;
  let issuer = '';
  /** What the next id_token and UserInfo answer say. */
  let idClaims: Record<string, unknown> = {};
  let userinfo: Record<string, unknown> = {};
  let userinfoCalls: string[] = [];
  before(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer(async (req, res) => {
      for await (const _ of req);
      const json = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.url === '/.well-known/openid-configuration')
        return json({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/me`,
          jwks_uri: `${issuer}/jwks`,
        });
      if (req.url === '/jwks') return json({ keys: [jwk] });
      if (req.url === '/token') {
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({ nonce: 'n-1', ...idClaims })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience('rp')
          .setSubject('subject-1')
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey);
        return json({ access_token: 'upstream-access', token_type: 'Bearer', id_token: idToken });
      }
      if (req.url === '/me') {
        userinfoCalls.push(req.headers.authorization ?? '');
        return json(userinfo);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await outbound.close();
  });
  beforeEach(() => {
    userinfoCalls = [];
  });

  const outbound = loopbackOutbound();
  const upstream = () =>
    createUpstream(
      {
        name: 'scripted',
        type: 'oidc',
        client_id: 'rp',
        client_secret: 's',
        scopes: ['openid', 'email', 'profile'],
        issuer,
        label: 'S',
      } satisfies SocialProviderConfig,
      CALLBACK,
      systemClock,
      outbound,
    );

  it('asks UserInfo (with the access token) for the claims the id_token lacks', async () => {
    idClaims = {};
    userinfo = {
      sub: 'subject-1',
      email: 'info@corp.example',
      email_verified: true,
      given_name: 'In',
      family_name: 'Fo',
    };
    const profile = await upstream().profile('code', 'verifier', 'n-1');
    assert.deepEqual(profile, {
      sub: 'subject-1',
      email: 'info@corp.example',
      email_verified: true,
      given_name: 'In',
      family_name: 'Fo',
    });
    assert.deepEqual(userinfoCalls, ['Bearer upstream-access']);
  });

  it('refuses a UserInfo answer about another subject (access_denied)', async () => {
    idClaims = {};
    userinfo = { sub: 'someone-else', email: 'victim@corp.example', email_verified: true };
    await assert.rejects(
      upstream().profile('code', 'verifier', 'n-1'),
      (e: unknown) =>
        e instanceof UpstreamError && e.oauthError === 'access_denied' && /another subject/.test(e.message),
    );
  });

  it("keeps the id_token's email and its email_verified; UserInfo only fills in the names", async () => {
    idClaims = { email: 'token@corp.example', email_verified: false };
    userinfo = {
      sub: 'subject-1',
      email: 'other@corp.example',
      email_verified: true,
      given_name: 'Gi',
      family_name: 'Ven',
    };
    const profile = await upstream().profile('code', 'verifier', 'n-1');
    assert.deepEqual(profile, {
      sub: 'subject-1',
      email: 'token@corp.example',
      email_verified: false,
      given_name: 'Gi',
      family_name: 'Ven',
    });
  });

  it('does not call UserInfo when the id_token has everything', async () => {
    idClaims = { email: 'full@corp.example', email_verified: true, given_name: 'Fu', family_name: 'Ll' };
    const profile = await upstream().profile('code', 'verifier', 'n-1');
    assert.equal(profile.email, 'full@corp.example');
    assert.deepEqual(userinfoCalls, []);
  });
});

// A local Google sign-in (OpenID Connect) for the `google` preset's tests, in the shape Google documents:
// discovery at <issuer>/.well-known/openid-configuration (issuer = the configured one), /o/oauth2/v2/auth
// (the code comes back by a redirect with `state`, `scope`, `authuser`, `prompt`), /token
// (client_secret_basic or _post, PKCE S256), /oauth2/v3/certs, /v1/userinfo; RS256 id_tokens with
// `azp`, `email`, `email_verified` (a boolean), the names (the profile scope) and `nonce`.
// Loopback only.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { jsonAnswer, readForm } from './sim-http.js';

export interface GoogleAccount {
  sub: string;
  /** Absent: an account without an email, or a sign-in without the email scope granted. */
  email?: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface GoogleSim {
  /** http://127.0.0.1:<port>, standing for https://accounts.google.com. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  account: GoogleAccount;
  /**
   * The credential Google One Tap hands its callback: an id_token for `audience` (the client id by
   * default) carrying `nonce` (the SHA-256 the page gave initialize) as Google signs it; `forged` signs it
   * with a key the JWKS does not publish, `expiresIn` may be negative (an expired one).
   */
  oneTapCredential(o: { nonce?: string; audience?: string; expiresIn?: number; forged?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export async function startGoogleSim(): Promise<GoogleSim> {
  const keys = await generateKeyPair('RS256');
  const forger = generateKeyPair('RS256');
  const kid = randomBytes(20).toString('hex');
  const jwk: JWK = { ...(await exportJWK(keys.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<
    string,
    { redirect: string; challenge: string | null; nonce: string | null; account: GoogleAccount }
  >();
  const tokens = new Map<string, GoogleAccount>();
  const sim: GoogleSim = {
    issuer: '',
    clientId: `${randomBytes(6).toString('hex')}-test.apps.googleusercontent.com`,
    clientSecret: `GOCSPX-${randomBytes(14).toString('base64url')}`,
    account: {
      sub: '110169484474386276334',
      email: 'larry@gmail.example',
      email_verified: true,
      given_name: 'Larry',
      family_name: 'Page',
    },
    oneTapCredential: async (o) => {
      const a = sim.account;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        azp: sim.clientId,
        ...(a.email === undefined ? {} : { email: a.email, email_verified: a.email_verified }),
        nbf: now - 60,
        name: `${a.given_name} ${a.family_name}`,
        given_name: a.given_name,
        family_name: a.family_name,
        ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
        jti: randomBytes(20).toString('hex'),
      })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(sim.issuer)
        .setAudience(o.audience ?? sim.clientId)
        .setSubject(a.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + (o.expiresIn ?? 3600))
        .sign(o.forged ? (await forger).privateKey : keys.privateKey);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, sim.issuer);
    const json = jsonAnswer(res);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: sim.issuer,
        authorization_endpoint: `${sim.issuer}/o/oauth2/v2/auth`,
        device_authorization_endpoint: `${sim.issuer}/device/code`,
        token_endpoint: `${sim.issuer}/token`,
        userinfo_endpoint: `${sim.issuer}/v1/userinfo`,
        revocation_endpoint: `${sim.issuer}/revoke`,
        jwks_uri: `${sim.issuer}/oauth2/v3/certs`,
        response_types_supported: [
          'code',
          'token',
          'id_token',
          'code token',
          'code id_token',
          'token id_token',
          'code token id_token',
          'none',
        ],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: [
          'aud',
          'email',
          'email_verified',
          'exp',
          'family_name',
          'given_name',
          'iat',
          'iss',
          'name',
          'picture',
          'sub',
        ],
        code_challenge_methods_supported: ['plain', 'S256'],
        grant_types_supported: [
          'authorization_code',
          'refresh_token',
          'urn:ietf:params:oauth:grant-type:device_code',
          'urn:ietf:params:oauth:grant-type:jwt-bearer',
        ],
      });
    }
    if (url.pathname === '/oauth2/v3/certs') return json(200, { keys: [jwk] });
    if (url.pathname === '/o/oauth2/v2/auth') {
      const q = url.searchParams;
      if (q.get('client_id') !== sim.clientId || q.get('response_type') !== 'code' || !q.get('redirect_uri'))
        return json(400, { error: 'invalid_request' });
      const code = `4/0A${randomBytes(30).toString('base64url')}`;
      codes.set(code, {
        redirect: q.get('redirect_uri')!,
        challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null,
        nonce: q.get('nonce'),
        account: { ...sim.account },
      });
      const back = new URL(q.get('redirect_uri')!);
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      back.searchParams.set('code', code);
      back.searchParams.set('scope', 'email profile openid');
      back.searchParams.set('authuser', '0');
      back.searchParams.set('prompt', 'consent');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/v1/userinfo') {
      const a = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!a) return json(401, { error: 'invalid_request' });
      return json(200, {
        sub: a.sub,
        ...(a.email === undefined ? {} : { email: a.email, email_verified: a.email_verified }),
        given_name: a.given_name,
        family_name: a.family_name,
      });
    }
    if (url.pathname !== '/token' || req.method !== 'POST') return json(404, { error: 'not_found' });
    const f = await readForm(req);
    const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const [basicId, basicSecret] = basic.split(':').map(decodeURIComponent);
    if (
      !(basicId === sim.clientId && basicSecret === sim.clientSecret) &&
      !(f.get('client_id') === sim.clientId && f.get('client_secret') === sim.clientSecret)
    )
      return json(401, { error: 'invalid_client', error_description: 'Unauthorized' });
    const grant = codes.get(f.get('code') ?? '');
    codes.delete(f.get('code') ?? '');
    if (
      f.get('grant_type') !== 'authorization_code' ||
      !grant ||
      grant.redirect !== f.get('redirect_uri') ||
      (grant.challenge !== null &&
        createHash('sha256')
          .update(f.get('code_verifier') ?? '')
          .digest('base64url') !== grant.challenge)
    )
      return json(400, { error: 'invalid_grant', error_description: 'Bad Request' });
    const a = grant.account;
    const access = `ya29.${randomBytes(30).toString('base64url')}`;
    tokens.set(access, a);
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({
      azp: sim.clientId,
      ...(a.email === undefined ? {} : { email: a.email, email_verified: a.email_verified }),
      name: `${a.given_name} ${a.family_name}`,
      given_name: a.given_name,
      family_name: a.family_name,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(sim.issuer)
      .setAudience(sim.clientId)
      .setSubject(a.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(keys.privateKey);
    return json(200, {
      access_token: access,
      expires_in: 3599,
      scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
      token_type: 'Bearer',
      id_token: idToken,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  sim.issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return sim;
}

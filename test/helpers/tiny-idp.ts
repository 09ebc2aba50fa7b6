// A small upstream identity provider for the social-login tests, speaking real OIDC (discovery,
// authorization endpoint, token endpoint with PKCE and Basic auth, JWKS, RS256 id_tokens) and plain
// OAuth 2.0 (a profile endpoint), with switches to misbehave: a wrong nonce, a foreign signing key,
// a refusal, an outage. Loopback only.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

export interface TinyAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface TinyIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorization logs in as. */
  account: TinyAccount;
  /** Misbehaviours for the next token request. */
  mode: 'ok' | 'wrong_nonce' | 'foreign_key' | 'refuse' | 'down' | 'wrong_audience';
  close(): Promise<void>;
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
};

export async function startTinyIdp(): Promise<TinyIdp> {
  const keys = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(keys.publicKey)), kid: 'tiny-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string | null; challenge: string; redirect: string; account: TinyAccount }>();
  const tokens = new Map<string, TinyAccount>();
  const idp: TinyIdp = {
    issuer: '',
    clientId: 'ward-at-tiny',
    clientSecret: randomBytes(16).toString('hex'),
    mode: 'ok',
    account: {
      sub: 'tiny-user-1',
      email: 'tiny@example.com',
      email_verified: true,
      given_name: 'Tiny',
      family_name: 'User',
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, idp.issuer);
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    if (idp.mode === 'down' && url.pathname !== '/authorize') return json(503, { error: 'temporarily_unavailable' });
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: idp.issuer,
        authorization_endpoint: `${idp.issuer}/authorize`,
        token_endpoint: `${idp.issuer}/token`,
        userinfo_endpoint: `${idp.issuer}/me`,
        jwks_uri: `${idp.issuer}/jwks`,
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const back = new URL(q.get('redirect_uri')!);
      if (q.get('client_id') !== idp.clientId || q.get('code_challenge_method') !== 'S256')
        return json(400, { error: 'invalid_request' });
      if (idp.mode === 'refuse') back.searchParams.set('error', 'access_denied');
      else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          nonce: q.get('nonce'),
          challenge: q.get('code_challenge')!,
          redirect: q.get('redirect_uri')!,
          account: { ...idp.account },
        });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = await body(req);
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      if (basic !== `${idp.clientId}:${idp.clientSecret}`) return json(401, { error: 'invalid_client' });
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (
        !grant ||
        grant.redirect !== form.get('redirect_uri') ||
        createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
      )
        return json(400, { error: 'invalid_grant' });
      const access = randomBytes(16).toString('hex');
      tokens.set(access, grant.account);
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({
        ...grant.account,
        nonce: idp.mode === 'wrong_nonce' ? 'not-the-nonce' : grant.nonce,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'tiny-1' })
        .setIssuer(idp.issuer)
        .setAudience(idp.mode === 'wrong_audience' ? 'someone-else' : idp.clientId)
        .setSubject(grant.account.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(idp.mode === 'foreign_key' ? foreign.privateKey : keys.privateKey);
      return json(200, { access_token: access, token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    if (url.pathname === '/me') {
      const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!account) return json(401, { error: 'invalid_token' });
      return json(200, { id: account.sub, mail: account.email, first: account.given_name, last: account.family_name });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  idp.issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return idp;
}

// A local Sign in with Apple for the `apple` preset's tests, speaking its REST protocol as Apple
// documents it: discovery at <issuer>/.well-known/openid-configuration (no userinfo), /auth/authorize
// (with the name or email scope only `response_mode=form_post`: the answer is a page whose form the
// browser posts to the redirect_uri: `code`, `state`, and on the first authorization of an account
// by the app only, `user` = {"name":{"firstName","lastName"},"email"}), /auth/token (client_secret_post,
// the secret an ES256 JWT from the team key checked with jose: kid, iss = team id, sub = client_id,
// aud = the issuer, exp at most six months after iat; PKCE when the authorization had a challenge),
// /auth/keys; RS256 id_tokens whose `email_verified` and `is_private_email` are strings.
// Loopback only.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  SignJWT,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JWK,
} from 'jose';
import { jsonAnswer, readForm } from './sim-http.js';

export interface AppleAccount {
  sub: string;
  email: string;
  /** Apple's form: a string. */
  email_verified: 'true' | 'false';
  is_private_email: 'true' | 'false';
  firstName: string;
  lastName: string;
}

export interface AppleSim {
  /** http://127.0.0.1:<port>, standing for https://appleid.apple.com. */
  issuer: string;
  /** The Services ID. */
  clientId: string;
  teamId: string;
  keyId: string;
  /** The team key as Apple hands it out (.p8: PKCS#8 PEM). */
  teamKeyPem: string;
  account: AppleAccount;
  /** Every client secret the token endpoint accepted, in order. */
  secrets: string[];
  /** The time the client secret is checked at (Ward's clock in a test that moves it). */
  now: () => number;
  close(): Promise<void>;
}

/** The form of the page Apple answers with: where it posts and what. */
export function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const unescapeHtml = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const action = unescapeHtml(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g))
    fields[m[1]!] = unescapeHtml(m[2]!);
  return { action, fields };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SIX_MONTHS = 15_777_000;

export async function startAppleSim(): Promise<AppleSim> {
  const signing = await generateKeyPair('RS256');
  const kid = randomBytes(5).toString('hex').toUpperCase();
  const jwk: JWK = { ...(await exportJWK(signing.publicKey)), kid, use: 'sig', alg: 'RS256' };
  const team = await generateKeyPair('ES256', { extractable: true });
  const teamPublic: CryptoKey = team.publicKey;
  const codes = new Map<
    string,
    { redirect: string; challenge: string | null; nonce: string | null; account: AppleAccount }
  >();
  /** Accounts that already authorized the app: Apple sends `user` only the first time. */
  const authorized = new Set<string>();
  const sim: AppleSim = {
    issuer: '',
    clientId: 'com.example.ward.web',
    teamId: randomBytes(5).toString('hex').toUpperCase(),
    keyId: randomBytes(5).toString('hex').toUpperCase(),
    teamKeyPem: await exportPKCS8(team.privateKey),
    account: {
      sub: '001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1234',
      email: 'x7kq2m9p4r@privaterelay.appleid.com',
      email_verified: 'true',
      is_private_email: 'true',
      firstName: 'Anna',
      lastName: 'Apfel',
    },
    secrets: [],
    now: () => Date.now(),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, sim.issuer);
    const json = jsonAnswer(res, 'application/json;charset=UTF-8');
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: sim.issuer,
        authorization_endpoint: `${sim.issuer}/auth/authorize`,
        token_endpoint: `${sim.issuer}/auth/token`,
        revocation_endpoint: `${sim.issuer}/auth/revoke`,
        jwks_uri: `${sim.issuer}/auth/keys`,
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'name'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        claims_supported: [
          'aud',
          'email',
          'email_verified',
          'exp',
          'iat',
          'is_private_email',
          'iss',
          'nonce',
          'nonce_supported',
          'real_user_status',
          'sub',
          'transfer_sub',
        ],
      });
    }
    if (url.pathname === '/auth/keys') return json(200, { keys: [jwk] });
    if (url.pathname === '/auth/authorize') {
      const q = url.searchParams;
      const scopes = (q.get('scope') ?? '').split(' ');
      if (q.get('client_id') !== sim.clientId || q.get('response_type') !== 'code' || !q.get('redirect_uri'))
        return json(400, { error: 'invalid_request' });
      if ((scopes.includes('name') || scopes.includes('email')) && q.get('response_mode') !== 'form_post')
        return json(400, { error: 'invalid_request', error_description: 'response_mode must be form_post' });
      const a = { ...sim.account };
      const code = `c${randomBytes(24).toString('hex')}.0.rsq.${randomBytes(8).toString('hex')}`;
      codes.set(code, {
        redirect: q.get('redirect_uri')!,
        challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null,
        nonce: q.get('nonce'),
        account: a,
      });
      const fields: Record<string, string> = { state: q.get('state') ?? '', code };
      if (!authorized.has(a.sub)) {
        authorized.add(a.sub);
        fields.user = JSON.stringify({ name: { firstName: a.firstName, lastName: a.lastName }, email: a.email });
      }
      const inputs = Object.entries(fields)
        .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html><body><form method="post" action="${escapeHtml(q.get('redirect_uri')!)}">${inputs}</form>` +
          '<script>document.forms[0].submit()</script></body></html>',
      );
    }
    if (url.pathname === '/auth/token' && req.method === 'POST') {
      const f = await readForm(req);
      const secret = f.get('client_secret') ?? '';
      try {
        if (f.get('client_id') !== sim.clientId || decodeProtectedHeader(secret).kid !== sim.keyId) throw new Error();
        const { payload } = await jwtVerify(secret, teamPublic, {
          algorithms: ['ES256'],
          issuer: sim.teamId,
          subject: sim.clientId,
          audience: sim.issuer,
          currentDate: new Date(sim.now()),
          requiredClaims: ['iat', 'exp'],
        });
        if (payload.exp! - payload.iat! > SIX_MONTHS) throw new Error();
      } catch {
        return json(400, { error: 'invalid_client' });
      }
      sim.secrets.push(secret);
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
        return json(400, { error: 'invalid_grant' });
      const a = grant.account;
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({
        ...(grant.nonce ? { nonce: grant.nonce, nonce_supported: true } : {}),
        email: a.email,
        email_verified: a.email_verified,
        is_private_email: a.is_private_email,
        auth_time: now,
        real_user_status: 2,
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(sim.issuer)
        .setAudience(sim.clientId)
        .setSubject(a.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(signing.privateKey);
      return json(200, {
        access_token: randomBytes(24).toString('hex'),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: randomBytes(24).toString('hex'),
        id_token: idToken,
      });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  sim.issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return sim;
}

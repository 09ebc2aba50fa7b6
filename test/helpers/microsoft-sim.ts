// A local Microsoft identity platform (v2.0 endpoints) for the `microsoft` preset's tests, speaking its
// protocol as Microsoft documents it: discovery at <base>/<tenant>/v2.0/.well-known/openid-configuration
// for `common`, `organizations`, `consumers` or a tenant id, whose issuer is the template
// <base>/{tenantid}/v2.0 (literal braces) for common and organizations, the consumers tenant's own issuer
// for consumers and the tenant's for a tenant; /<tenant>/oauth2/v2.0/authorize (the code comes back by
// a redirect, response_mode=query), /<tenant>/oauth2/v2.0/token (client_secret_basic or _post, PKCE),
// /<tenant>/discovery/v2.0/keys, and Graph's /oidc/userinfo. The id_token carries `tid`, `oid` and
// iss = <base>/<tid>/v2.0, no `email_verified`. Like Microsoft, `organizations` refuses personal
// accounts and a tenant endpoint refuses other tenants' accounts, unless `mode` says otherwise.
// Loopback only.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { jsonAnswer, readForm } from './sim-http.js';

export const CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export interface MicrosoftAccount {
  /** Pairwise subject (per application). */
  sub: string;
  oid: string;
  /** The account's home tenant (CONSUMERS_TENANT for a personal account). */
  tid: string;
  name: string;
  given_name: string;
  family_name: string;
  preferred_username: string;
  email?: string;
}

export interface MicrosoftSim {
  /** http://127.0.0.1:<port>, standing for https://login.microsoftonline.com. */
  base: string;
  /** The issuer to configure for a tenant path: <base>/<tenant>/v2.0. */
  issuerFor(tenant: string): string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorization signs in. */
  account: MicrosoftAccount;
  /**
   * `ok`; `any_tenant`: the authorize endpoint skips its tenant restriction (so only Ward's own check
   * stands); `iss_mismatch`: the id_token's iss names another tenant than its tid.
   */
  mode: 'ok' | 'any_tenant' | 'iss_mismatch';
  close(): Promise<void>;
}

const TEMPLATE = '{tenantid}';

export async function startMicrosoftSim(): Promise<MicrosoftSim> {
  const keys = await generateKeyPair('RS256');
  const kid = randomBytes(8).toString('hex');
  const jwk: JWK = { ...(await exportJWK(keys.publicKey)), kid, use: 'sig' };
  const codes = new Map<
    string,
    { client: string; redirect: string; challenge: string | null; nonce: string | null; account: MicrosoftAccount }
  >();
  const tokens = new Map<string, MicrosoftAccount>();
  const sim: MicrosoftSim = {
    base: '',
    issuerFor: (tenant) => `${sim.base}/${tenant}/v2.0`,
    clientId: randomUUID(),
    clientSecret: randomBytes(20).toString('base64url'),
    mode: 'ok',
    account: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      oid: randomUUID(),
      tid: randomUUID(),
      name: 'Megan Bowen',
      given_name: 'Megan',
      family_name: 'Bowen',
      preferred_username: 'megan@contoso.example',
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  /** The issuer the discovery of a tenant path names. */
  const discoveredIssuer = (tenant: string) => {
    if (tenant === 'common' || tenant === 'organizations') return `${sim.base}/${TEMPLATE}/v2.0`;
    if (tenant === 'consumers') return `${sim.base}/${CONSUMERS_TENANT}/v2.0`;
    return `${sim.base}/${tenant}/v2.0`;
  };
  /** Whether a tenant path lets this account sign in (Microsoft's own rule at its sign-in page). */
  const admits = (tenant: string, a: MicrosoftAccount) => {
    if (tenant === 'common') return true;
    if (tenant === 'organizations') return a.tid !== CONSUMERS_TENANT;
    if (tenant === 'consumers') return a.tid === CONSUMERS_TENANT;
    return a.tid === tenant;
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, sim.base);
    const json = jsonAnswer(res);
    if (url.pathname === '/oidc/userinfo') {
      const a = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!a) return json(401, { error: { code: 'InvalidAuthenticationToken' } });
      return json(200, {
        sub: a.sub,
        name: a.name,
        given_name: a.given_name,
        family_name: a.family_name,
        ...(a.email ? { email: a.email } : {}),
      });
    }
    const m =
      /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/token|discovery\/v2\.0\/keys)$/.exec(
        url.pathname,
      );
    if (!m) return json(404, { error: 'not_found' });
    const [, tenant, what] = m as unknown as [string, string, string];
    if (what.endsWith('openid-configuration')) {
      return json(200, {
        token_endpoint: `${sim.base}/${tenant}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        jwks_uri: `${sim.base}/${tenant}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        issuer: discoveredIssuer(tenant),
        request_uri_parameter_supported: false,
        userinfo_endpoint: `${sim.base}/oidc/userinfo`,
        authorization_endpoint: `${sim.base}/${tenant}/oauth2/v2.0/authorize`,
        http_logout_supported: true,
        frontchannel_logout_supported: true,
        end_session_endpoint: `${sim.base}/${tenant}/oauth2/v2.0/logout`,
        claims_supported: [
          'sub',
          'iss',
          'aud',
          'exp',
          'iat',
          'auth_time',
          'nonce',
          'preferred_username',
          'name',
          'tid',
          'ver',
          'oid',
          'email',
        ],
        tenant_region_scope: null,
        cloud_instance_name: 'microsoftonline.com',
      });
    }
    if (what.endsWith('keys')) return json(200, { keys: [jwk] });
    if (what.endsWith('authorize')) {
      const q = url.searchParams;
      if (q.get('client_id') !== sim.clientId || q.get('response_type') !== 'code' || !q.get('redirect_uri'))
        return json(400, { error: 'invalid_request' });
      const back = new URL(q.get('redirect_uri')!);
      if (sim.mode !== 'any_tenant' && !admits(tenant, sim.account)) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'AADSTS50020: User account does not exist in tenant');
      } else {
        const code = randomBytes(24).toString('base64url');
        codes.set(code, {
          client: sim.clientId,
          redirect: q.get('redirect_uri')!,
          challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null,
          nonce: q.get('nonce'),
          account: { ...sim.account },
        });
        back.searchParams.set('code', code);
      }
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method !== 'POST') return json(405, { error: 'invalid_request' });
    const f = await readForm(req);
    const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const [basicId, basicSecret] = basic.split(':').map(decodeURIComponent);
    const clientOk =
      (basicId === sim.clientId && basicSecret === sim.clientSecret) ||
      (f.get('client_id') === sim.clientId && f.get('client_secret') === sim.clientSecret);
    if (!clientOk)
      return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret' });
    const grant = codes.get(f.get('code') ?? '');
    codes.delete(f.get('code') ?? '');
    const verifier = f.get('code_verifier');
    if (
      f.get('grant_type') !== 'authorization_code' ||
      !grant ||
      grant.redirect !== f.get('redirect_uri') ||
      (grant.challenge !== null &&
        createHash('sha256')
          .update(verifier ?? '')
          .digest('base64url') !== grant.challenge)
    )
      return json(400, { error: 'invalid_grant' });
    const a = grant.account;
    const access = randomBytes(24).toString('base64url');
    tokens.set(access, a);
    const otherTenant = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({
      ver: '2.0',
      tid: a.tid,
      oid: a.oid,
      name: a.name,
      preferred_username: a.preferred_username,
      ...(a.email ? { email: a.email } : {}),
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(`${sim.base}/${sim.mode === 'iss_mismatch' ? otherTenant : a.tid}/v2.0`)
      .setAudience(grant.client)
      .setSubject(a.sub)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(keys.privateKey);
    return json(200, {
      token_type: 'Bearer',
      scope: 'openid email profile',
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: access,
      id_token: idToken,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  sim.base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return sim;
}

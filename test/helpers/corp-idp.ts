// "corp-idp": a real upstream OpenID Connect provider for the social-login tests, oidc-provider 8
// on http://127.0.0.1:<port> with its development interactions (a login form, then a consent
// form). PKCE is required, the client authenticates with client_secret_basic, the accounts have
// email, email_verified, given_name and family_name. Two steps, because each side must know the
// other's URL: openCorpIdp() listens (the issuer is known), register(redirectUri) builds the provider
// once Ward's callback URL is known. Also: a driver that takes a cookie-jar Browser through the
// provider's pages (log in and consent, or cancel) back to Ward's callback. Loopback only.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import type { Response } from 'undici';
import type { Browser } from './browser.js';
import { startWard, type TestWard } from './ward.js';

export interface CorpAccount {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface CorpIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name (the login form's first field; any password). */
  accounts: Map<string, CorpAccount>;
  /** Grants the provider issued at its token endpoint (authorization_code), and its errors. */
  tokenGrants: number;
  errors: string[];
  register(redirectUris: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function openCorpIdp(): Promise<CorpIdp> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const idp: CorpIdp = {
    issuer: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    clientId: 'ward-at-corp',
    clientSecret: randomBytes(24).toString('base64url'),
    accounts: new Map(),
    tokenGrants: 0,
    errors: [],
    async register(redirectUris) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const provider = new Provider(idp.issuer, {
        clients: [
          {
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        findAccount: (_ctx, id) => {
          const account = idp.accounts.get(id);
          return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
        scopes: ['openid', 'email', 'profile'],
        jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'corp-1', alg: 'RS256', use: 'sig' }] },
        // Plain http on loopback: no SameSite=None cookie (a browser drops it without Secure).
        cookies: {
          keys: [randomBytes(16).toString('hex')],
          long: { httpOnly: true, sameSite: 'lax', signed: true },
          short: { httpOnly: true, sameSite: 'lax', signed: true },
        },
        pkce: { required: () => true, methods: ['S256'] },
        features: { devInteractions: { enabled: true } },
        ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      });
      provider.on('grant.success', () => {
        idp.tokenGrants++;
      });
      for (const event of ['grant.error', 'authorization.error', 'server_error']) {
        provider.on(event, (_ctx, err) => {
          idp.errors.push(`${event}: ${(err as Error).message}`);
        });
      }
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return idp;
}

const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&amp;/g, '&');

export interface ThroughProvider {
  /** The provider's authorization URL Ward sent the browser to. */
  upstream: URL;
  /** Ward's callback URL the provider sent the browser back to. */
  callback: URL;
  /** Ward's answer at the callback. */
  res: Response;
  /** The provider pages shown, in order (login, consent). */
  pages: string[];
}

/**
 * From a URL of Ward that redirects to the provider (/oauth/authorize?...&provider=corp-idp):
 * through the provider's login (as `login`) and consent, or its Cancel link, back to Ward's callback.
 */
export async function throughCorpIdp(
  browser: Browser,
  wardUrl: string,
  opts: { login: string; cancel?: boolean },
): Promise<ThroughProvider> {
  const pages: string[] = [];
  const start = await browser.get(wardUrl);
  if (start.status !== 302)
    throw new Error(`Ward answered ${start.status}, not a redirect to the provider: ${await start.text()}`);
  const upstream = new URL(start.headers.get('location')!);
  let url = upstream;
  let res = await browser.get(url.toString());
  for (let step = 0; step < 12; step++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      if (url.pathname.startsWith('/identity/v1/oauth/callback/')) {
        if (opts.cancel && !pages.length)
          throw new Error('asked to cancel, but the provider showed no page (a session there?)');
        return { upstream, callback: url, res: await browser.get(url.toString()), pages };
      }
      res = await browser.get(url.toString());
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status} at ${url}: ${html.slice(0, 500)}`);
    const prompt = attr(html, /name="prompt" value="(\w+)"/);
    const action = attr(html, /<form[^>]*action="([^"]+)"/);
    if (!prompt || !action) throw new Error(`not a provider form at ${url}: ${html.slice(0, 500)}`);
    pages.push(prompt);
    if (opts.cancel) {
      url = new URL(attr(html, /href="([^"]+\/abort)"/)!, url);
      res = await browser.get(url.toString());
      continue;
    }
    url = new URL(action, url);
    res = await browser.postForm(
      url.toString(),
      prompt === 'login' ? { prompt, login: opts.login, password: 'any password' } : { prompt },
    );
  }
  throw new Error('too many steps at the provider');
}

/** A Ward with corp-idp as its social provider, the provider knowing Ward's callback. */
export async function startWardWithCorpIdp(
  clients: Array<Record<string, unknown>>,
): Promise<{ idp: CorpIdp; ward: TestWard; close(): Promise<void> }> {
  const idp = await openCorpIdp();
  const ward = await startWard({
    clients,
    account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
    socialProviders: [
      {
        name: 'corp-idp',
        type: 'oidc',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        label: 'Corp IdP',
      },
    ],
  });
  await idp.register([`${ward.url}/identity/v1/oauth/callback/corp-idp`]);
  return {
    idp,
    ward,
    async close() {
      await ward.close();
      await idp.close();
    },
  };
}

// One upstream provider: its endpoints (OIDC discovery, fetched at first use and cached), the
// authorization URL with state, nonce and PKCE, the code exchange, and the profile: from an id_token
// verified against the provider's JWKS (issuer, audience, signature, nonce, expiry), completed from
// its UserInfo endpoint (same subject) when the id_token lacks the email or the names, or for OAuth 2.0
// from the profile endpoint through the configured claim mapping. Failures are UpstreamError.
// Provider quirks: Microsoft's multi-tenant issuer template (issuer-rule.ts), Apple's minted
// client secret (apple-secret.ts), posted answer (`response_mode=form_post`) and first-sign-in names
// (posted-user.ts), and `email_verified` sent as the string "true"; Facebook's secret in the token
// request's body, no PKCE, `appsecret_proof` on the profile request and its Graph API error form.
import { createHmac } from 'node:crypto';
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from 'jose';
import type { SocialProviderConfig } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { type Outbound, type OutboundInit, OutboundRefused } from '../lib/outbound/client.js';
import { appleClientSecret } from './apple-secret.js';
import { discoveredEndpointProblem, type IssuerRule, issuerProblem, issuerRule } from './issuer-rule.js';
import type { PostedNames } from './posted-user.js';

export class UpstreamError extends Error {
  constructor(
    readonly oauthError: 'access_denied' | 'server_error',
    message: string,
    /** For the operator's log only (never in an answer): e.g. why the guarded client refused the URL. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export interface UpstreamProfile {
  sub: string;
  email?: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

interface Endpoints {
  issuer?: IssuerRule;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
}

const TIMEOUT = 10_000;

/** The guarded outbound client (lib/outbound/): no redirects, no refused addresses, time and size caps. */
type Fetch = Outbound['fetch'];

async function getJson(fetch: Fetch, url: string, init: OutboundInit = {}): Promise<Record<string, unknown>> {
  let res: Awaited<ReturnType<Fetch>>;
  try {
    res = await fetch(url, { ...init, timeoutMs: TIMEOUT });
  } catch (e) {
    const detail = e instanceof OutboundRefused ? `refused: ${e.message}` : undefined;
    throw new UpstreamError('server_error', 'The identity provider could not be reached', detail);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError('server_error', `The identity provider answered ${res.status} without JSON`);
  }
  if (!res.ok)
    throw new UpstreamError(
      res.status >= 500 ? 'server_error' : 'access_denied',
      `The identity provider refused: ${res.status}${refusalName(body)}`,
    );
  if (typeof body !== 'object' || body === null)
    throw new UpstreamError('server_error', 'The identity provider answered no object');
  return body as Record<string, unknown>;
}

/**
 * The name of a refusal, short and printable: OAuth's `error` (RFC 6749 5.2), or the `type` and `code`
 * of the Graph API's error object (`{"error": {"message", "type", "code", "fbtrace_id"}}`); never the message.
 */
function refusalName(body: unknown): string {
  const e = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const graph = typeof e === 'object' && e !== null ? (e as { type?: unknown; code?: unknown }) : {};
  const parts = typeof e === 'string' ? [e] : [graph.type, graph.code];
  const name = parts
    .filter((x) => typeof x === 'string' || typeof x === 'number')
    .join(' ')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 60);
  return name ? ` (${name})` : '';
}

/** The profile in OIDC claims (an id_token's or a UserInfo answer's). */
function oidcProfile(sub: string, c: Record<string, unknown>): UpstreamProfile {
  return {
    sub,
    email: typeof c.email === 'string' ? c.email : undefined,
    // Apple sends "true"/"false" strings (OIDC says boolean): both forms are read, nothing else is true.
    email_verified: c.email_verified === true || c.email_verified === 'true',
    given_name: typeof c.given_name === 'string' ? c.given_name : undefined,
    family_name: typeof c.family_name === 'string' ? c.family_name : undefined,
  };
}

export function createUpstream(
  p: SocialProviderConfig,
  callbackUrl: string,
  clock: Clock,
  outbound: Pick<Outbound, 'fetch'>,
) {
  const fetch: Fetch = (url, init) => outbound.fetch(url, init);
  let endpoints: Promise<Endpoints> | null = null;
  let jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  const mintedSecret =
    p.team_id && p.key_id
      ? appleClientSecret(
          {
            teamId: p.team_id,
            keyId: p.key_id,
            privateKey: p.client_secret,
            clientId: p.client_id,
            audience: p.issuer!,
          },
          clock,
        )
      : null;

  const pkce = p.pkce !== false;
  const authMethod = p.token_endpoint_auth_method ?? (mintedSecret ? 'client_secret_post' : 'client_secret_basic');

  /** The client authentication of the token request: Basic, or in the body (Apple's minted secret, Facebook). */
  async function clientAuth(): Promise<{ headers: Record<string, string>; body: Record<string, string> }> {
    const secret = mintedSecret ? await mintedSecret() : p.client_secret;
    if (authMethod === 'client_secret_post')
      return { headers: {}, body: { client_id: p.client_id, client_secret: secret } };
    const basic = Buffer.from(`${encodeURIComponent(p.client_id)}:${encodeURIComponent(secret)}`);
    return { headers: { authorization: `Basic ${basic.toString('base64')}` }, body: {} };
  }

  function resolve(): Promise<Endpoints> {
    if (p.type === 'oauth2')
      return Promise.resolve({
        authorization_endpoint: p.authorization_url!,
        token_endpoint: p.token_url!,
        userinfo_endpoint: p.userinfo_url,
      });
    endpoints ??= getJson(fetch, `${p.issuer}/.well-known/openid-configuration`).then(
      (d) => {
        const rule = issuerRule(p.issuer!, d.issuer);
        if (!rule) throw new UpstreamError('server_error', 'The provider discovery names another issuer');
        // The endpoints the operator configured are taken as they are; those discovery names must be
        // on the issuer's origin (issuer-rule.ts) before Ward sends the code, verifier or secret there.
        const found: Endpoints = {
          issuer: rule,
          authorization_endpoint: p.authorization_url ?? (d.authorization_endpoint as string),
          token_endpoint: p.token_url ?? (d.token_endpoint as string),
          userinfo_endpoint: p.userinfo_url ?? (d.userinfo_endpoint as string | undefined),
          jwks_uri: d.jwks_uri as string,
        };
        const discovered = {
          authorization_endpoint: !p.authorization_url,
          token_endpoint: !p.token_url,
          userinfo_endpoint: !p.userinfo_url && found.userinfo_endpoint !== undefined,
          jwks_uri: true,
        };
        for (const [name, fromDiscovery] of Object.entries(discovered)) {
          const why = fromDiscovery
            ? discoveredEndpointProblem(p.issuer!, found[name as keyof typeof discovered])
            : null;
          if (why) throw new UpstreamError('server_error', `The provider discovery names a ${name} ${why}`);
        }
        return found;
      },
      (e: unknown) => {
        endpoints = null; // try discovery again next time
        throw e;
      },
    );
    return endpoints;
  }

  /**
   * An id_token of this provider for Ward's client: signature by the provider's JWKS, audience, expiry,
   * the issuer by discovery's rule, the nonce expected (null: the token must carry none), a subject.
   */
  async function verifiedIdToken(
    e: Awaited<ReturnType<typeof resolve>>,
    idToken: string,
    nonce: string | null,
  ): Promise<JWTPayload & { sub: string }> {
    jwks ??= createRemoteJWKSet(new URL(e.jwks_uri!), {
      [customFetch]: ((u: string, i: OutboundInit) => fetch(u, { ...i, timeoutMs: TIMEOUT })) as never,
    });
    let claims: JWTPayload;
    try {
      // The issuer is checked below, by the rule discovery gave (one issuer, or Microsoft's template).
      ({ payload: claims } = await jwtVerify(idToken, jwks, {
        audience: p.client_id,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw new UpstreamError(
        'access_denied',
        `The provider's id_token is invalid: ${(err as Error).message}`.slice(0, 200),
      );
    }
    const wrongIssuer = issuerProblem(e.issuer!, claims);
    if (wrongIssuer) throw new UpstreamError('access_denied', `The provider's id_token has ${wrongIssuer}`);
    if ((claims.nonce ?? null) !== nonce)
      throw new UpstreamError('access_denied', "The provider's id_token has another nonce");
    if (typeof claims.sub !== 'string' || claims.sub === '')
      throw new UpstreamError('access_denied', "The provider's id_token has no subject");
    return claims as JWTPayload & { sub: string };
  }

  return {
    provider: p,
    async authorizationUrl(state: string, nonce: string, codeChallenge: string): Promise<string> {
      const e = await resolve();
      const url = new URL(e.authorization_endpoint);
      const q = {
        response_type: 'code',
        client_id: p.client_id,
        redirect_uri: callbackUrl,
        scope: p.scopes.join(' '),
        state,
        ...(pkce ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}),
        ...(p.type === 'oidc' ? { nonce } : {}),
        ...(p.response_mode === 'form_post' ? { response_mode: 'form_post' } : {}),
      };
      for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
      return url.toString();
    },

    /**
     * The profile of an id_token the browser got from the provider itself (Google One Tap): the same
     * checks as a code's id_token, with the nonce the browser's request put in it (null: none).
     */
    async fromIdToken(idToken: string, nonce: string | null): Promise<{ profile: UpstreamProfile; expiresAt: number }> {
      if (p.type !== 'oidc') throw new UpstreamError('access_denied', 'This provider signs no id_token');
      const claims = await verifiedIdToken(await resolve(), idToken, nonce);
      return { profile: oidcProfile(claims.sub, claims), expiresAt: claims.exp! * 1000 };
    },

    /**
     * `posted`: names the provider posted beside its answer (Apple, first sign-in), used when the id_token has none.
     */
    async profile(code: string, verifier: string, nonce: string, posted: PostedNames = {}): Promise<UpstreamProfile> {
      const e = await resolve();
      const auth = await clientAuth().catch(() => {
        throw new UpstreamError('server_error', 'The client secret could not be made from the team key');
      });
      const tokens = await getJson(fetch, e.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...auth.headers },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callbackUrl,
          ...(pkce ? { code_verifier: verifier } : {}),
          ...auth.body,
        }).toString(),
      });
      if (p.type === 'oidc') {
        if (typeof tokens.id_token !== 'string')
          throw new UpstreamError('server_error', 'The provider sent no id_token');
        const claims = await verifiedIdToken(e, tokens.id_token, nonce);
        const fromToken = oidcProfile(claims.sub, claims);
        fromToken.given_name ??= posted.given_name;
        fromToken.family_name ??= posted.family_name;
        // With an access token, the claims of the email and profile scopes may come only from the
        // UserInfo endpoint (OIDC Core 5.4; oidc-provider's default): ask it for what the id_token
        // lacks, and take its answer only for the same subject (OIDC Core 5.3.2).
        if (
          (fromToken.email && fromToken.given_name && fromToken.family_name) ||
          !e.userinfo_endpoint ||
          typeof tokens.access_token !== 'string'
        )
          return fromToken;
        const info = await getJson(fetch, e.userinfo_endpoint, {
          headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
        });
        if (info.sub !== claims.sub)
          throw new UpstreamError('access_denied', "The provider's userinfo names another subject than its id_token");
        const fromInfo = oidcProfile(claims.sub, info);
        return {
          sub: claims.sub,
          ...(fromToken.email
            ? { email: fromToken.email, email_verified: fromToken.email_verified }
            : { email: fromInfo.email, email_verified: fromInfo.email_verified }),
          given_name: fromToken.given_name ?? fromInfo.given_name,
          family_name: fromToken.family_name ?? fromInfo.family_name,
        };
      }
      if (typeof tokens.access_token !== 'string')
        throw new UpstreamError('server_error', 'The provider sent no access_token');
      const profileUrl = new URL(e.userinfo_endpoint!);
      if (p.appsecret_proof)
        profileUrl.searchParams.set(
          'appsecret_proof',
          createHmac('sha256', p.client_secret).update(tokens.access_token).digest('hex'),
        );
      const raw = await getJson(fetch, profileUrl.toString(), {
        headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
      });
      const map = {
        sub: 'sub',
        email: 'email',
        email_verified: 'email_verified',
        given_name: 'given_name',
        family_name: 'family_name',
        ...(p.claims ?? {}),
      };
      const get = (k: keyof typeof map) => raw[map[k]];
      const sub = get('sub');
      if ((typeof sub !== 'string' && typeof sub !== 'number') || String(sub) === '')
        throw new UpstreamError('access_denied', 'The provider profile has no subject');
      return {
        sub: String(sub),
        email: typeof get('email') === 'string' ? (get('email') as string) : undefined,
        email_verified: get('email_verified') === true,
        given_name: typeof get('given_name') === 'string' ? (get('given_name') as string) : undefined,
        family_name: typeof get('family_name') === 'string' ? (get('family_name') as string) : undefined,
      };
    },
  };
}

export type Upstream = ReturnType<typeof createUpstream>;

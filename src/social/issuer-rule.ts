// The issuer of an upstream id_token. Most providers have one issuer, named by their discovery and
// equal to the configured one. Microsoft's multi-tenant endpoints (`common`, `organizations`,
// `consumers`) cannot: their discovery answers the template `<base>/{tenantid}/v2.0` (for `consumers`
// it may name the consumers tenant itself), and each id_token carries its tenant in `tid` with
// `iss` = the template with that tenant. Microsoft's documented check: substitute `tid` into the
// template and require it equal to `iss`; `organizations` never accepts the consumers tenant (personal
// accounts), `consumers` accepts only it. Google documents its id_tokens' `iss` as
// `https://accounts.google.com` or `accounts.google.com`: both are taken for that issuer.
//
// The endpoints a discovery document names (authorization, token, UserInfo, JWKS) follow the issuer:
// each must be on the issuer's own origin (its scheme, host and port: so https, unless the issuer is
// a loopback http one configured for tests), or on a host the issuer's operator documents for its
// endpoints (Google's googleapis.com hosts, Microsoft Graph's UserInfo), over https. A discovery that
// names another host would get the code, the PKCE verifier and the client secret: it is refused. An
// endpoint the operator configured (authorization_url, token_url, userinfo_url) is taken as it is.

const GOOGLE = 'https://accounts.google.com';

/** The tenant id of personal Microsoft accounts. */
export const MICROSOFT_CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

const TEMPLATE = '{tenantid}';
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MULTI_TENANT = /^(.+)\/(common|organizations|consumers)\/v2\.0$/;

export type IssuerRule =
  | { kind: 'exact'; issuer: string }
  | { kind: 'tenant'; template: string; audience: 'common' | 'organizations' | 'consumers' };

/** The rule for a configured issuer and the issuer its discovery names, or null when they disagree. */
export function issuerRule(configured: string, discovered: unknown): IssuerRule | null {
  if (discovered === configured) return { kind: 'exact', issuer: configured };
  const m = MULTI_TENANT.exec(configured);
  if (!m || typeof discovered !== 'string') return null;
  const [, base, audience] = m as unknown as [string, string, 'common' | 'organizations' | 'consumers'];
  if (discovered === `${base}/${TEMPLATE}/v2.0`) return { kind: 'tenant', template: discovered, audience };
  if (audience === 'consumers' && discovered === `${base}/${MICROSOFT_CONSUMERS_TENANT}/v2.0`)
    return { kind: 'exact', issuer: discovered };
  return null;
}

/** Why an id_token's issuer is refused under the rule, or null when it is the right one. */
export function issuerProblem(rule: IssuerRule, claims: { iss?: unknown; tid?: unknown }): string | null {
  if (rule.kind === 'exact')
    return claims.iss === rule.issuer || (rule.issuer === GOOGLE && claims.iss === 'accounts.google.com')
      ? null
      : 'another issuer';
  const tid = claims.tid;
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) return 'no tenant (tid)';
  if (claims.iss !== rule.template.replace(TEMPLATE, tid)) return 'an issuer that is not its tenant (tid)';
  if (rule.audience === 'organizations' && tid === MICROSOFT_CONSUMERS_TENANT) return 'a personal account';
  if (rule.audience === 'consumers' && tid !== MICROSOFT_CONSUMERS_TENANT) return 'a work or school account';
  return null;
}

/** Hosts besides its own that an issuer's discovery names for its endpoints, as its operator documents. */
const ENDPOINT_HOSTS: Record<string, readonly string[]> = {
  'accounts.google.com': ['oauth2.googleapis.com', 'openidconnect.googleapis.com', 'www.googleapis.com'],
  'login.microsoftonline.com': ['graph.microsoft.com'],
};

/** Why an endpoint named by the discovery of `issuer` is refused (off its origin, plain http), or null. */
export function discoveredEndpointProblem(issuer: string, endpoint: unknown): string | null {
  if (typeof endpoint !== 'string') return 'that is not a URL';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'that is not a URL';
  }
  const own = new URL(issuer);
  if (url.origin === own.origin) return null;
  if (url.protocol === 'https:' && url.port === '' && (ENDPOINT_HOSTS[own.hostname] ?? []).includes(url.hostname))
    return null;
  return `off the issuer's origin (${url.origin})`;
}

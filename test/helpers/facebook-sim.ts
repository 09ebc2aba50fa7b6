// A local Facebook Login (plain OAuth 2.0, no OpenID Connect) and Graph API for the `facebook` preset's
// tests, in the shape Meta documents ("Manually Build a Login Flow"): the dialog at /v19.0/dialog/oauth
// (client_id, redirect_uri among the app's Valid OAuth Redirect URIs, state, response_type=code, scope
// separated by commas or spaces), which sends the code back by a redirect with `state` and Facebook's
// `#_=_` fragment, or `error=access_denied&error_reason=user_denied` when the user cancels; the code
// exchange at /v19.0/oauth/access_token with client_id, redirect_uri (the dialog's), client_secret and
// code as parameters (a GET query as documented, or a POST form), HTTP Basic not read; /v19.0/me with
// the user access token (Bearer/OAuth header or `access_token`), only the `fields` asked for (`id,name`
// by default), `email` only when the user granted it, and `appsecret_proof` (hex HMAC-SHA256 of the token
// keyed by the app secret) checked when sent and required when the app says so. Errors in the Graph API
// form {"error": {"message", "type", "code", "fbtrace_id"}}. Loopback only; one origin stands for both
// www.facebook.com and graph.facebook.com.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';

export interface FacebookAccount {
  /** The app-scoped user id. */
  id: string;
  first_name: string;
  last_name: string;
  /** The confirmed primary email, if the account has one. */
  email?: string;
}

/** One request to the token endpoint, as it came. */
export interface TokenRequestSeen {
  method: string;
  basic: boolean;
  params: Record<string, string>;
}

export interface FacebookSim {
  /** http://127.0.0.1:<port>, standing for https://www.facebook.com and https://graph.facebook.com. */
  url: string;
  appId: string;
  appSecret: string;
  /** The app's Valid OAuth Redirect URIs (exact match, as Facebook's strict mode). */
  redirectUris: string[];
  /** The app setting "Require App Secret": /me without appsecret_proof is refused. */
  requireProof: boolean;
  /** Who signs in at the dialog next. */
  account: FacebookAccount;
  /** At the dialog the user unticks these permissions (e.g. `email`), or cancels. */
  declines: string[];
  cancels: boolean;
  /** What the dialog and the token endpoint were sent, and the profile requests' query. */
  dialogs: URLSearchParams[];
  tokenRequests: TokenRequestSeen[];
  profileRequests: URLSearchParams[];
  close(): Promise<void>;
}

interface Grant {
  redirect: string;
  account: FacebookAccount;
  scopes: string[];
  used: boolean;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
};

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export async function startFacebookSim(): Promise<FacebookSim> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, { account: FacebookAccount; scopes: string[] }>();
  const sim: FacebookSim = {
    url: '',
    appId: String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)),
    appSecret: randomBytes(16).toString('hex'),
    redirectUris: [],
    requireProof: true,
    account: { id: '10223344556677889', first_name: 'Mark', last_name: 'Example', email: 'mark@facebook.example' },
    declines: [],
    cancels: false,
    dialogs: [],
    tokenRequests: [],
    profileRequests: [],
    close: () => new Promise((r) => server.close(() => r())),
  };

  const json = (res: ServerResponse, status: number, v: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(v));
  };
  /** The Graph API's error form (HTTP 400, as Graph answers OAuthException and parameter errors). */
  const graphError = (res: ServerResponse, message: string, type: string, code: number) =>
    json(res, 400, { error: { message, type, code, fbtrace_id: randomBytes(8).toString('base64url') } });

  function dialog(q: URLSearchParams, res: ServerResponse) {
    sim.dialogs.push(q);
    const redirect = q.get('redirect_uri') ?? '';
    // Facebook shows its own error page (no redirect) for a wrong app or a redirect_uri not allowed.
    if (q.get('client_id') !== sim.appId || !sim.redirectUris.includes(redirect)) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<p>URL blocked: this redirect failed because the redirect URI is not whitelisted.</p>');
    }
    const back = new URL(redirect);
    const state = q.get('state');
    if (sim.cancels) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_code', '200');
      back.searchParams.set('error_description', 'Permissions error');
      back.searchParams.set('error_reason', 'user_denied');
    } else {
      if ((q.get('response_type') ?? 'code') !== 'code') {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        return res.end('<p>Invalid response_type</p>');
      }
      const asked = (q.get('scope') ?? '').split(/[ ,]+/).filter(Boolean);
      const scopes = ['public_profile', ...asked.filter((s) => s !== 'public_profile' && !sim.declines.includes(s))];
      const code = `AQ${randomBytes(90).toString('base64url')}`;
      grants.set(code, { redirect, account: { ...sim.account }, scopes, used: false });
      back.searchParams.set('code', code);
    }
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: `${back.toString()}#_=_` });
    return res.end();
  }

  function exchange(method: string, params: URLSearchParams, basic: boolean, res: ServerResponse) {
    sim.tokenRequests.push({ method, basic, params: Object.fromEntries(params) });
    // Only the parameters are read: an Authorization header (HTTP Basic) is not a client secret here.
    if (params.get('client_id') !== sim.appId)
      return graphError(res, 'Error validating application. Invalid application ID.', 'OAuthException', 101);
    const secret = params.get('client_secret');
    if (secret === null) return graphError(res, 'Missing client_secret parameter.', 'OAuthException', 1);
    if (!sameText(secret, sim.appSecret))
      return graphError(res, 'Error validating client secret.', 'OAuthException', 1);
    if (params.get('redirect_uri') === null)
      return graphError(res, 'Missing redirect_uri parameter.', 'OAuthException', 191);
    const code = params.get('code') ?? '';
    const grant = grants.get(code);
    if (!grant) return graphError(res, 'Invalid verification code format.', 'OAuthException', 100);
    if (grant.used) return graphError(res, 'This authorization code has been used.', 'OAuthException', 100);
    grant.used = true;
    if (grant.redirect !== params.get('redirect_uri'))
      return graphError(
        res,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        'OAuthException',
        100,
      );
    const access = `EAA${randomBytes(120).toString('base64url')}`;
    tokens.set(access, { account: grant.account, scopes: grant.scopes });
    return json(res, 200, { access_token: access, token_type: 'bearer', expires_in: 5_183_944 });
  }

  function me(req: IncomingMessage, q: URLSearchParams, res: ServerResponse) {
    sim.profileRequests.push(q);
    const header = /^(?:Bearer|OAuth) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = header ?? q.get('access_token');
    if (!token)
      return graphError(
        res,
        'An active access token must be used to query information about the current user.',
        'OAuthException',
        2500,
      );
    const t = tokens.get(token);
    if (!t) return graphError(res, 'Invalid OAuth access token - Cannot parse access token', 'OAuthException', 190);
    const proof = q.get('appsecret_proof');
    if (proof !== null && !sameText(proof, createHmac('sha256', sim.appSecret).update(token).digest('hex')))
      return graphError(res, 'Invalid appsecret_proof provided in the API argument', 'GraphMethodException', 100);
    if (proof === null && sim.requireProof)
      return graphError(
        res,
        'API calls from the server require an appsecret_proof argument',
        'GraphMethodException',
        100,
      );
    const a = t.account;
    const all: Record<string, unknown> = {
      id: a.id,
      name: `${a.first_name} ${a.last_name}`,
      first_name: a.first_name,
      last_name: a.last_name,
      ...(a.email && t.scopes.includes('email') ? { email: a.email } : {}),
      picture: {
        data: { height: 50, is_silhouette: false, url: `${sim.url}/pic/${a.id}.jpg`, width: 50 },
      },
    };
    const fields = (q.get('fields') ?? 'id,name').split(',').map((f) => f.trim());
    const unknown = fields.find((f) => !['id', 'name', 'first_name', 'last_name', 'email', 'picture'].includes(f));
    if (unknown)
      return graphError(
        res,
        `(#100) Tried accessing nonexisting field (${unknown}) on node type (User)`,
        'OAuthException',
        100,
      );
    return json(res, 200, Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])));
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, sim.url);
    if (req.method === 'GET' && url.pathname === '/v19.0/dialog/oauth') return dialog(url.searchParams, res);
    if (url.pathname === '/v19.0/oauth/access_token' && (req.method === 'GET' || req.method === 'POST')) {
      const params = new URLSearchParams(url.searchParams);
      if (req.method === 'POST') for (const [k, v] of new URLSearchParams(await readBody(req))) params.set(k, v);
      return exchange(req.method, params, /^Basic /i.test(req.headers.authorization ?? ''), res);
    }
    if (req.method === 'GET' && url.pathname === '/v19.0/me') return me(req, url.searchParams, res);
    return graphError(res, 'Unknown path components', 'OAuthException', 2500);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  sim.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return sim;
}

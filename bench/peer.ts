// The peer: panva's oidc-provider 8.8.1 (certified OpenID provider) on 127.0.0.1, started as a child
// by the benchmark. In-memory storage (its default adapter), one RS256 public client (PKCE S256)
// and one client_credentials client like Ward's, opaque access tokens, refresh tokens only with
// offline_access (its default), rotated for public clients (its default; Ward always rotates).
// devInteractions are off: POST /interaction/:uid/login checks the password with @node-rs/argon2
// (argon2id m=19456 t=2 p=1, Ward's library and parameters) and grants the requested scopes;
// POST /interaction/:uid/consent grants them for an existing session (no password).
// Env: PORT, BENCH_PEER_USERS (JSON [{email, password}]), BENCH_MGMT_SECRET.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import Provider from 'oidc-provider';

const ARGON = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const list = JSON.parse(process.env.BENCH_PEER_USERS ?? '[]') as Array<{ email: string; password: string }>;
const accounts = new Map<string, { id: string; email: string; hash: string }>();
const byId = new Map<string, { id: string; email: string; hash: string }>();
// Hashed after the server listens (cold start = first answered request); /__bench_ready says when done.
let ready = false;
async function loadUsers() {
  for (const [i, u] of list.entries()) {
    const a = { id: `user-${i}`, email: u.email, hash: await hash(u.password, ARGON) };
    accounts.set(a.email, a);
    byId.set(a.id, a);
  }
  ready = true;
}

const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'bench-spa',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://app.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    },
    {
      client_id: 'bench-mgmt',
      client_secret: process.env.BENCH_MGMT_SECRET,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
    },
  ],
  jwks: { keys: [{ ...jwk, use: 'sig', alg: 'RS256', kid: 'bench-rs256' }] },
  features: { devInteractions: { enabled: false }, clientCredentials: { enabled: true } },
  pkce: { required: () => true, methods: ['S256'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['bench-cookie-key-0123456789abcdef'] },
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    ClientCredentials: 3600,
    IdToken: 3600,
    RefreshToken: 2_592_000,
    Interaction: 600,
    Session: 604_800,
    Grant: 2_592_000,
  },
  async findAccount(_ctx: unknown, id: string) {
    const a = byId.get(id);
    return (
      a && {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: a.email,
          email_verified: true,
          given_name: 'Ada',
          family_name: 'Lovelace',
        }),
      }
    );
  },
  async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
    ctx.type = 'json';
    ctx.body = JSON.stringify(out);
  },
});

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

/** Grants what the interaction asked for and finishes it (303 back to the authorization endpoint). */
async function finish(req: http.IncomingMessage, res: http.ServerResponse, accountId: string, login: boolean) {
  const details = await provider.interactionDetails(req, res);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { ...(login ? { login: { accountId } } : {}), consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

const page = (uid: string) =>
  `<!doctype html><form method="post" action="/interaction/${uid}/login"><input name="email"><input name="password" type="password"><button>Sign in</button></form>`;
const oidc = provider.callback();

const server = http.createServer((req, res) => {
  if (req.url === '/__bench_ready') return void res.writeHead(ready ? 200 : 503).end();
  const m = /^\/interaction\/([\w-]+)(\/login|\/consent)?$/.exec(req.url ?? '');
  if (!m) return oidc(req, res);
  (async () => {
    if (req.method === 'GET' && !m[2]) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(m[1]!));
    } else if (req.method === 'POST' && m[2] === '/login') {
      const f = await readForm(req);
      const a = accounts.get(f.get('email') ?? '');
      const ok = await verify(
        a?.hash ?? '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        f.get('password') ?? '',
        ARGON,
      ).catch(() => false);
      if (!a || !ok) return void res.writeHead(401, { 'content-type': 'text/html' }).end(page(m[1]!));
      await finish(req, res, a.id, true);
    } else if (req.method === 'POST' && m[2] === '/consent') {
      const details = await provider.interactionDetails(req, res);
      if (!details.session?.accountId) return void res.writeHead(400).end('no session');
      await finish(req, res, details.session.accountId, false);
    } else {
      res.writeHead(405).end();
    }
  })().catch((e: Error) => {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end(e.message);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${port}\n`);
  void loadUsers();
});

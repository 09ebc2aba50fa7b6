// The admin console at /console: server-rendered pages (src/console/pages.ts), the browser scripts and
// stylesheet served from the static/ directory next to the running module (src/console/static under
// tsx, dist/static beside the bundle `npm run build` writes), and GET /console/api/me, which tells
// the script who the Bearer token's user is and which management permissions it carries. Every other
// call the console makes goes to the management API (/api/v1) with the user's token.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authenticateManagement } from '../management/auth.js';
import { MANAGEMENT_SCOPES, type WardConfig } from '../config/types.js';
import { CONSOLE_CLIENT_ID } from './client.js';
import { PAGES, shell, type PageName } from './pages.js';
import { CORE_SCRIPTS, PAGE_SCRIPTS } from './shell.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenCodec } from '../protocol/access-token-codec.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ConsoleDeps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  storage: Storage;
  users: UserService;
}

/** The static/ directory beside the running module: src/console/static (tsx) or dist/static (build). */
export const STATIC_DIR = new URL('./static/', import.meta.url);
const TYPES: Record<string, string> = { js: 'text/javascript', css: 'text/css' };
/** Served names: plain lower-case file names only (no path, no dot files). */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css)$/;

/** Every asset of the directory, read once; a page script the shell names but the directory lacks fails the start. */
export function loadAssets(dir: URL = STATIC_DIR): Map<string, string> {
  const path = fileURLToPath(dir);
  if (!existsSync(path))
    throw new Error(`The console's static files are missing at ${path} (npm run build copies them)`);
  const assets = new Map(
    readdirSync(path)
      .filter((n) => ASSET_NAME.test(n))
      .map((n) => [n, readFileSync(new URL(n, dir), 'utf8')]),
  );
  const wanted = new Set([...CORE_SCRIPTS, ...Object.values(PAGE_SCRIPTS).flat(), 'console.css']);
  const missing = [...wanted].filter((n) => !assets.has(n));
  if (missing.length)
    throw new Error(`The console's static files are incomplete at ${path}: ${missing.join(', ')} missing`);
  return assets;
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'no-store');
}

export function consoleRoutes(app: FastifyInstance, r: ConsoleDeps): void {
  const assets = loadAssets();
  const config = JSON.stringify({
    issuer: r.config.issuer,
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: `${r.config.issuer}/console/callback`,
  });

  const page = (name: PageName) => async (_req: unknown, reply: FastifyReply) =>
    secure(reply)
      .type('text/html; charset=utf-8')
      .send(shell(name, PAGES[name].title, PAGES[name].body));

  app.get('/console', async (_req, reply) => reply.redirect('/console/clients'));
  app.get('/console/login', page('login'));
  app.get('/console/callback', page('callback'));
  app.get('/console/clients', page('clients'));
  app.get('/console/create-client', page('create-client'));
  app.get('/console/clients/:clientId', page('client'));
  app.get('/console/site-keys', page('site-keys'));
  app.get('/console/settings', page('settings'));
  app.get('/console/consents', page('consents'));
  app.get('/console/consents/:key', page('consent'));
  app.get('/console/users', page('users'));
  app.get('/console/users/:userId', page('user'));
  app.get('/console/webhooks', page('webhooks'));
  app.get('/console/webhooks/:webhookId', page('webhook'));
  app.get('/console/audit', page('audit'));

  app.get('/console/static/:name', async (req, reply) => {
    const name = (req.params as { name: string }).name;
    const body = assets.get(name);
    if (body === undefined) return secure(reply).code(404).type('text/plain').send('Not found');
    // The issuer and the console client are given to the script through its own file, not inline.
    const text = name === 'console.js' ? body.replace('/*CONFIG*/null', config) : body;
    return secure(reply)
      .header('Cache-Control', 'no-cache')
      .type(`${TYPES[name.slice(name.lastIndexOf('.') + 1)]}; charset=utf-8`)
      .send(text);
  });

  app.get('/console/api/me', async (req, reply) => {
    const actor = await authenticateManagement(r, req.headers.authorization, req.ip);
    const user = actor.type === 'user' ? await r.users.find(actor.id) : undefined;
    const permissions = MANAGEMENT_SCOPES.filter((p) => actor.permissions.has(p));
    return reply.header('Cache-Control', 'no-store').send({
      type: actor.type,
      id: actor.id,
      email: user?.email ?? null,
      role: user?.role ?? null,
      permissions,
    });
  });
}

// The admin console at /console: server-rendered pages (src/console/pages.ts), the browser script and
// stylesheet served as static files from src/console/static/, and GET /console/api/me, which tells
// the script who the Bearer token's user is and which management permissions it carries. Every other
// call the console makes goes to the management API (/api/v1) with the user's token.
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authenticateManagement } from '../management/auth.js';
import { MANAGEMENT_SCOPES } from '../config/types.js';
import type { Registry } from '../registry.js';
import { CONSOLE_CLIENT_ID } from './client.js';
import { PAGES, shell, type PageName } from './pages.js';

// Resolves to <repo>/src/console/static both from src/console (tsx) and from dist/console (build).
const STATIC_DIR = new URL('../../src/console/static/', import.meta.url);
const ASSETS: Record<string, string> = { 'console.js': 'text/javascript', 'pages.js': 'text/javascript', 'console.css': 'text/css' };

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function secure(reply: FastifyReply): FastifyReply {
  return reply.header('Content-Security-Policy', CSP).header('Referrer-Policy', 'no-referrer').header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store');
}

export function consoleRoutes(app: FastifyInstance, r: Registry): void {
  const assets = new Map(Object.keys(ASSETS).map((name) => [name, readFileSync(new URL(name, STATIC_DIR), 'utf8')]));
  const config = JSON.stringify({ issuer: r.config.issuer, client_id: CONSOLE_CLIENT_ID, redirect_uri: `${r.config.issuer}/console/callback` });

  const page = (name: PageName) => async (_req: unknown, reply: FastifyReply) =>
    secure(reply).type('text/html; charset=utf-8').send(shell(name, PAGES[name].title, PAGES[name].body));

  app.get('/console', async (_req, reply) => reply.redirect('/console/clients'));
  app.get('/console/login', page('login'));
  app.get('/console/callback', page('callback'));
  app.get('/console/clients', page('clients'));
  app.get('/console/clients/:clientId', page('client'));
  app.get('/console/settings', page('settings'));
  app.get('/console/users', page('users'));
  app.get('/console/users/:userId', page('user'));
  app.get('/console/audit', page('audit'));

  app.get('/console/static/:name', async (req, reply) => {
    const name = (req.params as { name: string }).name;
    const body = assets.get(name);
    if (body === undefined) return secure(reply).code(404).type('text/plain').send('Not found');
    // The issuer and the console client are given to the script through its own file, not inline.
    const text = name === 'console.js' ? body.replace('/*CONFIG*/null', config) : body;
    return secure(reply).header('Cache-Control', 'no-cache').type(`${ASSETS[name]}; charset=utf-8`).send(text);
  });

  app.get('/console/api/me', async (req, reply) => {
    const actor = await authenticateManagement(r, req.headers.authorization, req.ip);
    const user = actor.type === 'user' ? await r.users.find(actor.id) : undefined;
    const permissions = MANAGEMENT_SCOPES.filter((p) => actor.permissions.has(p));
    return reply.header('Cache-Control', 'no-store').send({
      type: actor.type, id: actor.id, email: user?.email ?? null, role: user?.role ?? null, permissions,
    });
  });
}

// Messenger webhook kit: adapters that hand the RAW request body to the framework-agnostic core.
// - createNodeListener: a node:http / node:https request listener, also an Express handler
//   ((req, res, next); with express.raw() in front it uses req.body, otherwise it reads the stream).
// - messengerFastifyPlugin: a Fastify plugin whose (encapsulated) content-type parser keeps the body
//   as a Buffer (parseAs: 'buffer'), so the rest of the app keeps its JSON parser.
// The signature is computed over these bytes; a body already parsed to an object is refused (500),
// because re-serialised JSON is not what Meta signed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { HandlerResult, MessengerWebhook } from './types.js';

export interface AdapterOptions {
  /** Only this path is served (default: any path; the listener is the whole server or already routed). */
  path?: string;
  /** Largest body read (default 1 MiB); larger answers 413. */
  maxBodyBytes?: number;
}

function send(res: ServerResponse, r: HandlerResult, extra: Record<string, string> = {}): void {
  res.writeHead(r.status, {
    'content-type': r.contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(r.body);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

type NodeRequest = IncomingMessage & { body?: unknown };

/** (req, res[, next]) for node:http, node:https and Express. */
export function createNodeListener(webhook: MessengerWebhook, opts: AdapterOptions = {}) {
  const limit = opts.maxBodyBytes ?? 1024 * 1024;
  return (req: NodeRequest, res: ServerResponse, next?: (err?: unknown) => void): void => {
    const url = new URL(req.url ?? '/', 'http://webhook.invalid');
    if (opts.path !== undefined && url.pathname !== opts.path) {
      if (next) return next();
      return send(res, { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not Found' });
    }
    if (req.method === 'GET') return send(res, webhook.handleVerification(url.searchParams));
    if (req.method !== 'POST')
      return send(
        res,
        { status: 405, contentType: 'text/plain; charset=utf-8', body: 'Method Not Allowed' },
        { allow: 'GET, POST' },
      );
    if (req.body !== undefined && !Buffer.isBuffer(req.body)) {
      // express.json() (or similar) ran first: the signed bytes are gone.
      return send(res, {
        status: 500,
        contentType: 'text/plain; charset=utf-8',
        body: 'webhook needs the raw body: use express.raw() or no body parser',
      });
    }
    const body = Buffer.isBuffer(req.body) ? Promise.resolve(req.body as Buffer | null) : readBody(req, limit);
    body.then(
      (raw) =>
        send(
          res,
          raw === null || raw.length > limit
            ? { status: 413, contentType: 'text/plain; charset=utf-8', body: 'Payload Too Large' }
            : webhook.handleEvent(raw, req.headers),
        ),
      (err) =>
        next ? next(err) : send(res, { status: 400, contentType: 'text/plain; charset=utf-8', body: 'Bad Request' }),
    );
  };
}

/**
 * A Fastify plugin serving GET and POST on `path` (default "/webhook"). Register it WITHOUT
 * fastify-plugin so its raw-body parser stays inside its own context:
 *   await app.register(messengerFastifyPlugin(webhook, { path: '/webhook' }));
 */
export function messengerFastifyPlugin(webhook: MessengerWebhook, opts: AdapterOptions = {}) {
  const path = opts.path ?? '/webhook';
  const bodyLimit = opts.maxBodyBytes ?? 1024 * 1024;
  return async function messengerWebhookRoutes(app: FastifyInstance): Promise<void> {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));
    const reply = (r: HandlerResult) => ({ status: r.status, type: r.contentType, body: r.body });
    app.get(path, async (req, res) => {
      const r = reply(webhook.handleVerification(new URL(req.url, 'http://webhook.invalid').searchParams));
      return res
        .code(r.status)
        .type(r.type)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(r.body);
    });
    app.post(path, async (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const r = reply(webhook.handleEvent(raw, req.headers));
      return res.code(r.status).type(r.type).header('cache-control', 'no-store').send(r.body);
    });
  };
}

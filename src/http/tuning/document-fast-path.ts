// Speed-up `document_fast_path` (docs/performance.md; plain path: Fastify answers every route).
// The two documents every relying party and resource server fetches most, the JWK Set and
// discovery, answered before Fastify's pipeline in their plain case: GET, no query string, no
// Origin (no CORS to decide), no If-None-Match (no 304 to decide), not draining. The answer is the
// route's own (metadata.ts): same body, same headers, the same request id, metric and access-log
// line. Everything else (HEAD, ?client_id=, conditional or cross-origin requests, a draining
// process) goes through Fastify as before, and so does discovery while the account opens client
// registration (its body then names the registration endpoint).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { discoveryDocument } from '../../protocol/discovery.js';
import type { Lifecycle } from '../routes/ops.js';
import { requestId } from '../request-log.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { WardMetrics } from '../../observability/ward-metrics.js';
import type { Logger } from 'pino';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface DocumentFastPathDeps {
  account: () => AccountSettings;
  config: WardConfig;
  keys: KeyStore;
  log: Logger;
  metrics: WardMetrics;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const JWKS = '/jwks.json';
const DISCOVERY = '/.well-known/openid-configuration';

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export function documentFastPath(r: DocumentFastPathDeps, lifecycle: Lifecycle): FastPath {
  const discovery = discoveryDocument(r.config.issuer);
  const discoveryLength = String(Buffer.byteLength(discovery));
  const accessLog = r.log.isLevelEnabled('info');
  // The JWK Set changes with the keys: its length is measured once per new view.
  let view: ReturnType<KeyStore['jwks']> | undefined;
  let viewLength = '';
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || (url !== JWKS && url !== DISCOVERY) || lifecycle.closing) return false;
    const h = req.headers;
    if (h.origin !== undefined || h['if-none-match'] !== undefined) return false;
    // Discovery names what client registration opens (metadata.ts): the route answers it then.
    const registration = r.account().client_registration;
    if (
      url === DISCOVERY &&
      (registration.mode !== 'off' || registration.metadata_documents || r.account().require_signed_request_object)
    )
      return false;
    const start = process.hrtime.bigint();
    const id = requestId(req);
    if (url === JWKS) {
      const current = r.keys.jwks();
      if (current !== view) {
        view = current;
        viewLength = String(Buffer.byteLength(current.body));
      }
      res.writeHead(200, {
        'x-request-id': id,
        'cache-control': 'public, max-age=60',
        etag: current.etag,
        'content-type': JSON_TYPE,
        'content-length': viewLength,
      });
      res.end(current.body);
    } else {
      res.writeHead(200, {
        'x-request-id': id,
        'content-type': JSON_TYPE,
        'cache-control': 'public, max-age=300',
        'content-length': discoveryLength,
      });
      res.end(discovery);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    r.metrics.request('GET', url, 200, seconds);
    if (accessLog)
      r.log.info(
        { reqId: id, method: 'GET', route: url, path: url, status: 200, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    return true;
  };
}

/**
 * Puts the fast path in front of the handler Fastify gave its server. Not `serverFactory`: with one,
 * Fastify listens on the first address of `localhost` only (no `::1` beside `127.0.0.1`). The extra
 * server Fastify opens for the other `localhost` address keeps the plain handler (same answers).
 */
export function installFastPath(server: Server, fast: FastPath): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (handlers.length !== 1) throw new Error(`expected one request handler on the server, found ${handlers.length}`);
  const handler = handlers[0]!;
  server.removeListener('request', handler);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!fast(req, res)) handler(req, res);
  });
}

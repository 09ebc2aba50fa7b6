// Shutdown without making anyone wait: once `begin()` is called (SIGTERM), a request whose headers
// arrive later is refused with 503 in the API's error format and Retry-After, on any path (the
// document fast path steps aside while closing, so its paths are refused here too) but /readyz,
// which says itself why it is not ready; an answer still in flight says `Connection: close` and its
// connection ends with it. Node closes the idle keep-alive connections when the listener closes,
// so the process can exit as soon as the last answer is out, not when keep-alive timeouts or the
// shutdown timeout run out.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { languageOf, WardError } from '../errors/ward-error.js';

import type { Lifecycle } from './routes/ops.js';

/** Another process (behind the balancer) or this service restarted will answer by then. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

export class Draining implements Lifecycle {
  closing = false;
  private readonly open = new Set<ServerResponse>();
  private whenIdle: (() => void) | null = null;

  /** An answer begun while accepting: it finishes even when the process starts closing. */
  track(res: ServerResponse): void {
    this.open.add(res);
    // One listener shared by every answer (no closure per request): 'close' is emitted once.
    res.on('close', this.closed);
  }

  private readonly closed = ((draining: Draining) =>
    function (this: ServerResponse): void {
      draining.open.delete(this);
      if (draining.open.size === 0) draining.whenIdle?.();
    })(this);

  /** Stops accepting requests; the answers in flight close their connections once sent. */
  begin(): void {
    if (this.closing) return;
    this.closing = true;
    for (const res of this.open) {
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
        continue;
      }
      // Its headers already promised keep-alive (a large body still being written): the connection
      // ends after this answer anyway, so the client cannot send another request on it.
      const socket = res.socket;
      res.once('close', () => socket?.end());
    }
  }

  /** The shutdown timeout: whatever is still in flight is cut. */
  cut(): void {
    for (const res of this.open) res.socket?.destroy();
  }

  /** Requests still being answered. */
  get inFlight(): number {
    return this.open.size;
  }

  /**
   * Resolves once no request is being answered, on any of the app's servers (Fastify's close waits
   * for its main server only; `localhost` also has one on ::1).
   */
  idle(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.whenIdle;
      this.whenIdle = () => {
        this.whenIdle = null;
        previous?.();
        resolve();
      };
    });
  }
}

export function installDraining(app: FastifyInstance, draining: Draining): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (!draining.closing) {
      draining.track(reply.raw);
      return done();
    }
    if (req.routeOptions.url === '/readyz') {
      reply.header('Connection', 'close');
      return done();
    }
    const e = new WardError('shuttingDown', { headers: { 'Retry-After': String(SHUTDOWN_RETRY_AFTER_SECONDS) } });
    void reply
      .code(503)
      .headers({ ...e.headers, 'Cache-Control': 'no-store', Connection: 'close' })
      .send(e.body(languageOf(req.headers['accept-language'])));
  });
  // A close that did not start with begin() (a test closing its app) drains the same way.
  app.addHook('preClose', (done) => {
    draining.begin();
    done();
  });
}

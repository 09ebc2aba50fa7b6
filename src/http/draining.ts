// Shutdown without making anyone wait: once `begin()` is called (SIGTERM), a request whose headers
// arrive later is refused with 503 in the API's error format and Retry-After, on any path (the
// document fast path steps aside while closing, so its paths are refused here too) but /readyz,
// which says itself why it is not ready; an answer still in flight says `Connection: close` and its
// connection ends with it. Node closes the idle keep-alive connections when the listener closes,
// so the process can exit as soon as the last answer is out, not when keep-alive timeouts or the
// shutdown timeout run out.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WardError } from '../errors/ward-error.js';
import { requestLanguage } from './page-language.js';

import type { Lifecycle } from './routes/ops.js';

/** Another process (behind the balancer) or this service restarted will answer by then. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

/** The answer a connection is carrying now (set while it is being answered). */
const ANSWER = Symbol('ward.answer');
type Carrying = Socket & { [ANSWER]?: ServerResponse };

export class Draining implements Lifecycle {
  closing = false;
  private answering = 0;
  // The connections, not the answers: a long-lived collection that every answer entered and left made V8 keep
  // each answer's objects through two young-generation collections and move them to the old one (B5: 7.7 KB
  // more per flow there, and full collections; docs/performance.md). A connection enters once.
  private readonly connections = new Set<Carrying>();
  private whenIdle: (() => void) | null = null;

  /** An answer begun while accepting: it finishes even when the process starts closing. */
  track(res: ServerResponse): void {
    // A pipelined request's answer gets its connection once the answers before it are out.
    if (res.socket) this.carry(res.socket, res);
    else res.once('socket', (socket: Socket) => this.carry(socket, res));
    this.answering++;
    // One listener shared by every answer (no closure per request): 'close' is emitted once.
    res.on('close', this.closed);
  }

  private carry(socket: Carrying, res: ServerResponse): void {
    if (!this.connections.has(socket)) {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    }
    // Replaced by the connection's next answer; a finished one is skipped below.
    socket[ANSWER] = res;
  }

  private readonly closed = ((draining: Draining) =>
    function (this: ServerResponse): void {
      draining.answering--;
      if (draining.answering === 0) draining.whenIdle?.();
    })(this);

  /** The answers being written now, each with its connection. */
  private *answers(): Generator<[ServerResponse, Socket]> {
    for (const socket of this.connections) {
      const res = socket[ANSWER];
      if (res && !res.writableFinished) yield [res, socket];
    }
  }

  /** Stops accepting requests; the answers in flight close their connections once sent. */
  begin(): void {
    if (this.closing) return;
    this.closing = true;
    for (const [res, socket] of this.answers()) {
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
        continue;
      }
      // Its headers already promised keep-alive (a large body still being written): the connection
      // ends after this answer anyway, so the client cannot send another request on it.
      res.once('close', () => socket.end());
    }
  }

  /** The shutdown timeout: whatever is still in flight is cut. */
  cut(): void {
    for (const [, socket] of this.answers()) socket.destroy();
  }

  /** Requests still being answered. */
  get inFlight(): number {
    return this.answering;
  }

  /**
   * Resolves once no request is being answered, on any of the app's servers (Fastify's close waits
   * for its main server only; `localhost` also has one on ::1).
   */
  idle(): Promise<void> {
    if (this.answering === 0) return Promise.resolve();
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
      .send(e.body(requestLanguage(req)));
  });
  // A close that did not start with begin() (a test closing its app) drains the same way.
  app.addHook('preClose', (done) => {
    draining.begin();
    done();
  });
}

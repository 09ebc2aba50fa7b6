// A relying party's Back-Channel Logout receiver on loopback (test/logout/, test/self-service/).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A relying party's back-channel endpoint: answers `next()` (200 by default) and keeps each token. */
export class Receiver {
  tokens: string[] = [];
  /** Every request as it arrived (the conformance tests check its exact form). */
  requests: Array<{ method: string; path: string; contentType: string; body: string }> = [];
  hits = 0;
  next: (res: ServerResponse) => void = (res) => res.writeHead(200).end();
  private server!: Server;
  url = '';
  private waiters: Array<() => void> = [];

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        this.hits++;
        this.requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          contentType: req.headers['content-type'] ?? '',
          body,
        });
        assert.equal(req.method, 'POST');
        assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
        const token = new URLSearchParams(body).get('logout_token');
        const answer = this.next;
        answer(res);
        if (res.statusCode === 200 && token) this.tokens.push(token);
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Resolves once `n` requests have arrived (no timing: the test runner's timeout is the only bound). */
  async hitsReach(n: number): Promise<void> {
    while (this.hits < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

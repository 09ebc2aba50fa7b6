// A site's webhook receiver on loopback: keeps every request (headers and raw body) and answers what
// `answer` says (204 by default), so a test can make it fail, then recover.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered; 0: it cut the connection instead. */
  status: number;
}

export class Receiver {
  received: Received[] = [];
  answer: (res: ServerResponse, n: number) => void = (res) => res.writeHead(204).end();
  url = '';
  private server!: Server;
  private waiters: Array<() => void> = [];

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        this.answer(res, this.received.length);
        this.received.push({ headers: req.headers, body, status: res.destroyed ? 0 : res.statusCode });
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  /** The bodies of the requests answered with a 2xx, parsed. */
  delivered(): Array<{ id: string; type: string; timestamp: string; data: Record<string, unknown> }> {
    return this.received.filter((r) => r.status >= 200 && r.status < 300).map((r) => JSON.parse(r.body));
  }

  /** Resolves once `ok` holds (checked after each request; the test runner's timeout is the bound). */
  async until(ok: () => boolean): Promise<void> {
    while (!ok()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

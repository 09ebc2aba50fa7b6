// A breached-password range API simulator (the k-anonymity protocol of Have I Been Pwned's
// api.pwnedpasswords.com/range/{prefix}): GET /range/<5 hex> answers every `SUFFIX:COUNT` line of the
// corpus in that range, upper-case hex, CRLF-separated; with `Add-Padding: true`, decoy lines of count 0
// are added. It records the paths asked, so a test can see that only the prefix left Ward. `hang` makes
// it hold every request without answering (a service that is down for a client with a timeout).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PwnedSim {
  /** The range URL to configure: `http://127.0.0.1:<port>/range/`. */
  url: string;
  /** Every request: path and whether padding was asked for. */
  requests: Array<{ path: string; padding: boolean }>;
  hang: boolean;
  close(): Promise<void>;
}

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex').toUpperCase();

export async function startPwnedSim(breached: Record<string, number>): Promise<PwnedSim> {
  const corpus = new Map(Object.entries(breached).map(([password, count]) => [sha1(password), count]));
  const held: ServerResponse[] = [];
  const sim: PwnedSim = { url: '', requests: [], hang: false, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    sim.requests.push({ path, padding: req.headers['add-padding'] === 'true' });
    if (sim.hang) {
      held.push(res);
      return;
    }
    const m = /^\/range\/([0-9A-Fa-f]{5})$/.exec(path);
    if (req.method !== 'GET' || !m) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('The hash prefix was not in a valid format');
      return;
    }
    const prefix = m[1]!.toUpperCase();
    const lines = [...corpus].filter(([h]) => h.startsWith(prefix)).map(([h, n]) => `${h.slice(5)}:${n}`);
    if (req.headers['add-padding'] === 'true') {
      for (let i = 0; i < 20; i++) lines.push(`${randomBytes(18).toString('hex').slice(0, 35).toUpperCase()}:0`);
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sim.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`;
  sim.close = () =>
    new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sim;
}

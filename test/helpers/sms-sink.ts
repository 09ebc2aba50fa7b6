// A local HTTP server speaking the Twilio Messages API on 127.0.0.1 (port 0):
// POST /2010-04-01/Accounts/{sid}/Messages.json, HTTP Basic sid:token (else 401 as Twilio), a form
// with To, From, Body (else 400); answers 201 {sid, status: 'queued', to, from, body}.
// failNext(status, body?) makes the next request answer that status (a Twilio error JSON by default).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInbox } from './inbox.js';

export interface ReceivedSms {
  sid: string;
  to: string;
  from: string;
  body: string;
  /** What the request looked like, for shape assertions. */
  request: { method: string; path: string; contentType: string; authorization: string };
}

export interface SmsSink {
  url: string;
  messages: ReceivedSms[];
  next(to: string, timeoutMs?: number): Promise<ReceivedSms>;
  failNext(status: number, body?: string): void;
  /** Every request seen, accepted or not. */
  requests: number;
  close(): Promise<void>;
}

function twilioError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSmsSink(creds: { accountSid: string; authToken: string }): Promise<SmsSink> {
  const inbox = createInbox<ReceivedSms>('SMS');
  const failures: { status: number; body?: string }[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${creds.accountSid}:${creds.authToken}`).toString('base64')}`;
  let requests = 0;

  const server = createServer((req, res) => {
    requests += 1;
    void (async () => {
      const text = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://sink').pathname;
      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
      if (req.method !== 'POST' || !m) return twilioError(res, 404, 20404, 'The requested resource was not found');
      if (req.headers.authorization !== expectedAuth) {
        res.setHeader('www-authenticate', 'Basic realm="Twilio API"');
        return twilioError(res, 401, 20003, 'Authenticate');
      }
      if (decodeURIComponent(m[1]) !== creds.accountSid)
        return twilioError(res, 404, 20404, 'The requested resource was not found');
      const failure = failures.shift();
      if (failure) {
        if (failure.body !== undefined) {
          res.writeHead(failure.status, { 'content-type': 'application/json' });
          return res.end(failure.body);
        }
        return twilioError(
          res,
          failure.status,
          failure.status >= 500 ? 20500 : 21211,
          failure.status >= 500 ? 'Internal Server Error' : "The 'To' number is not a valid phone number.",
        );
      }
      const contentType = req.headers['content-type'] ?? '';
      if (!contentType.startsWith('application/x-www-form-urlencoded'))
        return twilioError(res, 400, 20001, 'Content-Type must be application/x-www-form-urlencoded');
      const form = new URLSearchParams(text);
      const to = form.get('To');
      const from = form.get('From');
      const body = form.get('Body');
      if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
      if (!from) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
      if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
      const sid = `SM${randomBytes(16).toString('hex')}`;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          sid,
          account_sid: creds.accountSid,
          status: 'queued',
          to,
          from,
          body,
          num_segments: '1',
          date_created: new Date().toUTCString(),
        }),
      );
      inbox.add({
        sid,
        to,
        from,
        body,
        request: { method: req.method, path, contentType, authorization: req.headers.authorization },
      });
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages: inbox.messages,
    next: inbox.next,
    failNext(status, body) {
      failures.push({ status, body });
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// What the local provider simulators (google-sim, microsoft-sim, apple-sim) share: reading a form body
// and answering JSON, each provider with the content type it sends.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's body as a form (application/x-www-form-urlencoded). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

/** A JSON answer on `res`, with the provider's spelling of the content type. */
export const jsonAnswer =
  (res: ServerResponse, contentType = 'application/json; charset=utf-8') =>
  (status: number, v: unknown): void => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(JSON.stringify(v));
  };

import type { FastifyReply } from 'fastify';
import { type Page, type PageOptions, renderPage, type SafeHtml } from '../lib/html.js';

export { jsonInScript } from '../lib/html.js';

/** Sends one of Ward's own pages (lib/html.ts says what makes them safe). */
export function sendRendered(reply: FastifyReply, page: Page): FastifyReply {
  const { html, headers } = renderPage(page);
  return reply.code(page.status).headers(headers).send(html);
}

export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: SafeHtml,
  opts: PageOptions = {},
): FastifyReply {
  return sendRendered(reply, { status, title, body, ...opts });
}

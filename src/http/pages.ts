import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #6b7280;border-radius:4px;font-size:1rem}
input:focus,button:focus{outline:3px solid #2563eb;outline-offset:2px}
button{margin-top:1.2rem;width:100%;padding:.7rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;font-size:1rem;cursor:pointer}
.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}.muted{color:#4b5563;font-size:.9rem}`;

/** A value as a JavaScript literal inside a <script> element: nothing in it can end the element. */
export const jsonInScript = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

/**
 * An HTML page of Ward's own: no third-party resource, no framing (clickjacking), no referrer leak
 * of codes, never cached. `script` is an inline script, the only one the CSP lets run (by its hash).
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
  opts: { script?: string; frameAncestors?: string[]; formAction?: string[] } = {},
): FastifyReply {
  const script = opts.script
    ? ` script-src 'sha256-${createHash('sha256').update(opts.script).digest('base64')}';`
    : '';
  if (opts.script) body += `<script>${opts.script}</script>`;
  const frames = opts.frameAncestors?.length ? opts.frameAncestors.join(' ') : "'none'";
  reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...(opts.formAction ?? [])].join(' ')};${script} frame-ancestors ${frames}; base-uri 'none'`,
    )
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .header('X-Content-Type-Options', 'nosniff');
  if (!opts.frameAncestors?.length) reply.header('X-Frame-Options', 'DENY');
  return reply.send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
  );
}

import { createHash } from 'node:crypto';

/** Text made safe to place anywhere in HTML markup or in a double-quoted attribute value. */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A value as a JavaScript literal inside a <script> element: nothing in it can end the element. */
export const jsonInScript = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

/**
 * Markup that is safe to send: built by the `html` template (every value escaped) or, for markup
 * that is already safe by construction, by `trustedHtml`. Only its type leaves this module (the
 * private field makes it nominal), so nothing else makes one and a page cannot place an unescaped
 * string by mistake.
 */
class SafeHtml {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}
export type { SafeHtml };

/** What a template may hold: text (escaped), safe markup, lists of them; nothing for null, undefined or false. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.toString();
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/**
 * The template of every page: html`<p>${text}</p>` escapes each value (quotes too, so a value is
 * safe in a double-quoted attribute), keeps SafeHtml as it is and joins lists. Attributes of
 * Ward's pages are always double-quoted.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/**
 * Markup taken as it is, unescaped: the one way around the template. Only for markup that is safe
 * by construction (a constant, or HTML built elsewhere by the template); grep for it in review.
 */
export const trustedHtml = (markup: string): SafeHtml => new SafeHtml(markup);

/** A list of values with a separator between them (html`\n`, say). */
export const joinHtml = (parts: readonly HtmlValue[], separator: SafeHtml): SafeHtml =>
  new SafeHtml(parts.map(render).join(separator.toString()));

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input,textarea,select{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #6b7280;border-radius:4px;
font-size:1rem}fieldset{border:0;padding:0;margin:1rem 0 0}legend{font-weight:700}
input:focus,textarea:focus,select:focus,button:focus{outline:3px solid #2563eb;outline-offset:2px}
button{margin-top:1.2rem;width:100%;padding:.7rem;border:0;border-radius:4px;background:#1d4ed8;color:#fff;
font-size:1rem;cursor:pointer}
.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}label.inline{display:inline;margin:0 .4rem 0 0}
meter{width:8rem;vertical-align:middle}.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
.muted{color:#4b5563;font-size:.9rem}`;

/** The style sheet, a constant of this module (CSS, not HTML: `<` never appears in it). */
const STYLE_HTML = trustedHtml(STYLE);

export interface PageOptions {
  /** An inline script, the only one the CSP lets run (by its hash). */
  script?: string;
  frameAncestors?: string[];
  /** Origins the page's forms may end at besides Ward itself (see formActionSource). */
  formAction?: string[];
  /** The page's language (its html lang, e.g. 'de'); English when absent. */
  lang?: string;
  /** The page's script may fetch from Ward's own origin (connect-src 'self'); nothing else. */
  connectSelf?: boolean;
  /** Exact image URLs the page shows from elsewhere (img-src; a client's logo on its consent page). */
  images?: string[];
  /**
   * A third party's script the page loads (a captcha widget's), with the sources its CSP must allow
   * for it: the script's, the frames it draws, what it calls and the styles it loads.
   */
  externalScript?: { src: string; sources: { script: string[]; frame: string[]; connect: string[]; style: string[] } };
}

/** A hosted page, as the domain describes it; the HTTP layer sends it (http/pages.ts). */
export interface Page extends PageOptions {
  status: number;
  title: string;
  /** HTML inside <main>, built by the html template. */
  body: SafeHtml;
}

/**
 * An HTML page of Ward's own: no third-party resource (but the one script a page names, a captcha
 * widget's, with only its sources allowed), no framing (clickjacking), no referrer leak of codes, never cached. Answers the document and the headers that make it so.
 */
export function renderPage(page: Page): { html: string; headers: Record<string, string> } {
  // A CSP source expression: parsed (no space left), `;` and `,` encoded, so a URL cannot add a directive.
  // A host wildcard (`https://*.example.com`) is kept as written once the rest of it has parsed.
  const source = (u: string): string =>
    u.includes('//*.')
      ? source(u.replace('//*.', '//wildcard.')).replace('//wildcard.', '//*.')
      : new URL(u).href.replaceAll(';', '%3B').replaceAll(',', '%2C');
  const directive = (name: string, values: string[]) => (values.length ? ` ${name} ${values.join(' ')};` : '');
  const external = page.externalScript?.sources;
  const hash = page.script ? [`'sha256-${createHash('sha256').update(page.script).digest('base64')}'`] : [];
  const script = directive('script-src', [...hash, ...(external?.script ?? []).map(source)]);
  // The script is JavaScript, not HTML: it goes in as it is (its JSON values through jsonInScript),
  // byte for byte what the CSP hash above names.
  const scriptElement = page.script && html`<script>${trustedHtml(page.script)}</script>`;
  const externalElement = page.externalScript && html`<script src="${page.externalScript.src}" async defer></script>`;
  const frames = page.frameAncestors?.length ? page.frameAncestors.join(' ') : "'none'";
  const formAction = ["'self'", ...(page.formAction ?? [])].join(' ');
  const connect = directive('connect-src', [
    ...(page.connectSelf ? ["'self'"] : []),
    ...(external?.connect ?? []).map(source),
  ]);
  const images = directive('img-src', (page.images ?? []).map(source));
  const frameSrc = directive('frame-src', (external?.frame ?? []).map(source));
  const style = ["'unsafe-inline'", ...(external?.style ?? []).map(source)].join(' ');
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      `default-src 'none'; style-src ${style}; form-action ${formAction};${script}${connect}${images}${frameSrc} ` +
      `frame-ancestors ${frames}; base-uri 'none'`,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (!page.frameAncestors?.length) headers['X-Frame-Options'] = 'DENY';
  const head = html`<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${page.title}</title><style>${STYLE_HTML}</style>`;
  const document = html`<!doctype html><html lang="${page.lang ?? 'en'}"><head>${head}</head>
<body><main>${page.body}${scriptElement}${externalElement}</main></body></html>`;
  return { html: document.toString(), headers };
}

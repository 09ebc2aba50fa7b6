// HTTP helpers shared by the setup code and the load scenarios: one request (fetch, no redirects
// followed), a cookie jar, the parsing the scripted flows need (hidden form fields, the code in a
// Location), and PKCE pairs.
import { createHash, randomBytes } from 'node:crypto';

export interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
export interface Res {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export async function send(base: string, r: Req, retry = true): Promise<Res> {
  let res: Response;
  try {
    res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body, redirect: 'manual' });
  } catch (e) {
    // A keep-alive connection the server closed while idle (its keepAliveTimeout) just as it was reused.
    if (retry) return send(base, r, false);
    throw new Error(
      `${r.method} ${r.path.slice(0, 60)}: ${(e as Error).message} (${String(((e as Error).cause as Error | undefined)?.message ?? '')})`,
    );
  }
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  headers['set-cookie'] = res.headers.getSetCookie();
  return { status: res.status, headers, body: await res.text() };
}

/** Lower-cased names; set-cookie always an array (autocannon gives raw names and sometimes a string). */
export function normHeaders(h: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v as string | string[];
  const sc = out['set-cookie'];
  out['set-cookie'] = sc === undefined ? [] : Array.isArray(sc) ? sc : [sc];
  return out;
}

export type Jar = Record<string, string>;

/** Keeps name=value of every Set-Cookie (attributes ignored: the flows run over plain loopback HTTP). */
export function keepCookies(jar: Jar, headers: Record<string, string | string[]>): void {
  for (const line of (headers['set-cookie'] ?? []) as string[]) {
    const pair = line.split(';', 1)[0]!;
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expires = /expires=([^;]+)/i.exec(line);
    if (value === '' || /max-age=0\b/i.test(line) || (expires && Date.parse(expires[1]!) < Date.now()))
      delete jar[name];
    else jar[name] = value;
  }
}

export function cookieHeader(jar: Jar): string {
  return Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The value of the first `<input ... name="NAME" value="...">` in a page. */
export function hiddenField(html: string, name: string): string | undefined {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return m ? unescapeHtml(m[1]!) : undefined;
}

export function header(h: Record<string, string | string[]>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The authorization code in a redirect to the client's callback. */
export function codeFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  return new URL(location, 'http://x').searchParams.get('code') ?? undefined;
}

/** A path (with query) from a Location that may be absolute. */
export function pathOf(location: string): string {
  const u = new URL(location, 'http://x');
  return u.pathname + u.search;
}

export const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
export const FORM = 'application/x-www-form-urlencoded';

export interface Pkce {
  verifier: string;
  challenge: string;
}
/** A fresh PKCE pair per flow (Ward flags a reused code_challenge as a security event). */
export function nextPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function json<T = Record<string, unknown>>(body: string): T {
  return JSON.parse(body) as T;
}

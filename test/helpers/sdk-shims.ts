// Browser globals for running the unmodified @reachfive/identity-core in Node: window, storage,
// navigator, and a fetch that behaves like a browser's: cookies from a jar (credentials: 'include'),
// an Origin header, and the CORS check on the answer (no Access-Control-Allow-Origin, no data).
import { fetch as undiciFetch, Headers } from 'undici';
import { Browser } from './browser.js';
import type { TestWard } from './ward.js';

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.has(k) ? this.m.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  clear() {
    this.m.clear();
  }
}

export interface SdkPage {
  /** Every URL the SDK navigated to with window.location.assign. */
  navigations: string[];
  browser: Browser;
  nextNavigation(): Promise<string>;
}

export function installBrowserShims(ward: TestWard, pageOrigin: string): SdkPage {
  const browser = new Browser(ward);
  const navigations: string[] = [];
  const waiters: Array<(u: string) => void> = [];
  const location = {
    href: `${pageOrigin}/`,
    origin: pageOrigin,
    search: '',
    hash: '',
    pathname: '/',
    assign(url: string) {
      navigations.push(url);
      const w = waiters.shift();
      if (w) w(url);
    },
  };
  const g = globalThis as Record<string, unknown>;
  const localStorage = new MemoryStorage();
  const sessionStorage = new MemoryStorage();
  g.localStorage = localStorage;
  g.sessionStorage = sessionStorage;
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: 'Mozilla/5.0 (Ward test shim)' },
    configurable: true,
    writable: true,
  });
  g.window = {
    location,
    localStorage,
    sessionStorage,
    crypto: globalThis.crypto,
    atob: globalThis.atob,
    btoa: globalThis.btoa,
    addEventListener() {},
    removeEventListener() {},
    document: {},
  };
  g.fetch = async (
    input: string,
    init: { method?: string; headers?: Record<string, string>; body?: string; credentials?: string } = {},
  ) => {
    const url = new URL(input);
    const headers = new Headers(init.headers ?? {});
    const crossOrigin = url.origin !== pageOrigin;
    if (crossOrigin) headers.set('origin', pageOrigin);
    const withCookies = !crossOrigin || init.credentials === 'include';
    const cookie = withCookies ? await browser.jar.getCookieString(url.toString()) : '';
    if (cookie) headers.set('cookie', cookie);
    const res = await undiciFetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      dispatcher: ward.agent,
      redirect: 'manual',
    });
    if (withCookies) for (const c of res.headers.getSetCookie()) await browser.jar.setCookie(c, url.toString());
    if (crossOrigin) {
      const allow = res.headers.get('access-control-allow-origin');
      const credOk = init.credentials !== 'include' || res.headers.get('access-control-allow-credentials') === 'true';
      if ((allow !== pageOrigin && allow !== '*') || !credOk || (allow === '*' && init.credentials === 'include')) {
        throw new TypeError(`CORS: ${url.pathname} refused for ${pageOrigin} (allow-origin ${allow})`);
      }
    }
    return res;
  };
  return {
    navigations,
    browser,
    nextNavigation: () => new Promise<string>((resolve) => waiters.push(resolve)),
  };
}

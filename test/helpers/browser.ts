import { CookieJar } from 'tough-cookie';
import { Headers, type RequestInit, type Response } from 'undici';
import type { TestWard } from './ward.js';

/**
 * A user agent with its own cookie jar; redirects are returned, not followed. Cookies go with every
 * request, unless `sameSite` names the context of a cross-site one as a browser judges it: `lax` (a
 * top-level GET navigation from another site: no Strict cookies) or `none` (a POST from another site,
 * a subresource: only SameSite=None cookies).
 */
export class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly ward: TestWard) {}

  async request(url: string, init: RequestInit = {}, sameSite?: 'lax' | 'none'): Promise<Response> {
    const full = url.startsWith('http') ? url : this.ward.url + url;
    const cookie = await this.jar.getCookieString(full, sameSite ? { sameSiteContext: sameSite } : {});
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const res = await this.ward.fetch(full, { ...init, headers });
    for (const c of res.headers.getSetCookie()) await this.jar.setCookie(c, full);
    return res;
  }

  get(url: string, headers: Record<string, string> = {}, sameSite?: 'lax' | 'none'): Promise<Response> {
    return this.request(url, { headers }, sameSite);
  }

  postForm(
    url: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
    sameSite?: 'lax' | 'none',
  ): Promise<Response> {
    return this.request(
      url,
      {
        method: 'POST',
        body: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      },
      sameSite,
    );
  }

  postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  async cookieValue(name: string): Promise<string | undefined> {
    return (await this.jar.getCookies(this.ward.url)).find((c) => c.key === name)?.value;
  }
}

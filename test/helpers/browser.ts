import { CookieJar } from 'tough-cookie';
import { Headers, type RequestInit, type Response } from 'undici';
import type { TestWard } from './ward.js';

/** A user agent with its own cookie jar; redirects are returned, not followed. */
export class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly ward: TestWard) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const full = url.startsWith('http') ? url : this.ward.url + url;
    const cookie = await this.jar.getCookieString(full);
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const res = await this.ward.fetch(full, { ...init, headers });
    for (const c of res.headers.getSetCookie()) await this.jar.setCookie(c, full);
    return res;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { headers });
  }

  postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
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

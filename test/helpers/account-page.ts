// Reading and posting the hosted account page's forms like a browser (test/self-service/).
import { Browser } from './browser.js';
import { submitLoginPage } from './hosted-login.js';
import { authorizeUrl } from './oauth.js';
import type { TestWard } from './ward.js';

export const ACCOUNT_PAGE = '/identity/v1/account';

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of each form of the page that posts to `action`. */
export function formsOf(html: string, action: string): Record<string, string>[] {
  const forms: Record<string, string>[] = [];
  for (const m of html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (m[1] !== action) continue;
    const fields: Record<string, string> = {};
    for (const f of m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields[f[1]!] = decode(f[2]!);
    forms.push(fields);
  }
  return forms;
}

/** Signs in on the hosted login page (the `spa` client): the browser then holds an SSO session. */
export async function signInBrowser(ward: TestWard, email: string, password: string, browser = new Browser(ward)) {
  const page = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid email',
      state: 'st',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }),
  );
  const res = await submitLoginPage(browser, await page.text(), email, password);
  if (res.status !== 303) throw new Error(`sign-in ${res.status} ${await res.text()}`);
  return browser;
}

/** Opens a page of the browser's. */
export async function openPage(browser: Browser, path = ACCOUNT_PAGE, headers: Record<string, string> = {}) {
  const res = await browser.get(path, headers);
  return { status: res.status, html: await res.text(), res };
}

/** Posts the page's form for `action` (its hidden fields, then `fields`), like the browser would. */
export async function postPageForm(browser: Browser, html: string, action: string, fields: Record<string, string>) {
  const form = formsOf(html, action)[0];
  if (!form) throw new Error(`no form posting to ${action}`);
  const res = await browser.postForm(action, { ...form, ...fields });
  return { status: res.status, html: await res.text(), res };
}

// The emailed verification link as a user follows it: its GET shows a page (and confirms nothing, so a
// mail scanner confirms nothing), whose button posts the link's token with the page's form token.
import type { Response } from 'undici';
import type { Browser } from './browser.js';

/** Opens the link and presses the button: the POST's answer (or the GET's, when it shows no button). */
export async function confirmEmailLink(
  browser: Browser,
  link: URL,
  headers: Record<string, string> = {},
): Promise<Response> {
  const page = await browser.get(`${link.pathname}${link.search}`, headers);
  if (page.status !== 200) return page;
  const html = await page.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  const token = field('token');
  const csrf = field('csrf');
  if (!token || !csrf) throw new Error(`no confirmation form in: ${html.slice(0, 300)}`);
  return browser.postForm('/identity/v1/verify-email/link', { token, csrf }, { origin: 'null', ...headers });
}

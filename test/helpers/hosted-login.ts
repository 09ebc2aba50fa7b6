import type { Browser } from './browser.js';

/** Fills and posts the hosted login form found in an authorize response. */
export async function submitLoginPage(browser: Browser, html: string, email: string, password: string) {
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return browser.postForm('/oauth/authorize/login', {
    interaction: field('interaction')!,
    csrf: field('csrf')!,
    email,
    password,
  });
}

import { Browser } from './browser.js';
import { authorizeUrl, pkcePair } from './oauth.js';
import type { TestWard } from './ward.js';

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

/** A hidden field's value in a hosted page (`&amp;` undone). */
export const pageField = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

/** The WebAuthn options in a hosted page's ceremony script (`var o = ...;`). */
export const ceremonyOptionsIn = (html: string) => JSON.parse(/var o = (.*);\n/.exec(html)![1]!) as Record<string, any>;

/**
 * The public client `spa`'s code flow on the hosted login page, in a new cookie jar, up to the answer to
 * the user's password: the browser, the PKCE pair and that answer (a code, or the next page). `extra`
 * adds authorize parameters (`ui_locales`, say).
 */
export async function passwordOnLoginPage(
  ward: TestWard,
  user: { email: string; password: string },
  state: string,
  extra: Record<string, string> = {},
) {
  const pkce = pkcePair();
  const browser = new Browser(ward);
  const page = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    }),
  );
  const res = await submitLoginPage(browser, await page.text(), user.email, user.password);
  return { browser, pkce, res };
}

/** Posts the required enrolment page's form with `action` (and its extra fields). */
export const postEnrolPage = (browser: Browser, html: string, action: string, extra: Record<string, string> = {}) =>
  browser.postForm('/oauth/authorize/enrol', {
    interaction: pageField(html, 'interaction'),
    csrf: pageField(html, 'csrf'),
    action,
    ...extra,
  });

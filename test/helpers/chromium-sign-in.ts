// The steps the hosted-page Chromium tests share: a tab that collects the page's script and console
// errors, speaks a language and answers for the app's callback (app.example resolves nowhere), and a
// password sign-in of the public client `spa` on the hosted login page.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Chromium } from './chromium.js';
import { pkcePair } from './oauth.js';

export const APP_CALLBACK = 'https://app.example/cb';

/** The public client `spa` of the app at https://app.example, named `name`, to give the Ward. */
export const spaClient = (name: string): Record<string, unknown> => ({
  client_id: 'spa',
  name,
  type: 'public',
  allowed_callback_urls: [APP_CALLBACK],
  allowed_origins: ['https://app.example'],
});

/** A new tab of `chromium`: errors go to `problems`, requests say `acceptLanguage`, the callback answers. */
export async function watchedTab(chromium: Chromium, acceptLanguage: string, problems: string[]): Promise<Page> {
  const page = await chromium.context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.setExtraHTTPHeaders({ 'accept-language': acceptLanguage });
  await page.route(`${APP_CALLBACK}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'app' }),
  );
  return page;
}

/** The login page's words in the page's language. */
export interface LoginWords {
  email: string;
  password: string;
  signIn: string;
}

/**
 * Starts `spa`'s code flow at `issuer`, fills the hosted login page and clicks sign-in. Returns the PKCE
 * verifier; the page then shows the next step, or goes to the callback (`codeAtCallback`).
 */
export async function passwordSignIn(
  page: Page,
  issuer: string,
  words: LoginWords,
  user: { email: string; password: string },
  opts: { scope?: string; state?: string } = {},
): Promise<string> {
  const pkce = pkcePair();
  await page.goto(
    `${issuer}/oauth/authorize?${new URLSearchParams({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: APP_CALLBACK,
      scope: opts.scope ?? 'openid email',
      state: opts.state ?? 'st',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    })}`,
  );
  await page.getByLabel(words.email, { exact: true }).first().fill(user.email);
  await page.getByLabel(words.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: words.signIn, exact: true }).click();
  return pkce.verifier;
}

/** The code the app's callback got, once the page is there. */
export async function codeAtCallback(page: Page): Promise<string> {
  await page.waitForURL((u) => u.href.startsWith(APP_CALLBACK));
  const code = new URL(page.url()).searchParams.get('code');
  assert.ok(code, page.url());
  return code;
}

/**
 * A watched tab (`watchedTab`) signed in as `user` with `passwordSignIn`, once the page is at the app's
 * callback with a code: the browser holds Ward's session. `problems` collects the tab's errors.
 */
export async function signedInTab(
  chromium: Chromium,
  issuer: string,
  acceptLanguage: string,
  words: LoginWords,
  user: { email: string; password: string },
  opts: { scope?: string; state?: string } = {},
): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  const page = await watchedTab(chromium, acceptLanguage, problems);
  await passwordSignIn(page, issuer, words, user, opts);
  await codeAtCallback(page);
  return { page, problems };
}

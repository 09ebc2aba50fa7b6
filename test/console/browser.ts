// Shared by the console's browser tests: one Ward and one headless Chromium (Debian's
// /usr/bin/chromium through playwright-core, loopback only), console users of a given role signed in
// through Ward's hosted login page in a fresh context, screenshots to test-artifacts/console/, and
// small page helpers (the status region, the confirmation dialog, a forged API call with the token).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Role } from '../../src/authz/roles.js';
import { CHROMIUM } from '../helpers/chromium.js';
import { signup } from '../helpers/oauth.js';
import { startWard, type TestWard, type TestWardOptions } from '../helpers/ward.js';

export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));

export interface ConsoleSession {
  page: Page;
  context: BrowserContext;
  email: string;
  userId: string;
  problems: string[];
  close(): Promise<void>;
}

export interface ConsoleHarness {
  ward: TestWard;
  browser: Browser;
  signedIn(role: Role, start?: string): Promise<ConsoleSession>;
  close(): Promise<void>;
}

export async function startConsole(opts: TestWardOptions): Promise<ConsoleHarness> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const ward = await startWard(opts);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--ignore-certificate-errors',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
  mkdirSync(ARTIFACTS, { recursive: true });

  /** A user with the role, signed in to the console in a fresh browser context through the hosted login page. */
  async function signedIn(role: Role, start = '/console/clients'): Promise<ConsoleSession> {
    const user = await signup(ward);
    await ward.registry.storage.users.setRole(user.id, role, ward.clock.now());
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(15_000);
    // tsx (esbuild keepNames) wraps named functions inside page.evaluate callbacks in __name(): give the page a no-op one.
    await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() === 404 && !r.url().endsWith('/favicon.ico')) problems.push(`404 ${r.url()}`);
    });
    await page.goto(`${ward.url}${start}`);
    await page.waitForURL((u) => u.pathname.startsWith('/oauth/'));
    const authorize = new URL(page.url());
    assert.equal(authorize.searchParams.get('client_id'), 'ward-console');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('state'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${ward.url}${start}`);
    await page.locator('#who').filter({ hasText: user.email }).waitFor();
    await page.waitForFunction(() => !document.body.hasAttribute('aria-busy'));
    assert.deepEqual(problems, [], 'no script or CSP error');
    return { page, context, email: user.email, userId: user.id, problems, close: () => context.close() };
  }

  return {
    ward,
    browser,
    signedIn,
    async close() {
      await browser.close();
      await ward.close();
    },
  };
}

export const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
export const status = (page: Page) => page.locator('#status');
/** Waits for a status message; on a timeout, says what the error region showed. */
export async function statusSays(page: Page, text: string | RegExp): Promise<void> {
  await status(page)
    .filter({ hasText: text })
    .waitFor()
    .catch(async (e) => {
      throw new Error(`${e} (error region: ${await page.locator('#error').innerText()})`);
    });
}
/** Waits until no console operation runs (run() marks the body aria-busy). */
export const idle = (page: Page) => page.waitForFunction(() => !document.body.hasAttribute('aria-busy'));

/** The open confirmation dialog (a modal <dialog> named by its title). */
export const dialog = (page: Page) => page.getByRole('dialog');
export async function confirmDialog(page: Page, button: string): Promise<string> {
  const d = dialog(page);
  await d.waitFor();
  const text = await d.innerText();
  await d.getByRole('button', { name: button, exact: true }).click();
  await d.waitFor({ state: 'detached' });
  return text;
}

export const tokenOf = (page: Page) =>
  page.evaluate(
    () => JSON.parse(sessionStorage.getItem('ward-console:token') ?? 'null')?.access_token as string | undefined,
  );
export const callApi = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ([m, p, b]) => {
      const t = JSON.parse(sessionStorage.getItem('ward-console:token') ?? 'null').access_token as string;
      const res = await fetch(p as string, {
        method: m as string,
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    [method, path, body] as const,
  );

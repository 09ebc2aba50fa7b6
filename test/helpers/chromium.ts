// Headless Chromium for end-to-end tests: the Debian package at /usr/bin/chromium driven by
// playwright-core (no browser download), a fresh profile directory per launch, loopback only:
// facebook.com resolves to nothing (--host-resolver-rules), so even a navigation no route catches
// cannot leave the machine. Self-signed test certificates are accepted (--ignore-certificate-errors).
// `loopbackHosts` are names the browser resolves to 127.0.0.1 (a test's own sites, say
// app.ward.test and id.ward.test: two hosts of one site, as an app and its identity server can be).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(opts: { loopbackHosts?: string[] } = {}): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const profile = mkdtempSync(join(tmpdir(), 'ward-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ignoreHTTPSErrors: true,
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
      `--host-resolver-rules=${[...(opts.loopbackHosts ?? []).map((h) => `MAP ${h} 127.0.0.1`), 'MAP facebook.com ~NOTFOUND', 'MAP *.facebook.com ~NOTFOUND'].join(', ')}`,
    ],
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    async close() {
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot under test-artifacts/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join('test-artifacts', 'messenger');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

// Session and accessibility of the console, in headless Chromium: an access token that expired on
// the server or was revoked makes the next API call send the user back to sign-in with a clear
// notice (and the token is forgotten); Sign out revokes the token and ends the Ward session (its
// cookie is gone, the old token is refused); on every main page each form control has a label, the
// keyboard focus is visible, and text meets WCAG AA contrast (4.5:1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { callApi, idle, startConsole, tokenOf, type ConsoleHarness } from './browser.js';

describe('console: session expiry, sign-out, accessibility', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });

  async function expectSignInNotice(page: Page, returnTo: string) {
    await page.waitForURL((u) => u.pathname === '/console/login');
    assert.equal(new URL(page.url()).searchParams.get('return_to'), returnTo);
    const notice = page.locator('#notice');
    await notice.filter({ hasText: 'Your session has expired or was ended. Please sign in again.' }).waitFor();
    assert.equal(await tokenOf(page), undefined, 'the dead token is forgotten');
    assert.equal(await page.getByRole('button', { name: 'Sign in with Ward' }).isVisible(), true);
  }

  it('a token expired on the server sends the user back to sign-in with a notice, then back to the page', async () => {
    const { page, close } = await h.signedIn('developer');
    try {
      h.ward.clock.advance((h.ward.registry.account().access_token_ttl + 60) * 1000);
      await page.getByRole('button', { name: 'Search' }).click();
      await expectSignInNotice(page, '/console/clients');
      await page.getByRole('button', { name: 'Sign in with Ward' }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/oauth/') || u.pathname === '/console/clients');
    } finally {
      await close();
    }
  });

  it('a revoked token does the same', async () => {
    const { page, userId, close } = await h.signedIn('manager', '/console/settings');
    try {
      assert.equal((await callApi(page, 'POST', `/api/v1/users/${userId}/sessions/revoke`, {})).status, 204);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expectSignInNotice(page, '/console/settings');
    } finally {
      await close();
    }
  });

  it('Sign out revokes the token and ends the Ward session', async () => {
    const { page, context, close } = await h.signedIn('viewer');
    try {
      const token = (await tokenOf(page))!;
      const sso = async () => (await context.cookies(h.ward.url)).find((c) => c.name === '__Host-ward_sso');
      assert.ok(await sso(), 'signed in: the Ward session cookie is set');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${h.ward.url}/console/callback`);
      await page.getByText('You are signed out.').waitFor();
      assert.equal(await tokenOf(page), undefined);
      assert.equal(await sso(), undefined, 'the Ward session cookie is gone');
      const old = await h.ward.fetch('/api/v1/clients', { headers: { authorization: `Bearer ${token}` } });
      assert.equal(old.status, 401, 'the old token is revoked');
      // Back to the console: Ward asks for the password again.
      await page.goto(`${h.ward.url}/console/clients`);
      await page.getByLabel('Password').waitFor();
    } finally {
      await close();
    }
  });

  it('every main page: labelled controls, a visible focus ring, AA contrast', async () => {
    const { page, userId, problems, close } = await h.signedIn('administrator');
    try {
      for (const path of [
        '/console/clients',
        '/console/create-client',
        '/console/clients/spa',
        '/console/site-keys',
        '/console/settings',
        '/console/users',
        `/console/users/${userId}`,
        '/console/audit',
      ]) {
        await page.goto(`${h.ward.url}${path}`);
        await page.locator('#who').filter({ hasText: '@' }).waitFor();
        await idle(page);
        const unlabelled = await page.evaluate(() =>
          [...document.querySelectorAll('input, select, textarea')]
            .filter(
              (el) =>
                (el as HTMLInputElement).type !== 'hidden' &&
                !(el as HTMLInputElement).labels?.length &&
                !el.getAttribute('aria-label'),
            )
            .map((el) => el.id || el.outerHTML.slice(0, 60)),
        );
        assert.deepEqual(unlabelled, [], `${path}: every control has a label`);
        const low = await page.evaluate(() => {
          const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number);
          const lum = (c: number[]) => {
            const [r, g, b] = c.slice(0, 3).map((v) => {
              const x = v / 255;
              return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          const background = (el: Element | null): number[] => {
            for (; el; el = el.parentElement) {
              const c = rgb(getComputedStyle(el).backgroundColor);
              if (c.length === 3 || c[3]! > 0.5) return c;
            }
            return [255, 255, 255];
          };
          const out: string[] = [];
          for (const el of document.querySelectorAll(
            'h1, h2, p, label, legend, th, td, a, button, dt, dd, code, option',
          )) {
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height || !el.textContent?.trim()) continue;
            const fg = lum(rgb(getComputedStyle(el).color)),
              bg = lum(background(el));
            const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
            if (ratio < 4.5) out.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
          }
          return out;
        });
        assert.deepEqual(low, [], `${path}: contrast of at least 4.5:1`);
        // Tab to the first control of the page (after the skip link and the navigation) and look at its ring.
        await page.locator('main input, main select, main button, main a').first().focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(() => {
          const s = getComputedStyle(document.activeElement!);
          return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
        });
        assert.ok(
          ring.style !== 'none' && ring.width >= 2,
          `${path}: the focused control shows a ring (${JSON.stringify(ring)})`,
        );
      }
      assert.deepEqual(problems, [], 'no script error, CSP violation or missing file on any page');
    } finally {
      await close();
    }
  });
});

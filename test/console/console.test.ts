// The admin console at /console in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core; no browser download). Console users sign in through Ward's hosted login page (the
// ward-console client, code flow with PKCE S256). A Developer switches an HS256 client to RS256,
// presses Rotate (the new kid is in /jwks.json?client_id=), Account sync (the client's id tokens are
// signed with the global key again) and revokes the rotated key after a confirmation (it leaves the
// JWKS); a Viewer sees no Rotate / Account sync / Revoke buttons and a forged API call with its token
// gets 403; a Manager sets MFA required to Always (the next password login of a user with a factor
// answers mfa_required), removes that user's factor and filters the audit log. Screenshots of the
// main pages go to test-artifacts/console/ (git-ignored).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Role } from '../../src/authz/roles.js';
import { CHROMIUM } from '../helpers/chromium.js';
import { giveFactors } from '../helpers/mfa.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, codeFor, signup, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));

describe('the admin console in headless Chromium', { timeout: 180_000 }, () => {
  let ward: TestWard;
  let browser: Browser;
  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
    browser = await chromium.launch({
      executablePath: CHROMIUM, timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--ignore-certificate-errors',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await ward?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  const jwksKids = async (clientId: string) =>
    ((await (await ward.fetch(clientId ? `/jwks.json?client_id=${clientId}` : '/jwks.json')).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
  const status = (page: Page) => page.locator('#status');

  /** A user with the role, signed in to the console in a fresh browser context through the hosted login page. */
  async function signedIn(role: Role): Promise<{ page: Page; close(): Promise<void>; email: string }> {
    const user = await signup(ward);
    await ward.registry.storage.users.setRole(user.id, role, ward.clock.now());
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() === 404 && !r.url().endsWith('/favicon.ico')) problems.push(`404 ${r.url()}`); });
    await page.goto(`${ward.url}/console/clients`);
    await page.waitForURL((u) => u.pathname === '/oauth/authorize' || u.pathname.startsWith('/oauth/'));
    const authorize = new URL(page.url());
    assert.equal(authorize.searchParams.get('client_id'), 'ward-console');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('state'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${ward.url}/console/clients`);
    await page.locator('#who').filter({ hasText: user.email }).waitFor();
    await page.locator('#clients-table tbody tr').first().waitFor();
    assert.deepEqual(problems.filter((p) => !p.includes('403')), [], 'no script or CSP error');
    return { page, email: user.email, close: () => context.close() };
  }

  const tokenOf = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('ward-console:token') ?? 'null')?.access_token as string | undefined);
  const callApi = (page: Page, method: string, path: string, body?: unknown) => page.evaluate(async ([m, p, b]) => {
    const t = JSON.parse(sessionStorage.getItem('ward-console:token') ?? 'null').access_token as string;
    const res = await fetch(p as string, { method: m as string, headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: res.status, body: await res.json().catch(() => null) };
  }, [method, path, body] as const);

  it('a Developer switches a client to RS256, rotates, syncs and revokes its key', async () => {
    const { page, close } = await signedIn('developer');
    try {
      assert.ok(await tokenOf(page), 'the access token is kept in sessionStorage');
      await shot(page, 'clients');
      await page.getByLabel('Search clients by id or name').fill('backend');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#clients-table tbody tr').filter({ hasText: 'Shop SPA' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'backend' }).click();
      await page.waitForURL(`${ward.url}/console/clients/backend`);
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      // HS256: Rotate and Account sync are there but disabled, with the hint.
      assert.equal(await page.getByRole('button', { name: 'Rotate' }).isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Account sync' }).isDisabled(), true);
      assert.match(await page.locator('#key-hint').innerText(), /need RS256/);
      await shot(page, 'client-hs256');

      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('RS256');
      await page.getByRole('button', { name: 'Save algorithm' }).click();
      await status(page).filter({ hasText: 'JWT Algorithm saved: RS256.' }).waitFor();
      const rotate = page.getByRole('button', { name: 'Rotate' });
      assert.equal(await rotate.isEnabled(), true);

      await rotate.click();
      await status(page).filter({ hasText: /New key \S+ is current/ }).waitFor();
      const kid = /New key (\S+) is current/.exec(await status(page).innerText())![1]!;
      await page.locator('#key-state').filter({ hasText: 'Client-specific' }).waitFor();
      assert.ok((await jwksKids('backend')).includes(kid), 'the new kid is in /jwks.json?client_id=backend');
      await shot(page, 'client-keys');

      await page.getByRole('button', { name: 'Account sync' }).click();
      await status(page).filter({ hasText: 'Synced with the global key pair.' }).waitFor();
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      const site = await callApi(page, 'GET', '/api/v1/site/keys');
      const globalKid = (site.body.keys as Array<{ kid: string; status: string }>).find((k) => k.status === 'current')!.kid;
      const { code, verifier } = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb' });
      const res = await tokenRequest(ward, { grant_type: 'authorization_code', code, client_id: 'backend', client_secret: CONFIDENTIAL_SECRET, redirect_uri: 'https://api.example/cb', code_verifier: verifier });
      const idToken = ((await res.json()) as { id_token: string }).id_token;
      assert.equal(decodeProtectedHeader(idToken).kid, globalKid, 'the client signs with the global key again');
      assert.ok((await jwksKids('backend')).includes(kid), "the retired client key stays in the client's JWKS for the grace period");
      assert.ok((await jwksKids('')).includes(kid), 'the replaced key stays published in /jwks.json as previous');

      let asked = '';
      page.once('dialog', (d) => { asked = d.message(); void d.accept(); });
      await page.getByRole('button', { name: `Revoke key ${kid}` }).click();
      await status(page).filter({ hasText: `Key ${kid} revoked.` }).waitFor();
      assert.match(asked, /Revoke key/);
      assert.ok(!(await jwksKids('')).includes(kid), 'the revoked key left the JWKS');
      assert.equal(await page.getByRole('button', { name: `Revoke key ${kid}` }).count(), 0);

      // Revoking the client's current key: a dismissed confirmation changes nothing; an accepted one
      // takes the key out of the client's JWKS and sends the client back to the global pair.
      await page.getByRole('button', { name: 'Rotate' }).click();
      await status(page).filter({ hasText: /New key \S+ is current/ }).waitFor();
      const current = /New key (\S+) is current/.exec(await status(page).innerText())![1]!;
      assert.ok((await jwksKids('backend')).includes(current));
      page.once('dialog', (d) => void d.dismiss());
      await page.getByRole('button', { name: `Revoke key ${current}` }).click();
      assert.ok((await jwksKids('backend')).includes(current), 'a dismissed confirmation revokes nothing');
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: `Revoke key ${current}` }).click();
      await status(page).filter({ hasText: `Key ${current} revoked.` }).waitFor();
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      assert.ok(!(await jwksKids('backend')).includes(current), 'the revoked current key left /jwks.json?client_id=backend');

      // An API refusal is shown with its error_user_msg: a public client cannot use HS256.
      await page.goto(`${ward.url}/console/clients/spa`);
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('HS256');
      await page.getByRole('button', { name: 'Save algorithm' }).click();
      await page.locator('#error.shown').waitFor();
      const refused = await callApi(page, 'PATCH', '/api/v1/clients/spa', { jwt_algorithm: 'HS256' });
      assert.equal(refused.status, 400);
      assert.equal(await page.locator('#error').innerText(), refused.body.error_user_msg, 'the error_user_msg is shown');
      assert.match(refused.body.error_user_msg, /public client must use RS256/);
      assert.equal(await page.getByRole('combobox', { name: 'JWT Algorithm' }).inputValue(), 'RS256', 'the select shows the saved value again');
      await shot(page, 'client-error');
    } finally {
      await close();
    }
  });

  it('a Viewer sees no key buttons, a forged call with its token gets 403, and sign-out clears the token', async () => {
    const { page, close } = await signedIn('viewer');
    try {
      await page.goto(`${ward.url}/console/clients/backend`);
      await page.locator('#key-state').filter({ hasText: /Synced|Client-specific/ }).waitFor();
      await page.locator('#keys-table tbody tr').first().waitFor();
      for (const name of ['Rotate', 'Account sync', 'Save algorithm']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      assert.equal(await page.getByRole('button', { name: /^Revoke key/ }).count(), 0);
      assert.equal(await page.getByRole('combobox', { name: 'JWT Algorithm' }).isDisabled(), true);
      assert.match(await page.locator('#key-hint').innerText(), /Read-only/);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content', 'the skip link comes first in the tab order');
      await shot(page, 'viewer-client');
      const me = await callApi(page, 'GET', '/console/api/me');
      assert.equal(me.body.role, 'viewer');
      assert.deepEqual(me.body.permissions, ['read:clients', 'read:settings', 'read:users', 'read:audit']);
      const forged = await callApi(page, 'POST', '/api/v1/clients/backend/keys', {});
      assert.equal(forged.status, 403);
      assert.ok(forged.body.error_user_msg);
      await page.goto(`${ward.url}/console/settings`);
      await page.locator('#s-access_token_ttl[value], #s-access_token_ttl').first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${ward.url}/console/callback`);
      await page.getByText('You are signed out.').waitFor();
      assert.equal(await tokenOf(page), undefined);
    } finally {
      await close();
    }
  });

  it('a Manager sets MFA required to Always, removes a factor and filters the audit log', async () => {
    const target = await signup(ward);
    await giveFactors(ward, target.id, { email: target.email });
    const { page, close } = await signedIn('manager');
    try {
      await page.getByRole('link', { name: 'Account settings' }).click();
      await page.waitForURL(`${ward.url}/console/settings`);
      await page.waitForFunction(() => (document.getElementById('s-access_token_ttl') as HTMLInputElement).value !== '');
      await page.getByLabel('MFA required').selectOption('always');
      await page.getByLabel('Code length (digits)').fill('8');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await status(page).filter({ hasText: 'Settings saved.' }).waitFor().catch(async (e) => { throw new Error(`${e} ${await page.locator('#error').innerText()}`); });
      await shot(page, 'settings');
      assert.equal(ward.registry.account().mfa_required, 'always');
      assert.equal(ward.registry.account().verification_code_length, 8);
      const login = await ward.fetch('/identity/v1/password/login', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: target.email, password: target.password }),
      });
      assert.equal(login.status, 200);
      assert.equal(((await login.json()) as { mfa_required?: boolean }).mfa_required, true);

      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Search users by email, phone, name or id').fill(target.email);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#users-table tbody tr').filter({ hasText: target.email }).waitFor();
      await shot(page, 'users');
      await page.getByRole('link', { name: target.email }).click();
      const remove = page.getByRole('button', { name: `Remove factor ${target.email}` });
      await remove.waitFor();
      await shot(page, 'user');
      page.once('dialog', (d) => void d.accept());
      await remove.click();
      await status(page).filter({ hasText: 'Factor removed.' }).waitFor();
      assert.equal((await ward.registry.storage.mfaCredentials.listOfUser(target.id)).length, 0);

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.locator('#audit-table tbody tr').first().waitFor();
      await page.getByLabel('Filter by action').fill('settings.updated');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('#audit-table tbody tr td:nth-child(2)')].every((td) => td.textContent === 'settings.updated'));
      assert.ok(await page.locator('#audit-table tbody tr').count() >= 1);
      await shot(page, 'audit');
    } finally {
      await close();
    }
  });
});

// The console's server side without a browser: the ward-console client exists after start and is
// not rewritten by a second ensureConsoleClient; the pages carry a CSP that allows only same-origin
// scripts (no inline script, no inline handler); every file of src/console/static is served (each
// script a page names exists) and unknown ones are 404; GET /console/api/me answers the role and
// permissions of a console user's token (within the client's management_scopes), and 401 without a
// token. The build (scripts/build.mjs, as `npm run build` runs it) puts the static files beside the
// bundle, which serves them from there and not from src/.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureConsoleClient } from '../../src/console/client.js';
import { MANAGEMENT_SCOPES } from '../../src/config/types.js';
import { codeFor, PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { freePort } from '../helpers/free-port.js';
import { spawnBuiltWard, waitForOutput } from '../helpers/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STATIC = join(ROOT, 'src/console/static');

describe('console server side', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await ward?.close();
  });

  it('creates the ward-console client once, idempotently', async () => {
    const c = await ward.registry.storage.clients.find('ward-console');
    assert.ok(c);
    assert.equal(c.type, 'public');
    assert.equal(c.jwt_algorithm, 'RS256');
    assert.deepEqual(c.allowed_callback_urls, [`${ward.url}/console/callback`]);
    assert.deepEqual(c.allowed_origins, [ward.url]);
    assert.deepEqual(c.management_scopes, [...MANAGEMENT_SCOPES]);
    await ensureConsoleClient(ward.registry);
    assert.equal((await ward.registry.storage.clients.find('ward-console'))!.updated_at, c.updated_at, 'not rewritten');
  });

  it('serves the pages with a strict CSP and the static script', async () => {
    const scripts = new Set<string>();
    for (const path of [
      '/console/login',
      '/console/callback',
      '/console/clients',
      '/console/create-client',
      '/console/clients/spa',
      '/console/site-keys',
      '/console/settings',
      '/console/consents',
      '/console/consents/newsletter',
      '/console/users',
      `/console/users/${'a'.repeat(32)}`,
      '/console/audit',
    ]) {
      const res = await ward.fetch(path);
      assert.equal(res.status, 200, path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      const html = await res.text();
      assert.doesNotMatch(html, /<script>|\son[a-z]+=/i, `${path}: no inline script or handler`);
      assert.match(html, /<script src="\/console\/static\/console\.js" defer>/);
      for (const m of html.matchAll(/<script src="([^"]+)"/g)) scripts.add(m[1]!);
    }
    for (const src of scripts) {
      const res = await ward.fetch(src);
      assert.equal(res.status, 200, src);
      assert.match(res.headers.get('content-type') ?? '', /text\/javascript/, src);
    }
    assert.ok(
      scripts.has('/console/static/dialog.js') &&
        scripts.has('/console/static/client-form.js') &&
        scripts.has('/console/static/audit.js'),
    );
    for (const name of readdirSync(STATIC)) {
      const res = await ward.fetch(`/console/static/${name}`);
      assert.equal(res.status, 200, name);
      if (name !== 'console.js') assert.equal(await res.text(), readFileSync(join(STATIC, name), 'utf8'), name);
    }
    const js = await ward.fetch('/console/static/console.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /text\/javascript/);
    assert.match(await js.text(), /"client_id":"ward-console"/);
    assert.equal((await ward.fetch('/console/static/../client.ts')).status, 404);
    assert.equal((await ward.fetch('/console/static/nothing.js')).status, 404);
    assert.equal((await ward.fetch('/console')).headers.get('location'), '/console/clients');
  });

  it('GET /console/api/me: the role and permissions of the token, 401 without one', async () => {
    assert.equal((await ward.fetch('/console/api/me')).status, 401);
    const { code, verifier, user } = await codeFor(ward, {
      clientId: 'ward-console',
      redirectUri: `${ward.url}/console/callback`,
      scope: 'openid',
    });
    await ward.registry.storage.users.setRole(user.id, 'developer', ward.clock.now());
    const { body } = await redeem(ward, code, verifier, 'ward-console', `${ward.url}/console/callback`);
    const res = await ward.fetch('/console/api/me', { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal(res.status, 200);
    const me = (await res.json()) as { role: string; email: string; permissions: string[] };
    assert.equal(me.role, 'developer');
    assert.equal(me.email, user.email);
    assert.deepEqual(me.permissions, [
      'read:clients',
      'manage:clients',
      'manage:keys',
      'read:settings',
      'read:users',
      'read:audit',
    ]);
    // A token of a client without management scopes is refused.
    const spa = await codeFor(ward);
    const spaToken = (await redeem(ward, spa.code, spa.verifier)).body.access_token;
    assert.equal(
      (await ward.fetch('/console/api/me', { headers: { authorization: `Bearer ${spaToken}` } })).status,
      401,
    );
  });

  it('the build puts the static files beside the bundle, which serves them from there', {
    timeout: 120_000,
  }, async () => {
    const build = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build as string;
    assert.match(build, /&& node scripts\/build\.mjs$/);
    const out = join(ROOT, 'test-artifacts', 'console-build');
    const data = join(ROOT, 'test-artifacts', 'console-build-data');
    for (const d of [out, data]) rmSync(d, { recursive: true, force: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), out], { cwd: ROOT });
    assert.deepEqual(readdirSync(join(out, 'static')).sort(), readdirSync(STATIC).sort());
    // Served by the bundle from out/static: the copy changed, src/ unchanged.
    const name = readdirSync(STATIC).find((n) => n.endsWith('.css'))!;
    const marked = `${readFileSync(join(STATIC, name), 'utf8')}\n/* the build's copy */\n`;
    writeFileSync(join(out, 'static', name), marked);
    const port = await freePort();
    const child = spawnBuiltWard(out, { cwd: ROOT, dataDir: data, port });
    try {
      await waitForOutput(child, 'Ward is listening', 60_000);
      const res = await fetch(`http://127.0.0.1:${port}/console/static/${name}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), marked);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      for (const d of [out, data]) rmSync(d, { recursive: true, force: true });
    }
  });
});

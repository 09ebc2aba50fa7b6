// The README's first command as a new user runs it: `ward start` on an empty data dir creates the
// SQLite database, master key, dev certificate and global key, prints the admin credential and the
// demo clients once, and serves HTTPS; a second start reuses everything. A bad config, or a
// WARD_ADMIN_PASSWORD the password policy refuses, stops it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Agent, fetch } from 'undici';
import { stopProcess, waitForOutput } from '../helpers/processes.js';
import { freePort } from '../helpers/free-port.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

async function startCli(env: Record<string, string>): Promise<{ out: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...CLI, 'start'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = await waitForOutput(child, 'Ward is listening');
  // The banner follows the listening line in the same write or the next one.
  await new Promise((r) => setTimeout(r, 100));
  return { out, stop: () => stopProcess(child) };
}

describe('ward start', () => {
  it('bootstraps an empty data dir, serves HTTPS, and reuses it on the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ward-cli-'));
    const port = await freePort();
    const env = { WARD_DATA_DIR: dataDir, WARD_PORT: String(port), WARD_LOG_LEVEL: 'warn' };
    const first = await startCli(env);
    try {
      const out = first.out();
      assert.match(out, new RegExp(`issuer\\s+https://localhost:${port}\\n`));
      assert.match(out, new RegExp(`discovery\\s+https://localhost:${port}/\\.well-known/openid-configuration`));
      assert.match(out, /email\s+admin@ward\.local/);
      const password = /password\s+(\S+)\s+\(shown once/.exec(out)?.[1];
      assert.ok(password && password.length >= 16);
      assert.match(out, /client_id demo-public/);
      assert.match(out, /client_id demo-confidential\n\s+client_secret\s+\S{32,}/);
      for (const f of ['ward.db', 'master.key', 'tls/dev-cert.pem', 'tls/dev-key.pem'])
        assert.ok(existsSync(join(dataDir, f)), f);
      assert.equal(statSync(join(dataDir, 'master.key')).mode & 0o077, 0, 'master.key is private');
      const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls/dev-cert.pem'), 'utf8') } });
      const d = (await (
        await fetch(`https://localhost:${port}/.well-known/openid-configuration`, { dispatcher: agent })
      ).json()) as { issuer: string };
      assert.equal(d.issuer, `https://localhost:${port}`);
      const jwks = (await (await fetch(`https://localhost:${port}/jwks.json`, { dispatcher: agent })).json()) as {
        keys: Array<{ kid: string }>;
      };
      assert.equal(jwks.keys.length, 1);
      // The admin can log in with the printed password.
      const login = await fetch(`https://localhost:${port}/identity/v1/password/login`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'demo-public', scope: 'openid', email: 'admin@ward.local', password }),
      });
      assert.equal(login.status, 200);
      await first.stop();
      const second = await startCli(env);
      try {
        assert.doesNotMatch(second.out(), /Administrator account created|client_secret/);
        const again = (await (await fetch(`https://localhost:${port}/jwks.json`, { dispatcher: agent })).json()) as {
          keys: Array<{ kid: string }>;
        };
        assert.deepEqual(
          again.keys.map((k) => k.kid),
          jwks.keys.map((k) => k.kid),
        );
      } finally {
        await second.stop();
        await agent.close();
      }
    } finally {
      await first.stop().catch(() => undefined);
    }
  });

  it('stops on a bad value with a message naming the key', () => {
    const r = spawnSync(process.execPath, [...CLI, 'start'], {
      env: { ...process.env, WARD_PORT: 'abc', WARD_TLS: 'maybe' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /WARD_PORT: must be a port number/);
    assert.match(r.stderr, /WARD_TLS: must be "on" or "off"/);
  });

  it('stops when WARD_ADMIN_PASSWORD breaks the password policy, naming it', () => {
    const r = spawnSync(process.execPath, [...CLI, 'start'], {
      env: {
        ...process.env,
        WARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'ward-cli-')),
        WARD_PORT: '0',
        WARD_ADMIN_PASSWORD: 'admin-password-123',
      },
      encoding: 'utf8',
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /WARD_ADMIN_PASSWORD: The password must not contain your email address or your name/);
  });

  it('runs migrations alone with `ward migrate`', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ward-mig-'));
    const r = spawnSync(process.execPath, [...CLI, 'migrate'], {
      env: { ...process.env, WARD_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Applied: 001-initial/);
    const again = spawnSync(process.execPath, [...CLI, 'migrate'], {
      env: { ...process.env, WARD_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    assert.match(again.stdout, /up to date/);
  });
});

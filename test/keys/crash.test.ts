// Crash safety of rotate / sync / revoke: a process churning key changes is killed with SIGKILL at
// random moments; after each kill the database holds the old state or the new one: one current
// global key, at most one current key per set, and a client in client-specific mode always has its
// current key, so every client can sign. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { GLOBAL_SET, clientSet } from '../../src/keys/key-store.js';
import { buildRegistry } from '../../src/registry.js';
import { keySetOf } from '../../src/protocol/id-token.js';
import { joseJws } from '../../src/keys/jwt.js';
import { engines } from '../helpers/databases.js';
import { sharedDb, waitForOutput } from '../helpers/processes.js';

async function killDuringChurn(env: Record<string, string>, afterMs: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/keys/fixtures/churn.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    // A bound on the start (tsx compiles the registry first; slow on a loaded machine), not a timing claim.
    await waitForOutput(child, 'ready', 120_000);
    await new Promise((r) => setTimeout(r, afterMs));
  } finally {
    // Killed whatever happened: a churn left running would keep the test process alive.
    child.kill('SIGKILL');
    await exited;
  }
}

for (const engine of engines()) {
  describe(`key changes survive kill -9 (${engine})`, () => {
    it('leaves a consistent, signable key state after each of 8 kills', async () => {
      const db = await sharedDb(engine);
      try {
        for (let i = 0; i < 8; i++) {
          await killDuringChurn(db.env, 150 + Math.floor(Math.random() * 700));
          const r = await buildRegistry(loadConfig(db.env));
          try {
            const rows = await r.storage.keys.listLive();
            const current = (set: string) => rows.filter((k) => k.key_set === set && k.status === 'current');
            assert.equal(current(GLOBAL_SET).length, 1, `kill ${i}: one current global key`);
            assert.ok(current(clientSet('churn')).length <= 1, `kill ${i}: at most one current client key`);
            const client = (await r.clients.find('churn'))!;
            if (client.key_mode === 'client')
              assert.equal(current(clientSet('churn')).length, 1, `kill ${i}: a client-specific client has its key`);
            const { kid, key } = r.keys.current(keySetOf(client, r.keys));
            const jwt = await joseJws.rs256({ sub: 'x' }, kid, key);
            assert.ok(jwt.split('.').length === 3);
          } finally {
            await r.close();
          }
        }
      } finally {
        await db.drop();
      }
    });
  });
}

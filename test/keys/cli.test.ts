// The operator CLI on the configured database: ward keys list|rotate, ward clients
// create|list|rotate-key|sync-key|revoke-key, with clear errors and exit codes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli, sharedDb, type SharedDb } from '../helpers/processes.js';

describe('ward keys / ward clients', () => {
  let db: SharedDb;
  before(async () => {
    db = await sharedDb('sqlite');
  });
  after(() => db.drop());

  it('lists, rotates, creates, gives a client its own key, syncs it and revokes a key', async () => {
    const first = await runCli(db.env, ['keys', 'list']);
    assert.equal(first.code, 0, first.out);
    const oldKid = /^(\S+)\s+current\s+global/m.exec(first.out)![1]!;
    const rotated = await runCli(db.env, ['keys', 'rotate']);
    const newKid = /New global key (\S+)/.exec(rotated.out)![1]!;
    const listed = await runCli(db.env, ['keys', 'list']);
    assert.match(listed.out, new RegExp(`^${oldKid}\\s+previous\\s+global`, 'm'));
    assert.match(listed.out, new RegExp(`^${newKid}\\s+current\\s+global`, 'm'));

    const created = await runCli(db.env, [
      'clients',
      'create',
      '--id',
      'shop',
      '--type',
      'confidential',
      '--callbacks',
      'https://shop.example/cb',
    ]);
    assert.equal(created.code, 0, created.out);
    assert.match(created.out, /client_secret \S{40,}/);
    assert.match((await runCli(db.env, ['clients', 'list'])).out, /^shop\s+confidential\s+RS256\s+keys:global/m);
    const own = await runCli(db.env, ['clients', 'rotate-key', 'shop']);
    const kid = /New key (\S+) for shop/.exec(own.out)![1]!;
    assert.match(
      (await runCli(db.env, ['keys', 'list', '--client', 'shop'])).out,
      new RegExp(`^${kid}\\s+current\\s+client:shop`, 'm'),
    );
    const synced = await runCli(db.env, ['clients', 'sync-key', 'shop']);
    assert.equal(synced.code, 0, synced.out);
    assert.match((await runCli(db.env, ['clients', 'list'])).out, /^shop .*keys:global/m);
    const revoked = await runCli(db.env, ['clients', 'revoke-key', 'shop', kid]);
    assert.equal(revoked.code, 0, revoked.out);
    assert.match(
      (await runCli(db.env, ['keys', 'list', '--client', 'shop'])).out,
      new RegExp(`^${kid}\\s+revoked`, 'm'),
    );
  });

  it('refuses bad input with a message and a non-zero exit code', async () => {
    const bad = await runCli(db.env, ['clients', 'create', '--id', 'x', '--callbacks', 'javascript:alert(1)']);
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.out, /must not use a javascript:/);
    const unknown = await runCli(db.env, ['clients', 'rotate-key', 'nobody']);
    assert.equal(unknown.code, 1, unknown.out);
    assert.match(unknown.out, /No client nobody/);
    const hs = await runCli(db.env, [
      'clients',
      'create',
      '--id',
      'hs',
      '--type',
      'confidential',
      '--alg',
      'HS256',
      '--callbacks',
      'https://h.example/cb',
    ]);
    assert.equal(hs.code, 0, hs.out);
    assert.match((await runCli(db.env, ['clients', 'rotate-key', 'hs'])).out, /choose RS256/);
    const explode = await runCli(db.env, ['keys', 'explode']);
    assert.equal(explode.code, 2, explode.out);
  });
});

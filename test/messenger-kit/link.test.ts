// The Messenger webhook kit's code exchange and id_token check (against a stand-in token endpoint):
// the form it sends, HS256 with the client secret, RS256 with a cached JWKS refreshed on an unknown
// kid, refusals (forged signature, alg confusion, iss, aud, exp, nonce), transient failures retried
// with backoff on a fake clock, a throwing onLinked retried without a second exchange, retention.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signBody, type MessengerWebhook } from '../../src/messenger-kit/index.js';
import { APP_SECRET, CALLBACK_BASE, CLIENT_ID, CLIENT_SECRET, FakeWard, makeKit, tempQueuePath } from './support.js';

function linked(kit: MessengerWebhook, psid: string, code: string): void {
  const raw = Buffer.from(
    JSON.stringify({
      object: 'page',
      entry: [
        {
          id: 'P',
          time: 1,
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: 'P' },
              timestamp: Date.now(),
              account_linking: { status: 'linked', authorization_code: code },
            },
          ],
        },
      ],
    }),
  );
  const r = kit.handleEvent(raw, { 'x-hub-signature-256': signBody(raw, APP_SECRET) });
  assert.equal(r.status, 200);
}

describe('Messenger webhook kit: code exchange and id_token verification', () => {
  let rs: FakeWard;
  let hs: FakeWard;
  before(async () => {
    rs = await new FakeWard().start();
    hs = await new FakeWard().start();
    hs.alg = 'HS256';
  });
  after(async () => {
    await rs.close();
    await hs.close();
  });

  it('HS256: sends the form with the configured secret, verifies with it, hands the profile and the PSID', async () => {
    const { kit, rec } = makeKit(hs);
    const mark = hs.tokenRequests.length;
    linked(
      kit,
      'psid-hs',
      hs.issue({ sub: 'user-hs', given_name: 'Grace', family_name: 'Hopper', email: 'grace@example.com' }),
    );
    await kit.drain();
    assert.deepEqual(
      hs.tokenRequests.slice(mark).map((f) => Object.keys(f).sort()),
      [['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri']],
    );
    const form = hs.tokenRequests[mark];
    assert.deepEqual(
      [form.grant_type, form.client_id, form.redirect_uri, form.client_secret],
      ['authorization_code', CLIENT_ID, CALLBACK_BASE, CLIENT_SECRET],
    );
    assert.deepEqual(
      rec.linked.map((l) => [l.psid, l.profile]),
      [['psid-hs', { sub: 'user-hs', given_name: 'Grace', family_name: 'Hopper', email: 'grace@example.com' }]],
    );
    assert.equal(rec.linked[0].claims.iss, hs.url);
    await kit.close();
  });

  it('HS256: an id_token signed with another secret is refused and recorded, onLinked never runs', async () => {
    const { kit, rec } = makeKit(hs);
    hs.signingSecret = 'some-other-secret-of-at-least-32-bytes!!';
    try {
      linked(kit, 'psid-forged', hs.issue());
      await kit.drain();
    } finally {
      hs.signingSecret = CLIENT_SECRET;
    }
    assert.equal(rec.linked.length, 0);
    assert.deepEqual(
      rec.failed.map((f) => [f.psid, f.attempts]),
      [['psid-forged', 1]],
    );
    assert.match(rec.failed[0].error, /^id_token: signature verification failed/);
    await kit.close();
  });

  it('RS256: no client secret sent; the JWKS is fetched once, then again for a rotated key', async () => {
    const { kit, rec } = makeKit(rs);
    const fetches = rs.jwksFetches;
    const mark = rs.tokenRequests.length;
    linked(kit, 'psid-r1', rs.issue({ sub: 'user-r1' }));
    linked(kit, 'psid-r2', rs.issue({ sub: 'user-r2' }));
    await kit.drain();
    assert.equal(rs.jwksFetches - fetches, 1);
    assert.ok(rs.tokenRequests.slice(mark).every((f) => !('client_secret' in f)));
    await rs.rotateKey();
    linked(kit, 'psid-r3', rs.issue({ sub: 'user-r3' }));
    await kit.drain();
    assert.equal(rs.jwksFetches - fetches, 2);
    assert.deepEqual(rec.linked.map((l) => l.profile.sub).sort(), ['user-r1', 'user-r2', 'user-r3']);
    await kit.close();
  });

  it('refuses a wrong iss, a foreign aud, an expired token and an HS256 token at an RS256 client', async () => {
    const { kit, rec } = makeKit(rs);
    linked(kit, 'psid-aud', rs.issue({}, { claims: { aud: 'another-client' } }));
    linked(kit, 'psid-exp', rs.issue({}, { claims: { exp: Math.floor(Date.now() / 1000) - 60 } }));
    await kit.drain();
    rs.issuerOverride = 'https://evil.example';
    linked(kit, 'psid-iss', rs.issue());
    await kit.drain();
    rs.issuerOverride = null;
    rs.alg = 'HS256';
    linked(kit, 'psid-alg', rs.issue());
    await kit.drain();
    rs.alg = 'RS256';
    assert.equal(rec.linked.length, 0);
    const errors = Object.fromEntries(rec.failed.map((f) => [f.psid, f.error]));
    assert.match(errors['psid-aud'], /unexpected "aud" claim value/);
    assert.match(errors['psid-exp'], /"exp" claim timestamp check failed/);
    assert.match(errors['psid-iss'], /unexpected "iss" claim value/);
    assert.match(errors['psid-alg'], /"alg" \(Algorithm\) Header Parameter value not allowed/);
    await kit.close();
  });

  it('ML-06: with nonceFor, the id_token nonce must be the one bound to the PSID', async () => {
    const bound: Record<string, string> = { 'psid-n1': 'nonce-1', 'psid-n2': 'nonce-2' };
    const { kit, rec } = makeKit(rs, { nonceFor: (psid) => bound[psid] });
    linked(kit, 'psid-n1', rs.issue({ sub: 'user-n1' }, { nonce: 'nonce-1' }));
    linked(kit, 'psid-n2', rs.issue({ sub: 'user-n2' }, { nonce: 'nonce-1' }));
    linked(kit, 'psid-n3', rs.issue({ sub: 'user-n3' }, { nonce: 'nonce-3' }));
    await kit.drain();
    assert.deepEqual(
      rec.linked.map((l) => [l.psid, l.profile.sub, l.claims.nonce]),
      [['psid-n1', 'user-n1', 'nonce-1']],
    );
    assert.deepEqual(rec.failed.map((f) => f.psid).sort(), ['psid-n2', 'psid-n3']);
    assert.ok(rec.failed.every((f) => /nonce/.test(f.error)));
    await kit.close();
  });

  it('a 500 from Ward is retried after the backoff (fake clock); retries stop at maxAttempts', async () => {
    let t = Date.now();
    const { kit, rec } = makeKit(rs, { now: () => t, maxAttempts: 3 });
    rs.mode = 'error500';
    try {
      const mark = rs.tokenRequests.length;
      linked(kit, 'psid-retry', rs.issue({ sub: 'user-retry' }));
      await kit.drain();
      assert.equal(rs.tokenRequests.length - mark, 1);
      await kit.drain(); // not due yet: no new attempt
      assert.equal(rs.tokenRequests.length - mark, 1);
      t += 1000;
      rs.mode = 'ok';
      await kit.drain();
      assert.equal(rs.tokenRequests.length - mark, 2);
      assert.deepEqual(
        rec.linked.map((l) => l.profile.sub),
        ['user-retry'],
      );

      rs.mode = 'error500';
      linked(kit, 'psid-give-up', rs.issue());
      await kit.drain();
      t += 1000;
      await kit.drain();
      t += 2000;
      await kit.drain();
      t += 60_000;
      await kit.drain();
      assert.equal(rs.tokenRequests.length - mark, 5);
      assert.deepEqual(
        rec.failed.map((f) => [f.psid, f.attempts, f.error]),
        [['psid-give-up', 3, 'token endpoint: server_error (500)']],
      );
    } finally {
      rs.mode = 'ok';
    }
    await kit.close();
  });

  it('a throwing onLinked is retried with the stored profile, without a second exchange', async () => {
    let t = Date.now();
    let calls = 0;
    const { kit } = makeKit(rs, {
      now: () => t,
      onLinked: () => {
        if (++calls === 1) throw new Error('database down');
      },
    });
    const mark = rs.tokenRequests.length;
    linked(kit, 'psid-cb', rs.issue());
    await kit.drain();
    assert.equal(calls, 1);
    assert.deepEqual(kit.stats(), { pending: 1, done: 0, failed: 0 });
    t += 1000;
    await kit.drain();
    assert.equal(calls, 2);
    assert.equal(rs.tokenRequests.length - mark, 1);
    assert.deepEqual(kit.stats(), { pending: 0, done: 1, failed: 0 });
    await kit.close();
  });

  it('finished items are kept for de-duplication, then purged after retentionMs', async () => {
    let t = Date.now();
    const queuePath = tempQueuePath();
    const first = makeKit(rs, { now: () => t, queuePath, retentionMs: 3_600_000 });
    linked(first.kit, 'psid-keep', rs.issue());
    await first.kit.drain();
    await first.kit.close();
    t += 3_600_001;
    const second = makeKit(rs, { now: () => t, queuePath, retentionMs: 3_600_000 });
    assert.deepEqual(second.kit.stats(), { pending: 0, done: 0, failed: 0 });
    await second.kit.close();
  });
});

// Issue 33, item 7: every URL Ward fetches on an operator's or a third party's word goes through one
// guarded client (src/lib/outbound/). No test here sends a packet to a non-loopback address: a private
// or metadata address is either a literal IP in the URL, refused before anything is sent, or a name
// given by a test resolver, refused before connecting. The "is it reached?" checks use receivers on
// 127.0.0.1 under the production rule (WARD_OUTBOUND_ALLOW=none): they must see no request.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { createOutbound, OutboundRefused } from '../../src/lib/outbound/client.js';
import { parseCidrList } from '../../src/lib/outbound/ranges.js';
import { discoveredEndpointProblem } from '../../src/social/issuer-rule.js';
import { engines } from '../helpers/databases.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair } from '../helpers/oauth.js';
import { startPwnedSim } from '../helpers/pwned-sim.js';
import { startSmsSink } from '../helpers/sms-sink.js';
import { startWard, type TestWard, type TestWardOptions } from '../helpers/ward.js';

/** A receiver on 127.0.0.1 that counts what reaches it. */
interface Receiver {
  url: string;
  hits: string[];
  close(): Promise<void>;
}
async function receiver(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const PRIVATE_URLS = [
  'http://10.0.0.1/',
  'https://172.16.5.4/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://224.0.0.1/',
  'http://127.0.0.1/',
  'http://[::1]/',
  'http://0x7f.1/',
];

describe('the guarded outbound client', () => {
  const none = createOutbound({ allow: [] });
  const loopback = createOutbound({ allow: parseCidrList('127.0.0.0/8,::1', assert.fail) });
  let rx: Receiver;
  before(async () => {
    rx = await receiver((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: `${rx.url}/elsewhere` }).end();
      else if (req.url === '/large') res.end('x'.repeat(2 * 1024 * 1024));
      else if (req.url === '/slow') setTimeout(() => res.end('late'), 2_000);
      else res.end('ok');
    });
  });
  after(async () => {
    await rx.close();
    await none.close();
    await loopback.close();
  });

  it('refuses loopback, private, link-local, metadata, CGNAT, unspecified and multicast addresses, IPv4-mapped too', async () => {
    for (const url of PRIVATE_URLS) await assert.rejects(none.fetch(url, { timeoutMs: 1_000 }), OutboundRefused, url);
  });

  it('refuses a host name that resolves to a refused address, before connecting', async () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '::ffff:127.0.0.1', 'fd00:ec2::254']) {
      const named = createOutbound({
        allow: [],
        resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
      });
      try {
        await assert.rejects(named.fetch('https://idp.example.test/token'), (e: unknown) => {
          assert.ok(e instanceof OutboundRefused, String(e));
          assert.match(e.message, /^idp\.example\.test resolves to /);
          return true;
        });
      } finally {
        await named.close();
      }
    }
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const mixed = createOutbound({
      allow: parseCidrList('127.0.0.0/8', assert.fail),
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    try {
      await assert.rejects(mixed.fetch('http://two.example.test:8080/'), OutboundRefused);
    } finally {
      await mixed.close();
    }
  });

  it('resolves once per connection and connects to the address it checked', async () => {
    let lookups = 0;
    const pinned = createOutbound({
      allow: parseCidrList('127.0.0.0/8', assert.fail),
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    try {
      const before = rx.hits.length;
      const port = new URL(rx.url).port;
      const res = await pinned.fetch(`http://pinned.example.test:${port}/hello`);
      assert.equal(await res.text(), 'ok');
      assert.equal(lookups, 1);
      assert.equal(rx.hits.length, before + 1);
    } finally {
      await pinned.close();
    }
  });

  it('follows no redirect, caps the size and the time of an answer', async () => {
    const before = rx.hits.length;
    const redirected = await loopback.fetch(`${rx.url}/redirect`);
    assert.equal(redirected.status, 302);
    assert.deepEqual(rx.hits.slice(before), ['GET /redirect']);
    await assert.rejects(loopback.fetch(`${rx.url}/large`), /larger than 1048576 bytes/);
    const t0 = Date.now();
    await assert.rejects(loopback.fetch(`${rx.url}/slow`, { timeoutMs: 200 }), { name: 'TimeoutError' });
    assert.ok(Date.now() - t0 < 1_500);
    await assert.rejects(none.fetch('file:///etc/passwd'), OutboundRefused);
  });

  it("a discovered endpoint must be on the issuer's origin, or a host its operator documents, over https", () => {
    const google = 'https://accounts.google.com';
    assert.equal(discoveredEndpointProblem(google, 'https://accounts.google.com/o/oauth2/v2/auth'), null);
    assert.equal(discoveredEndpointProblem(google, 'https://oauth2.googleapis.com/token'), null);
    assert.equal(discoveredEndpointProblem(google, 'https://www.googleapis.com/oauth2/v3/certs'), null);
    const ms = 'https://login.microsoftonline.com/common/v2.0';
    assert.equal(discoveredEndpointProblem(ms, 'https://graph.microsoft.com/oidc/userinfo'), null);
    for (const [issuer, endpoint] of [
      [google, 'http://oauth2.googleapis.com/token'],
      [google, 'http://accounts.google.com/token'],
      [google, 'https://oauth2.googleapis.com:8443/token'],
      [google, 'https://evil.example/token'],
      [ms, 'https://graph.microsoft.com.evil.example/oidc/userinfo'],
      ['https://idp.example', 'https://idp.example.evil.example/token'],
      ['https://idp.example', 'http://idp.example/token'],
      ['https://idp.example', 'https://10.0.0.1/token'],
      ['https://idp.example', 42],
    ] as const)
      assert.match(
        discoveredEndpointProblem(issuer, endpoint) ?? '',
        /off the issuer's origin|not a URL/,
        String(endpoint),
      );
  });

  it('WARD_OUTBOUND_ALLOW: loopback in development by default, nothing in production, "none", CIDRs checked', () => {
    assert.deepEqual(
      loadConfig({}).outboundAllow.map((c) => `${c.address}/${c.prefix}`),
      ['127.0.0.0/8', '::1/128'],
    );
    assert.deepEqual(loadConfig({ WARD_MODE: 'production' }).outboundAllow, []);
    assert.deepEqual(loadConfig({ WARD_OUTBOUND_ALLOW: 'none' }).outboundAllow, []);
    assert.equal(loadConfig({ WARD_MODE: 'production', WARD_OUTBOUND_ALLOW: '10.1.2.0/24' }).outboundAllow.length, 1);
    assert.throws(() => loadConfig({ WARD_OUTBOUND_ALLOW: '10.1.2.0/33' }), /WARD_OUTBOUND_ALLOW/);
    assert.throws(() => loadConfig({ WARD_TRUSTED_PROXIES: 'proxy.example' }), /WARD_TRUSTED_PROXIES/);
  });
});

for (const engine of engines()) {
  describe(`outbound requests of a Ward (${engine})`, { timeout: 120_000 }, () => {
    const wards: TestWard[] = [];
    const receivers: Receiver[] = [];
    after(async () => {
      for (const w of wards) await w.close();
      for (const r of receivers) await r.close();
    });
    /** A Ward under the production rule: no refused range allowed. */
    async function strictWard(opts: TestWardOptions = {}, allow = 'none'): Promise<TestWard> {
      const w = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        ...opts,
        env: { WARD_OUTBOUND_ALLOW: allow, ...(opts.env ?? {}) },
      });
      wards.push(w);
      return w;
    }
    const logged = (w: TestWard, re: RegExp) => w.logs.some((l) => re.test(l));
    /** The sign-in ended at the client with server_error: the browser was not sent to the provider. */
    const refusedToClient = (res: { status: number; headers: { get(n: string): string | null } }, what: string) => {
      assert.equal(res.status, 302, what);
      const to = new URL(res.headers.get('location')!);
      assert.equal(`${to.origin}${to.pathname}`, 'https://app.example/cb', `${what}: sent to ${to}`);
      assert.equal(to.searchParams.get('error'), 'server_error', what);
    };

    /** Starts a social sign-in; answers Ward's first answer. */
    const startSocial = (w: TestWard, provider: string) =>
      w.fetch(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          state: 's',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          provider,
        }),
      );
    const provider = (name: string, issuer: string) => ({
      name,
      type: 'oidc',
      issuer,
      client_id: 'ward',
      client_secret: 'provider-secret-never-sent',
      label: name,
    });

    it('social login: a provider on a private or metadata address is never asked', async () => {
      const w = await strictWard({
        socialProviders: [provider('private', 'https://10.0.0.1'), provider('metadata', 'https://169.254.169.254')],
      });
      for (const [name, what] of [
        ['private', /10\.0\.0\.1 is a private address/],
        ['metadata', /169\.254\.169\.254 is a cloud metadata address/],
      ] as const) {
        refusedToClient(await startSocial(w, name), name);
        assert.ok(logged(w, what), `${name}: ${what} not in the log`);
      }
    });

    it('social login: a provider on loopback is not reached under the production rule (nothing allowed)', async () => {
      const idp = await receiver((_req, res) => res.writeHead(500).end());
      receivers.push(idp);
      const w = await strictWard({ socialProviders: [provider('local', idp.url)] });
      refusedToClient(await startSocial(w, 'local'), 'local');
      assert.deepEqual(idp.hits, []);
      assert.ok(logged(w, /127\.0\.0\.1 is a loopback address/));
    });

    it('social login: a discovery naming an endpoint on another origin is refused before the code or secret leaves', async () => {
      // The attacker's endpoint is another origin on loopback (another port): it must see nothing.
      const attacker = await receiver((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
      );
      receivers.push(attacker);
      let endpoints: Record<string, string> = {};
      const idp = await receiver((req, res) => {
        if (req.url === '/.well-known/openid-configuration')
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ issuer: idp.url, ...endpoints }));
        else res.writeHead(404).end();
      });
      receivers.push(idp);
      const sameOrigin = () => ({
        authorization_endpoint: `${idp.url}/authorize`,
        token_endpoint: `${idp.url}/token`,
        userinfo_endpoint: `${idp.url}/userinfo`,
        jwks_uri: `${idp.url}/jwks`,
      });
      const w = await strictWard({ socialProviders: [provider('moved', idp.url)] }, '127.0.0.0/8');
      // The same-origin discovery is followed: the browser goes to the provider.
      endpoints = sameOrigin();
      const ok = await startSocial(w, 'moved');
      assert.equal(ok.status, 302);
      assert.ok(ok.headers.get('location')!.startsWith(`${idp.url}/authorize?`));
      for (const name of ['token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'authorization_endpoint']) {
        // A fresh provider each time (no cached discovery).
        const fresh = `moved-${name.replace(/_/g, '-')}`;
        await w.registry.socialProviders.save(
          { ...provider(fresh, idp.url), type: 'oidc', scopes: ['openid'] } as never,
          'api',
        );
        await w.registry.socialProviders.reload();
        endpoints = { ...sameOrigin(), [name]: `${attacker.url}/${name}` };
        refusedToClient(await startSocial(w, fresh), name);
        assert.ok(logged(w, new RegExp(`discovery names a ${name} off the issuer's origin`)), name);
      }
      assert.deepEqual(attacker.hits, []);
    });

    it('back-channel logout: a URI on a private address or on loopback in production is never reached', async () => {
      const rp = await receiver((_req, res) => res.writeHead(200).end());
      receivers.push(rp);
      const w = await strictWard({
        clients: [
          PUBLIC_CLIENT,
          {
            ...PUBLIC_CLIENT,
            client_id: 'private-rp',
            allowed_callback_urls: ['https://10.0.0.1/cb'],
            backchannel_logout_uri: 'https://10.0.0.1/logout',
          },
          {
            ...PUBLIC_CLIENT,
            client_id: 'local-rp',
            allowed_callback_urls: [`${rp.url}/cb`],
            backchannel_logout_uri: `${rp.url}/logout`,
          },
        ],
      });
      const now = w.clock.now();
      const row = (client_id: string) => ({
        id: `row-${client_id}`,
        client_id,
        user_id: 'u',
        sid: 's',
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        created_at: now,
      });
      await w.registry.storage.logoutDeliveries.enqueue([row('private-rp'), row('local-rp')]);
      await w.registry.logoutDelivery.tick();
      const rows = await w.registry.storage.logoutDeliveries.list();
      const errorOf = (id: string) => rows.find((r) => r.client_id === id)?.last_error;
      assert.match(errorOf('private-rp') ?? '', /^OutboundRefused: 10\.0\.0\.1 is a private address/);
      assert.match(errorOf('local-rp') ?? '', /^OutboundRefused: 127\.0\.0\.1 is a loopback address/);
      assert.deepEqual(rp.hits, []);
    });

    it('breached-password check: a range API on a metadata address or on loopback in production is never asked', async () => {
      const breached = 'velvet-harbor-lantern';
      const sim = await startPwnedSim({ [breached]: 99 });
      try {
        for (const url of ['https://169.254.169.254/range/', sim.url]) {
          const w = await strictWard({
            account: { password_breach_check_url: url, rate_limits: { signup: { limit: null } } },
          });
          const res = await w.fetch('/identity/v1/signup', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              client_id: 'spa',
              data: { email: `b-${w.clock.now()}@example.com`, password: breached },
            }),
          });
          // The check fails open (as for a service that is down) and says so in the log.
          assert.equal(res.status, 200, `${url}: ${await res.text()}`);
          assert.ok(logged(w, /password\.breach_check_unavailable/), url);
        }
        assert.deepEqual(sim.requests, []);
      } finally {
        await sim.close();
      }
    });

    it('SMS: a provider URL on a private address or on loopback in production is never reached', async () => {
      const creds = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'sms-auth-token-for-tests' };
      const sink = await startSmsSink(creds);
      try {
        for (const [smsUrl, what] of [
          ['http://10.0.0.1', /10\.0\.0\.1 is a private address/],
          [sink.url, /127\.0\.0\.1 is a loopback address/],
        ] as const) {
          const w = await strictWard({
            delivery: {
              smsUrl,
              smsAccountSid: creds.accountSid,
              smsAuthToken: creds.authToken,
              smsFrom: '+15005550006',
            },
          });
          await assert.rejects(
            w.registry.delivery.sendCode({
              channel: 'sms',
              to: '+33612345678',
              purpose: 'stepup',
              code: '123456',
              ttlSeconds: 300,
            }),
            (e: unknown) => {
              assert.match(String((e as Error).message), what);
              return true;
            },
          );
        }
        assert.equal(sink.requests, 0);
      } finally {
        await sink.close();
      }
    });
  });
}

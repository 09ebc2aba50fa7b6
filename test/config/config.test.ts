// Configuration: one typed schema, validated at boot; a bad value names its key and what is allowed.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/load.js';

function withFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'ward-cfg-'));
  const file = join(dir, 'ward.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('configuration', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8443);
    assert.equal(c.issuer, 'https://localhost:8443');
    assert.equal(c.tls, true);
    assert.equal(c.databaseUrl, null);
    assert.equal(c.account.mfa_required, 'never');
    assert.equal(c.account.access_token_ttl, 3600);
    assert.ok(c.dataDir.endsWith('/data'));
  });

  it('lets environment variables override the file', () => {
    const file = withFile({ port: 9000, issuer: 'https://file.example', log_level: 'debug' });
    const c = loadConfig({ WARD_CONFIG: file, WARD_PORT: '9100' });
    assert.equal(c.port, 9100);
    assert.equal(c.issuer, 'https://file.example');
    assert.equal(c.logLevel, 'debug');
    assert.equal(loadConfig({ WARD_TLS: 'off', WARD_PORT: '8080' }).issuer, 'http://localhost:8080');
    assert.equal(loadConfig({ WARD_DATABASE_URL: 'postgres://u@h/db' }).databaseUrl, 'postgres://u@h/db');
  });

  it('applies the example of the issue: account settings and clients', () => {
    const file = withFile({
      account: { mfa_required: 'Always' },
      clients: [
        {
          client_id: 'shop-web',
          name: 'Shop',
          type: 'public',
          jwt_algorithm: 'RS256',
          allowed_callback_urls: ['https://shop.example/cb'],
          allowed_origins: ['https://shop.example'],
          sso: true,
        },
        {
          client_id: 'shop-api',
          type: 'confidential',
          client_secret: 'x'.repeat(32),
          jwt_algorithm: 'HS256',
          allowed_callback_urls: ['https://shop.example/api/cb'],
        },
      ],
    });
    const c = loadConfig({ WARD_CONFIG: file });
    assert.equal(c.account.mfa_required, 'always');
    assert.deepEqual(
      c.clients.map((x) => [x.client_id, x.type, x.jwt_algorithm, x.pkce_enforced]),
      [
        ['shop-web', 'public', 'RS256', true],
        ['shop-api', 'confidential', 'HS256', false],
      ],
    );
  });

  const bad: Array<[string, Record<string, string> | unknown, RegExp]> = [
    ['a non-numeric port', { WARD_PORT: 'http' }, /^WARD_PORT: must be a port number/],
    ['an unknown TLS mode', { WARD_TLS: 'maybe' }, /^WARD_TLS: must be "on" or "off"/],
    ['an unknown tuning mode', { WARD_TUNING: 'fast' }, /^WARD_TUNING: must be "on" or "off"/],
    ['an unknown speed-up', { WARD_TUNING_OFF: 'group_commit,warp' }, /^WARD_TUNING_OFF: unknown speed-up "warp"/],
    [
      'a non-postgres database URL',
      { WARD_DATABASE_URL: 'mysql://x' },
      /^WARD_DATABASE_URL: must be a postgres:\/\/ URL/,
    ],
    [
      'an issuer with a trailing slash',
      { WARD_ISSUER: 'https://id.example/' },
      /^WARD_ISSUER: must not end with a slash/,
    ],
    ['an unknown log level', { WARD_LOG_LEVEL: 'loud' }, /^WARD_LOG_LEVEL: must be one of/],
    ['a short master key', { WARD_MASTER_KEY: 'c2hvcnQ=' }, /^WARD_MASTER_KEY: must be the base64 of exactly 32 bytes/],
    [
      'a cert without its key',
      { WARD_TLS_CERT: '/x.pem' },
      /^WARD_TLS_CERT: WARD_TLS_CERT and WARD_TLS_KEY go together/,
    ],
    [
      'HS256 on a public client',
      {
        clients: [
          { client_id: 'a', type: 'public', jwt_algorithm: 'HS256', allowed_callback_urls: ['https://a.example/cb'] },
        ],
      },
      /^clients\[0\]\.jwt_algorithm: HS256 needs a client secret/,
    ],
    [
      'a secret shorter than 32 bytes',
      {
        clients: [
          {
            client_id: 'a',
            type: 'confidential',
            client_secret: 'short',
            allowed_callback_urls: ['https://a.example/cb'],
          },
        ],
      },
      /^clients\[0\]\.client_secret: must be at least 32 bytes/,
    ],
    [
      'a javascript: callback URL',
      { clients: [{ client_id: 'a', allowed_callback_urls: ['JaVaScRiPt:alert(1)'] }] },
      /^clients\[0\]\.allowed_callback_urls\[0\]: .* must not use a javascript:/,
    ],
    [
      'an http callback off loopback',
      { clients: [{ client_id: 'a', allowed_callback_urls: ['http://a.example/cb'] }] },
      /^clients\[0\]\.allowed_callback_urls\[0\]: .* must use https/,
    ],
    [
      'an origin with a path',
      { clients: [{ client_id: 'a', allowed_callback_urls: [], allowed_origins: ['https://a.example/x'] }] },
      /^clients\[0\]\.allowed_origins\[0\]: .* must be exactly an origin/,
    ],
    [
      'a resource server without a secret',
      { clients: [{ client_id: 'api', type: 'resource_server' }] },
      /^clients\[0\]\.client_secret: a resource_server client needs a client_secret/,
    ],
    [
      'a resource server with a grant',
      {
        clients: [
          {
            client_id: 'api',
            type: 'resource_server',
            client_secret: 'r'.repeat(40),
            grant_types: ['client_credentials'],
          },
        ],
      },
      /^clients\[0\]\.grant_types: a resource server may only introspect tokens/,
    ],
    [
      'a resource server with a callback URL',
      {
        clients: [
          {
            client_id: 'api',
            type: 'resource_server',
            client_secret: 'r'.repeat(40),
            allowed_callback_urls: ['https://api.example/cb'],
          },
        ],
      },
      /^clients\[0\]\.allowed_callback_urls: a resource server may only introspect tokens/,
    ],
    [
      'an unknown grant type',
      { clients: [{ client_id: 'a', grant_types: ['implicit'] }] },
      /^clients\[0\]\.grant_types\[0\]: "implicit" is not one of authorization_code, refresh_token, client_credentials, password/,
    ],
    [
      'an unknown MFA policy',
      { account: { mfa_required: 'sometimes' } },
      /^account\.mfa_required: must be "always" or "never"/,
    ],
    ['a zero lifetime', { account: { access_token_ttl: 0 } }, /^account\.access_token_ttl: must be an integer from 1/],
    ['an unknown key', { account: { mfa: 'always' } }, /^account\.mfa: unknown key \(allowed: /],
    [
      'a duplicate client_id',
      { clients: [{ client_id: 'a' }, { client_id: 'a' }] },
      /^clients\[1\]\.client_id: duplicate client_id a/,
    ],
  ];
  for (const [name, input, expected] of bad) {
    it(`refuses ${name}, naming the key`, () => {
      const env =
        (input as Record<string, unknown>).clients || (input as Record<string, unknown>).account
          ? { WARD_CONFIG: withFile(input) }
          : (input as Record<string, string>);
      const list = problems(env);
      assert.ok(
        list.some((p) => expected.test(p)),
        `${JSON.stringify(list)} should match ${expected}`,
      );
    });
  }

  it('turns every speed-up on by default, all off with WARD_TUNING=off, single ones with WARD_TUNING_OFF', () => {
    const on = Object.entries(loadConfig({}).tuning);
    assert.ok(on.length >= 5 && on.every(([, v]) => v === true));
    assert.ok(Object.values(loadConfig({ WARD_TUNING: 'off' }).tuning).every((v) => v === false));
    const some = loadConfig({ WARD_TUNING_OFF: 'group_commit, direct_jws' }).tuning;
    assert.deepEqual(
      Object.entries(some)
        .filter(([, v]) => !v)
        .map(([k]) => k),
      ['group_commit', 'direct_jws'],
    );
    assert.equal(loadConfig({ WARD_CONFIG: withFile('{"tuning": "off"}') }).tuning.group_commit, false);
    // A retired speed-up (now the only path) is still accepted, and changes nothing.
    assert.deepEqual(loadConfig({ WARD_TUNING_OFF: 'statement_cache' }).tuning, loadConfig({}).tuning);
  });

  it('refuses a file that is not JSON, naming the file', () => {
    const file = withFile('{ not json');
    assert.match(problems({ WARD_CONFIG: file })[0]!, /^WARD_CONFIG: .*ward\.json is not valid JSON/);
  });
});

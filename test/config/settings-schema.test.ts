// The settings schemas (src/config/schema/) drive the validation of the config file and the management
// API's schemas: each problem names its key and what is allowed, and a range written in the schema is
// the range both doors enforce. The environment is checked the same way.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AccountSchema, DEFAULT_ACCOUNT, validateAccount } from '../../src/config/schema/account.js';
import { apiSchema } from '../../src/config/schema/api.js';
import { Problems } from '../../src/config/schema/check.js';
import { validateClient } from '../../src/config/schema/client-rules.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { SETTINGS_BODY } from '../../src/console/settings-page.js';

const problemsOf = (raw: unknown): string[] => {
  const p = new Problems();
  validateAccount(p, raw);
  return p.list;
};

describe('the account settings schema', () => {
  it('names the key and what is allowed, at any depth', () => {
    assert.deepEqual(problemsOf({ passkeys: { challenge_ttl: 5 } }), [
      'account.passkeys.challenge_ttl: must be an integer from 30 to 600, got 5',
    ]);
    assert.deepEqual(problemsOf({ rate_limits: { login: { limit: 'many' } } }), [
      'account.rate_limits.login.limit: must be an integer from 1 to 1000000000 or null, got "many"',
    ]);
    assert.deepEqual(problemsOf({ self_service: { email_verification: 'maybe' } }), [
      'account.self_service.email_verification: must be "off", "send" or "required", got "maybe"',
    ]);
    assert.deepEqual(problemsOf({ passwordless: { magic: true } }), [
      'account.passwordless.magic: unknown key (allowed: magic_link, sms, signup)',
    ]);
    assert.deepEqual(problemsOf({ authorization_code_ttl: 601 }), [
      'account.authorization_code_ttl: must be an integer from 1 to 600, got 601',
    ]);
  });

  it('keeps the rules that relate several settings', () => {
    assert.deepEqual(problemsOf({ sign_in_delay_after: 8, sign_in_lock_after: 3 }), [
      'account.sign_in_lock_after: must be at least sign_in_delay_after',
    ]);
    assert.deepEqual(problemsOf({ passkeys: { rp_id: 'example.com', origins: ['https://example.org'] } }), [
      'account.passkeys.origins: https://example.org is not on the relying-party ID example.com or one of its subdomains',
    ]);
  });

  it('merges a partial group over the current settings and leaves them alone when refused', () => {
    const base = { ...DEFAULT_ACCOUNT, passkeys: { ...DEFAULT_ACCOUNT.passkeys, rp_name: 'Shop' } };
    const p = new Problems();
    const next = validateAccount(p, { passkeys: { enabled: true }, mfa_required: 'ALWAYS' }, base);
    assert.deepEqual(p.list, []);
    assert.equal(next.passkeys.rp_name, 'Shop');
    assert.equal(next.passkeys.enabled, true);
    assert.equal(next.mfa_required, 'always');
    const refused = validateAccount(new Problems(), { passkeys: { enabled: 'yes' } }, base);
    assert.deepEqual(refused, base);
    assert.equal(DEFAULT_ACCOUNT.passkeys.enabled, false);
  });
});

describe('the management API schemas derived from the settings schemas', () => {
  it("make every member optional, drop defaults and Ward's own keywords, keep the ranges", () => {
    const body = apiSchema(AccountSchema, { input: true, minProperties: 1 }) as unknown as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
      minProperties: number;
    };
    assert.equal(body.required, undefined);
    assert.equal(body.minProperties, 1);
    assert.deepEqual(body.properties.authorization_code_ttl, {
      type: 'integer',
      minimum: 1,
      maximum: 600,
      description: 'Lifetime of an authorization code, seconds (RFC 6749 4.1.2: at most 10 minutes).',
    });
    assert.deepEqual(body.properties.mfa_required!.enum, ['always', 'never', 'Always', 'Never']);
    const text = JSON.stringify(body);
    assert.ok(!text.includes('"x-') && !text.includes('"default"'), text.slice(0, 200));
  });
});

describe('the client schema', () => {
  it('fills the defaults that depend on the type', () => {
    const server = validateClient(new Problems(), 'c', {
      client_id: 'api',
      type: 'resource_server',
      client_secret: 'r'.repeat(40),
    });
    assert.deepEqual([server?.grant_types, server?.response_types, server?.name], [[], [], 'api']);
    const spa = validateClient(new Problems(), 'c', { client_id: 'spa' });
    assert.deepEqual(
      [spa?.type, spa?.pkce_enforced, spa?.grant_types],
      ['public', true, ['authorization_code', 'refresh_token']],
    );
    const p = new Problems();
    assert.equal(validateClient(p, 'c', { client_id: 'spa', pkce_enforced: false }), null);
    assert.deepEqual(p.list, ['c.pkce_enforced: a public client always needs PKCE (RFC 9700 section 2.1.1)']);
  });
});

describe('the server settings schema (environment and config file)', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('reads each variable as its schema types it, the file key under it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-cfg-'));
    const file = join(dir, 'ward.json');
    writeFileSync(file, JSON.stringify({ tls: false, port: 8080, demo_clients: false }));
    const c = loadConfig({ WARD_CONFIG: file, WARD_SHUTDOWN_TIMEOUT: '30', WARD_MODE: '' });
    assert.deepEqual([c.tls, c.port, c.demoClients, c.shutdownTimeoutSeconds], [false, 8080, false, 30]);
    assert.equal(c.issuer, 'http://localhost:8080');
    assert.equal(c.delivery.mode, 'development');
  });

  it('names the variable and what it allows', () => {
    assert.deepEqual(problems({ WARD_SHUTDOWN_TIMEOUT: '0' }), [
      'WARD_SHUTDOWN_TIMEOUT: must be an integer from 1 to 600, got 0',
    ]);
    assert.deepEqual(problems({ WARD_DEMO_CLIENTS: 'maybe' }), [
      'WARD_DEMO_CLIENTS: must be one of on, off, true, false, got "maybe"',
    ]);
    assert.deepEqual(problems({ WARD_METRICS_TOKEN: 'short' }), [
      'WARD_METRICS_TOKEN: must be a string of at least 16 characters, got "short"',
    ]);
    assert.deepEqual(problems({ WARD_SMS_URL: 'https://sms.example' }), [
      'WARD_SMS_URL: needs WARD_SMS_ACCOUNT_SID, WARD_SMS_AUTH_TOKEN and WARD_SMS_FROM too',
    ]);
  });
});

describe("the console's settings form", () => {
  it("takes each number field's bounds from the schema", () => {
    const bounds = (name: string) =>
      SETTINGS_BODY.toString()
        .match(new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]* min="(\\d+)" max="(\\d+)"`))
        ?.slice(1);
    assert.deepEqual(bounds('authorization_code_ttl'), ['1', '600']);
    assert.deepEqual(bounds('passkeys.challenge_ttl'), ['30', '600']);
    assert.deepEqual(bounds('rate_limits.login.limit'), ['1', '1000000000']);
    assert.deepEqual(bounds('verification_requests_per_user.limit'), ['0', '10000']);
  });
});

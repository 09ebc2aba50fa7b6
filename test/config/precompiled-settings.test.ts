// The settings' validators compiled ahead (src/config/schema/ahead.ts, Ajv standalone code, put in the
// bundle by scripts/build.mjs) answer as the ones compiled at run time do (src/, the tests): the same
// verdict, errors and defaults for valid and invalid values of each schema; and `npm run build`'s
// bundle holds one for each schema as src/ defines it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CHECKED_SCHEMAS, precompiledSettingsModule } from '../../src/config/schema/ahead.js';
import { schemaFingerprint, settingsAjv } from '../../src/config/schema/settings-ajv.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'precompiled-settings');

/** Values of each schema: valid, defaults to fill in, wrong types, unknown keys, x-check refusals. */
const VALUES: Record<string, unknown[]> = {
  server: [
    {},
    { WARD_PORT: 8080, WARD_ISSUER: 'https://id.example', WARD_TLS: 'off' },
    { WARD_PORT: 'abc', WARD_ISSUER: 'ftp://id.example', WARD_SURPRISE: 1 },
    { WARD_PORT: 70000, WARD_DATABASE_URL: 'mysql://x', WARD_SMTP_URL: 'smtp://' },
  ],
  account: [
    {},
    { mfa_required: 'yes', password_min_strength: 9, default_language: 42 },
    { custom_fields: [{ name: 1 }, { name: 'ok', type: 'nope' }], unknown_setting: true },
    { password_breach_check_url: 'https://range.example/x?y=1', passkeys: { rp_id: 'Not A Domain', origins: [7] } },
  ],
  client: [
    { client_id: 'app', name: 'App', type: 'public', allowed_callback_urls: ['https://app.example/cb'] },
    { client_id: 'app', name: 'App', type: 'public', allowed_callback_urls: ['http://evil.example/cb', 3] },
    { client_id: 5, type: 'neither', scope: 'openid  email', extra: null },
    {},
  ],
  social_provider: [{}, { type: 'oidc', issuer: 'http://idp.example' }, { type: 'nope', client_id: 3 }],
  webhook: [{}, { url: 'http://hooks.example/in', events: ['user.created', 'no.such'] }, { url: 'https://h.example' }],
};

/** What a caller sees of an error (check.ts reads these), the schema it names by content. */
const seen = (e: ErrorObject) => ({
  ...e,
  schema: JSON.stringify(e.schema),
  parentSchema: JSON.stringify(e.parentSchema),
});

let ahead: Map<string, ValidateFunction>;
let file: string;

describe('the settings validators compiled ahead', () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    file = join(ARTIFACTS, `validators-${process.pid}.mjs`);
    const checks = pathToFileURL(join(ROOT, 'src/config/schema/checks.ts')).href;
    writeFileSync(file, precompiledSettingsModule(checks));
    ahead = ((await import(pathToFileURL(file).href)) as { PRECOMPILED: Map<string, ValidateFunction> }).PRECOMPILED;
  });
  after(() => rmSync(file, { force: true }));

  it('cover every schema the settings are checked with, by fingerprint', () => {
    assert.deepEqual(Object.keys(VALUES).sort(), Object.keys(CHECKED_SCHEMAS).sort());
    for (const schema of Object.values(CHECKED_SCHEMAS)) assert.ok(ahead.has(schemaFingerprint(schema)));
  });

  for (const [name, values] of Object.entries(VALUES))
    it(`answer as the run-time ones for ${name} values`, () => {
      const schema = CHECKED_SCHEMAS[name]!;
      const now = settingsAjv().compile(schema);
      const early = ahead.get(schemaFingerprint(schema))!;
      const keywords = new Set<string>();
      for (const value of values) {
        const [a, b] = [structuredClone(value), structuredClone(value)];
        const verdict = early(a);
        assert.equal(verdict, now(b), JSON.stringify(value));
        assert.deepEqual(a, b, `defaults filled in the same: ${JSON.stringify(value)}`);
        assert.deepEqual((early.errors ?? []).map(seen), (now.errors ?? []).map(seen), JSON.stringify(value));
        for (const e of now.errors ?? []) keywords.add(e.keyword);
      }
      // The values reach the kinds of error check.ts words differently (the x-check rules included).
      assert.ok(keywords.has('type') || keywords.has('required'), [...keywords].join());
      if (JSON.stringify(schema).includes('"x-check"')) assert.ok(keywords.has('x-check'), [...keywords].join());
    });
});

describe("npm run build's bundle", () => {
  it('holds the validators compiled ahead of each schema src/ defines', () => {
    const out = join(ARTIFACTS, 'build');
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), out], { cwd: ROOT });
    try {
      const bundle = readFileSync(join(out, 'cli.js'), 'utf8');
      for (const [name, schema] of Object.entries(CHECKED_SCHEMAS))
        assert.ok(bundle.includes(JSON.stringify(schemaFingerprint(schema))), name);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

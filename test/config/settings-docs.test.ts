// The configuration reference is written from the settings schemas: the committed page must be what
// `npm run docs:settings` writes, and it documents every account setting with its range and default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULT_ACCOUNT } from '../../src/config/defaults.js';
import { settingsReference } from '../../src/config/schema/docs.js';

const committed = readFileSync(new URL('../../docs/configuration-reference.md', import.meta.url), 'utf8');

describe('docs/configuration-reference.md', () => {
  it('is what the schemas write (run `npm run docs:settings` after changing a setting)', () => {
    assert.equal(committed, settingsReference());
  });

  it('has a row for every account setting, with its range and default', () => {
    for (const key of Object.keys(DEFAULT_ACCOUNT))
      assert.match(committed, new RegExp(`^\\| \`${key}(\\.|\\[|\`)`, 'm'), key);
    assert.match(committed, /^\| `authorization_code_ttl` \| an integer from 1 to 600 \| `60` \|/m);
    assert.match(committed, /^\| `passkeys\.challenge_ttl` \| an integer from 30 to 600 \| `300` \|/m);
    assert.match(committed, /^\| `client_id` \| 1-128 characters of A-Z a-z 0-9 \. _ ~ - \| {2}\|/m);
  });
});

// The account's custom_fields setting: names, types, list values, who writes, and the rule that a
// required field is one the user may write; every problem named with its key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Problems, validateAccount } from '../../src/config/validate.js';
import { DEFAULT_ACCOUNT } from '../../src/config/defaults.js';

const check = (custom_fields: unknown) => {
  const p = new Problems();
  const out = validateAccount(p, { custom_fields }, DEFAULT_ACCOUNT);
  return { problems: p.list, fields: out.custom_fields };
};

describe('account.custom_fields', () => {
  it('keeps valid fields with their defaults (required false, writable user)', () => {
    const { problems, fields } = check([
      { name: 'loyalty_id', data_type: 'string', required: true },
      { name: 'tier', data_type: 'list', values: ['silver', 'gold'], writable: 'admin' },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(fields, [
      { name: 'loyalty_id', data_type: 'string', required: true, writable: 'user' },
      { name: 'tier', data_type: 'list', required: false, writable: 'admin', values: ['silver', 'gold'] },
    ]);
    assert.deepEqual(DEFAULT_ACCOUNT.custom_fields, []);
  });

  it('names every problem', () => {
    const { problems } = check([
      { name: 'Loyalty Id', data_type: 'string' },
      { name: 'a', data_type: 'colour' },
      { name: 'b', data_type: 'list' },
      { name: 'c', data_type: 'string', values: ['x'] },
      { name: 'd', data_type: 'string', required: true, writable: 'admin' },
      { name: 'e', data_type: 'string', label: 'E' },
      { name: 'f', data_type: 'integer' },
      { name: 'f', data_type: 'integer' },
      'g',
    ]);
    const keys = problems.map((p) => p.slice(0, p.indexOf(':')));
    assert.deepEqual(keys, [
      'account.custom_fields[0].name',
      'account.custom_fields[1].data_type',
      'account.custom_fields[2].values',
      'account.custom_fields[3].values',
      'account.custom_fields[4].required',
      'account.custom_fields[5].label',
      'account.custom_fields[7].name',
      'account.custom_fields[8]',
    ]);
    assert.match(check('x').problems[0]!, /must be an array/);
  });

  it('takes the Core SDK types with translations, and names their problems', () => {
    const ok = check([
      { name: 'balance', data_type: 'decimal', name_translations: [{ lang_code: 'fr', label: 'Solde' }] },
      { name: 'interests', data_type: 'tags' },
      { name: 'colours', data_type: 'tags', values: ['red'] },
      {
        name: 'tier',
        data_type: 'select',
        values: ['gold'],
        value_labels: [{ value: 'gold', label: 'Gold', translations: [{ lang_code: 'fr', label: 'Or' }] }],
      },
      { name: 'prefs', data_type: 'object' },
      { name: 'optin', data_type: 'checkbox' },
    ]);
    assert.deepEqual(ok.problems, []);
    const { problems } = check([
      { name: 'a', data_type: 'select' },
      { name: 'b', data_type: 'object', values: ['x'] },
      { name: 'c', data_type: 'select', values: ['x'], value_labels: [{ value: 'y', label: 'Y' }] },
      { name: 'd', data_type: 'string', name_translations: [{ lang_code: 'not a tag', label: 'D' }] },
      { name: 'e', data_type: 'string', name_translations: [{ lang_code: 'fr' }] },
    ]);
    const keys = problems.map((p) => p.slice(0, p.indexOf(':')));
    assert.deepEqual(keys, [
      'account.custom_fields[0].values',
      'account.custom_fields[1].values',
      'account.custom_fields[2].value_labels[0].value',
      'account.custom_fields[3].name_translations[0].lang_code',
      'account.custom_fields[4].name_translations[0].label',
    ]);
  });
});

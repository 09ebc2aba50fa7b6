// A hosted form posts every custom field as a string: each type's conversion before the profile
// validator, which names what is still not of its type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customFieldFromForm } from '../../src/accounts/custom-field-form.js';
import { checkCustomValue } from '../../src/accounts/profile.js';
import type { CustomFieldSetting } from '../../src/config/types.js';

const field = (data_type: CustomFieldSetting['data_type'], values?: string[]): CustomFieldSetting =>
  ({ name: 'f', data_type, required: false, writable: 'user', ...(values ? { values } : {}) }) as CustomFieldSetting;

describe('custom fields from a hosted form', () => {
  it('converts each type, and leaves what is not of its type for the validator', () => {
    const cases: Array<[CustomFieldSetting, string, unknown, boolean]> = [
      [field('decimal'), ' 12.50 ', 12.5, true],
      [field('decimal'), '12,5', '12,5', false],
      [field('checkbox'), 'true', true, true],
      [field('tags', ['a', 'b']), 'a, b,', ['a', 'b'], true],
      [field('tags', ['a']), 'a, z', ['a', 'z'], false],
      [field('object'), '{"size": 38}', { size: 38 }, true],
      [field('object'), '[1]', [1], false],
      [field('object'), '{oops', '{oops', false],
      [field('select', ['gold']), 'gold', 'gold', true],
    ];
    for (const [f, posted, converted, valid] of cases) {
      const v = customFieldFromForm(f, posted);
      assert.deepEqual(v, converted, `${f.data_type} ${posted}`);
      assert.equal(checkCustomValue(f, v).ok, valid, `${f.data_type} ${posted}`);
    }
  });
});

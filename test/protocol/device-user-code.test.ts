// RFC 8628 6.1: a typed user code is normalised (case, spaces, dashes of every kind a keyboard or a
// phone's autocorrect makes, dots, underscores) before it is compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newUserCode, normaliseUserCode } from '../../src/protocol/device/user-code.js';

describe('device user code', () => {
  it('is read whatever the separators and case', () => {
    const shown = newUserCode();
    const plain = shown.replace('-', '');
    for (const sep of ['-', ' ', '\u2013', '\u2014', '.', '_', ''])
      assert.equal(normaliseUserCode(shown.replace('-', sep).toLowerCase()), plain, JSON.stringify(sep));
  });

  it('is refused when it cannot be one', () => {
    assert.equal(normaliseUserCode('BCDF/GHJK'), null);
    assert.equal(normaliseUserCode('AEIO-UBCD'), null);
    assert.equal(normaliseUserCode('B'.repeat(41)), null);
    assert.equal(normaliseUserCode(42), null);
  });
});

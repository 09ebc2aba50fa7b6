// A request a route's schema refuses is the catalog's invalid_request with error_details: one mapping of
// Ajv's errors (src/http/validation.ts) for the error handler and the management API alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { validationRefusal } from '../../src/http/validation.js';

const ajv = new Ajv({ removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true });
const schema = Type.Object(
  { name: Type.String({ maxLength: 5 }), nested: Type.Optional(Type.Object({ n: Type.Integer() })) },
  { additionalProperties: false },
);
const validate = ajv.compile(schema);
const refusalOf = (data: unknown) => {
  assert.equal(validate(data), false);
  return validationRefusal(validate.errors ?? []);
};

describe('schema refusals', () => {
  it('names a missing field as missing and a wrong one as invalid, with a dotted path', () => {
    const e = refusalOf({ nested: { n: 'x' } });
    assert.equal(e.status, 400);
    assert.equal(e.error, 'invalid_request');
    assert.deepEqual(e.details, [
      { field: 'name', message: "must have required property 'name'", code: 'missing' },
      { field: 'nested.n', message: 'must be integer', code: 'invalid' },
    ]);
    assert.match(String(e.body().error_description), /^Invalid request: name must have required property/);
  });

  it('refuses an unknown field by its name', () => {
    const e = refusalOf({ name: 'ok', extra: 1 });
    assert.deepEqual(e.details, [{ field: 'extra', message: 'is not an allowed field', code: 'invalid' }]);
  });

  it('names the body when the whole value is wrong', () => {
    const e = refusalOf([]);
    assert.deepEqual(e.details, [{ field: 'body', message: 'must be object', code: 'invalid' }]);
  });
});

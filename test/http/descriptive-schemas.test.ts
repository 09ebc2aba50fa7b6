// The protocol routes' describing-only schemas are not compiled by Ajv (whose strictTypes check warns
// on every one of them, `properties` without `type`), and accept what the route's own checks refuse
// with the catalog's error; a schema with any constraint is still compiled and enforced.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import {
  fastifyValidatorFactory,
  skipDescriptiveSchemas,
  validatesNothing,
} from '../../src/http/descriptive-schemas.js';
import { protocolParams } from '../../src/http/protocol-schema.js';

const params = protocolParams({ client_id: 'string: the client', scope: 'string: scopes' });
const route = (schema: unknown) => ({ schema, method: 'POST', url: '/x', httpPart: 'body' });
const ajvOptions = { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } };

function warningsOf(run: () => void): string[] {
  const seen: string[] = [];
  const warn = console.warn;
  console.warn = (...a: unknown[]) => void seen.push(a.map(String).join(' '));
  try {
    run();
  } finally {
    console.warn = warn;
  }
  return seen;
}

describe('describing-only schemas', () => {
  it('tells a describing-only schema from one that constrains', () => {
    assert.equal(validatesNothing(params), true);
    assert.equal(validatesNothing(Type.Object({ a: Type.String() })), false);
    assert.equal(validatesNothing({ properties: { a: { type: 'string' } }, additionalProperties: true }), false);
    assert.equal(validatesNothing({ properties: {}, additionalProperties: false }), false);
    assert.equal(validatesNothing({ properties: {}, additionalProperties: true, required: ['a'] }), false);
    assert.equal(validatesNothing(undefined), false);
  });

  it('accepts anything without Ajv (and without its warning); constraints still apply', () => {
    const build = skipDescriptiveSchemas(fastifyValidatorFactory())({}, ajvOptions);
    const warnings = warningsOf(() => {
      const validate = build(route(params));
      for (const body of [undefined, null, 'text', [1], { client_id: ['a', 'b'] }]) assert.equal(validate(body), true);
    });
    assert.deepEqual(warnings, []);
    const strict = build(route(Type.Object({ a: Type.String() }, { additionalProperties: false })));
    assert.equal(strict({ a: 'x' }), true);
    assert.equal(strict({ a: 1 }), false);
    assert.equal(strict({ a: 'x', b: 1 }), false);
  });

  it('Ajv alone warns on the same schema (what the wrapper spares)', () => {
    const warnings = warningsOf(() => fastifyValidatorFactory()({}, ajvOptions)(route(params)));
    assert.ok(
      warnings.some((w) => w.includes('strict mode')),
      warnings.join('\n'),
    );
  });
});

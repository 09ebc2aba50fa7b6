// The Ajv instance the settings are checked with (check.ts), and what compiles them ahead at build
// time (ahead.ts) with the same options and keywords.
import { createHash } from 'node:crypto';
import { _, Ajv, type CodeKeywordDefinition } from 'ajv';
import type { TSchema } from 'typebox';
import { CHECKS } from './checks.js';

/**
 * `x-check`: a string the rule of that name (checks.ts) refuses is an error whose message is the
 * rule's reason. Written as code, so that a validator compiled ahead (standalone) calls the rule too:
 * it names CHECKS, which the compiled module imports.
 */
const X_CHECK: CodeKeywordDefinition = {
  keyword: 'x-check',
  type: 'string',
  schemaType: 'string',
  code(cxt) {
    const checks = cxt.gen.scopeValue('obj', { ref: CHECKS, code: _`CHECKS` });
    const problem = cxt.gen.const('problem', _`${checks}[${cxt.schema as string}].problem(${cxt.data})`);
    cxt.setParams({ problem });
    cxt.fail(_`${problem} !== null`);
  },
  error: { message: ({ params }) => _`${params.problem}`, params: () => _`{}` },
};

/**
 * Every problem (allErrors) with the value and schema it is about (verbose), defaults filled in.
 * Without Ajv's code optimisation pass at run time: each validator is compiled once and run once or
 * twice per start, so the pass cost more than it saved. `ahead`: keeps each validator's source, for
 * Ajv's standalone code (optimised then: that costs the build, not a start).
 */
export function settingsAjv(ahead = false): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    useDefaults: true,
    strict: true,
    code: ahead ? { source: true, esm: true } : { optimize: false },
  });
  ajv.addKeyword({ keyword: 'x-allowed', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-any-case', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-file', schemaType: 'string' });
  ajv.addKeyword(X_CHECK);
  return ajv;
}

/** What a validator compiled ahead is found by: the schema's JSON, hashed (any change is another schema). */
export const schemaFingerprint = (schema: TSchema): string =>
  createHash('sha256').update(JSON.stringify(schema)).digest('base64url');

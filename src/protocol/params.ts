import { invalidRequest, missingField } from '../errors/refusals.js';

/** A request's flat parameters: every value a string (or JSON value), never an array from repetition. */
export type Params = Record<string, unknown>;

/**
 * Flattens a query or a form body. A parameter sent more than once is refused
 * (RFC 6749 section 3.1: "MUST NOT be included more than once"). JSON bodies pass as they are.
 */
export function singleValued(input: unknown, isJson = false): { params: Params; duplicates: string[] } {
  const params: Params = {};
  const duplicates: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { params, duplicates };
  for (const [k, v] of Object.entries(input)) {
    if (!isJson && Array.isArray(v)) duplicates.push(k);
    else params[k] = v;
  }
  return { params, duplicates };
}

export function requireSingle(input: unknown, isJson = false): Params {
  const { params, duplicates } = singleValued(input, isJson);
  if (duplicates.length) throw invalidRequest(`Parameters sent more than once: ${duplicates.join(', ')}`);
  return params;
}

/** A string parameter, or undefined; anything else is refused. */
export function str(params: Params, name: string, max = 2048): string | undefined {
  const v = params[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string')
    throw invalidRequest(`${name} must be a string`, [{ field: name, message: 'must be a string', code: 'invalid' }]);
  if (v.length > max)
    throw invalidRequest(`${name} is too long`, [
      { field: name, message: `must be at most ${max} characters`, code: 'invalid' },
    ]);
  return v;
}

export function requiredStr(params: Params, name: string, max = 2048): string {
  const v = str(params, name, max);
  if (v === undefined) throw missingField(name);
  return v;
}

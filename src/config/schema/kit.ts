import { type TObject, type TProperties, type TSchema, type TUnsafe, Type } from 'typebox';
import { nullable, stringEnum } from '../../lib/json-schema.js';
import type { CheckName } from './checks.js';

/**
 * Builders for settings: each one carries the value's type, range, default and a one-line description,
 * so the types, the defaults, the validation, the management API and the reference docs all read it.
 * Ward's own annotations (`x-` keywords) are dropped from the API schemas (schema/api.ts):
 * - `x-allowed`: what is allowed, in words, when the JSON Schema keywords say it poorly (a pattern);
 * - `x-check`: a named check (schema/checks.ts) whose message says what is wrong;
 * - `x-any-case`: the input may be written in any letter case (it is stored in lower case);
 * - `x-file`: the config file's key an environment variable overrides.
 */
export type Annotations = {
  description: string;
  default?: unknown;
  'x-allowed'?: string;
  'x-check'?: CheckName;
  'x-any-case'?: boolean;
};

/** Ten years: the longest lifetime a setting in seconds may have. */
export const TEN_YEARS = 10 * 365 * 24 * 3600;

const withDefault = (description: string, value: unknown): Annotations =>
  value === undefined ? { description } : { description, default: value };

/** An integer from `min` to `max`. */
export const int = (min: number, max: number, description: string, value?: number) =>
  Type.Integer({ minimum: min, maximum: max, ...withDefault(description, value) });

/** A lifetime in seconds, from 1 to ten years unless told. */
export const seconds = (value: number, description: string, max = TEN_YEARS, min = 1) =>
  int(min, max, description, value);

/** An integer among `values` (typed as their union). */
export const intIn = <const T extends readonly number[]>(values: T, value: T[number], description: string) =>
  Type.Unsafe<T[number]>(
    Type.Integer({ minimum: Math.min(...values), maximum: Math.max(...values), ...withDefault(description, value) }),
  );

export const flag = (value: boolean | undefined, description: string) => Type.Boolean(withDefault(description, value));

/** A string among `values`. */
export const oneOf = <const T extends readonly string[]>(
  values: T,
  value: T[number] | undefined,
  description: string,
  extra: Partial<Annotations> = {},
): TUnsafe<T[number]> => stringEnum(values, { ...withDefault(description, value), ...extra });

/** A string, with its limits and, where words say it better, a named check or an `allowed` phrase. */
export const text = (
  description: string,
  options: { max?: number; min?: number; pattern?: string; allowed?: string; check?: CheckName; value?: string } = {},
) =>
  Type.String({
    ...(options.min === undefined ? {} : { minLength: options.min }),
    ...(options.max === undefined ? {} : { maxLength: options.max }),
    ...(options.pattern === undefined ? {} : { pattern: options.pattern }),
    ...(options.allowed === undefined ? {} : { 'x-allowed': options.allowed }),
    ...(options.check === undefined ? {} : { 'x-check': options.check }),
    ...withDefault(description, options.value),
  });

/** A value or null (null is the default unless told). */
export const orNull = <T extends TSchema>(schema: T, value: unknown = null) => {
  const out = nullable(schema) as TSchema & { default?: unknown };
  if (value !== undefined) out.default = value;
  return out as ReturnType<typeof nullable<T>>;
};

/** A list of at most `max` items (empty by default unless told). */
export const list = <T extends TSchema>(
  items: T,
  max: number,
  description: string,
  options: { value?: unknown[] | null; unique?: boolean; min?: number } = {},
) =>
  Type.Array(items, {
    maxItems: max,
    ...(options.min === undefined ? {} : { minItems: options.min }),
    ...(options.unique ? { uniqueItems: true } : {}),
    ...withDefault(description, options.value === null ? undefined : (options.value ?? [])),
  });

/**
 * A group of settings: no other key allowed. Its default is made of its members' defaults. `needed`:
 * the members an input must give when not all of them (the others have defaults Ajv fills in).
 */
export function group<P extends TProperties>(
  properties: P,
  description: string,
  needed?: (keyof P & string)[],
): TObject<P> {
  const schema = Type.Object(properties, { additionalProperties: false, description });
  if (needed) (schema as { required?: string[] }).required = needed;
  return schema;
}

/** The default value a schema describes: its own `default`, else (an object) its members' defaults. */
export function defaultsOf<T>(schema: TSchema): T {
  const s = schema as { default?: unknown; type?: unknown; properties?: Record<string, TSchema> };
  if (s.default !== undefined) return structuredClone(s.default) as T;
  if (s.type !== 'object' || !s.properties) return undefined as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s.properties)) {
    const d = defaultsOf(v);
    if (d !== undefined) out[k] = d;
  }
  return out as T;
}

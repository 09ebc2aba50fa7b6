import type { ErrorObject, ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';
import { CHECKS, type CheckName } from './checks.js';
import { PRECOMPILED } from './precompiled.js';
import { schemaFingerprint, settingsAjv } from './settings-ajv.js';

/** Collects every problem of a config, each naming its key and what is allowed. */
export class Problems {
  readonly list: string[] = [];
  /** The same problems by key (an API answer's error_details). */
  readonly items: Array<{ key: string; message: string }> = [];
  add(key: string, message: string): void {
    this.list.push(`${key}: ${message}`);
    this.items.push({ key, message });
  }
}

/** Where problems go: `Problems`, or any collector with the same `add`. */
export type ProblemSink = Pick<Problems, 'add'>;

type Node = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  items?: Node;
  properties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
  'x-allowed'?: string;
  'x-check'?: CheckName;
  'x-any-case'?: boolean;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a schema allows, in words: the start-up messages and the reference docs both say it. */
export function allowedOf(schema: TSchema): string {
  const s = schema as Node;
  if (s['x-allowed']) return s['x-allowed'];
  if (Array.isArray(s.type)) {
    const other = s.type.filter((t) => t !== 'null');
    const values = s.enum?.filter((v) => v !== null);
    return `${allowedOf({ ...s, type: other.length === 1 ? other[0] : other, enum: values } as TSchema)} or null`;
  }
  if (s.enum) {
    const values = s.enum.map(String);
    return values.length <= 3
      ? values
          .map((v) => JSON.stringify(v))
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1')
      : `one of ${values.join(', ')}`;
  }
  if (s['x-check']) return CHECKS[s['x-check']].allowed + (s.maxLength ? ` (at most ${s.maxLength} characters)` : '');
  switch (s.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
      if (s.minimum !== undefined && s.maximum !== undefined) return `an integer from ${s.minimum} to ${s.maximum}`;
      return s.minimum !== undefined ? `an integer of at least ${s.minimum}` : 'an integer';
    case 'string':
      if (s.pattern) return `a string matching ${s.pattern}`;
      if (s.minLength && s.maxLength) return `a string of ${s.minLength} to ${s.maxLength} characters`;
      if (s.minLength && s.minLength > 1) return `a string of at least ${s.minLength} characters`;
      return s.maxLength ? `a string of at most ${s.maxLength} characters` : 'a string';
    case 'array': {
      const each = s.items ? ` (each ${allowedOf(s.items as TSchema)})` : '';
      return s.maxItems === undefined ? `an array${each}` : `an array of at most ${s.maxItems}${each}`;
    }
    case 'object':
      if (s.properties) return `an object {${Object.keys(s.properties).join(', ')}}`;
      return isObject(s.additionalProperties)
        ? `an object of ${allowedOf(s.additionalProperties as TSchema)}`
        : 'an object';
    default:
      return 'a value';
  }
}

let ajv: ReturnType<typeof settingsAjv> | undefined;
const compiled = new WeakMap<TSchema, ValidateFunction>();
/** The schema's validator: compiled ahead by the build (precompiled.ts), else now, once. */
const validatorOf = (schema: TSchema): ValidateFunction => {
  let fn = compiled.get(schema);
  if (!fn) {
    const ahead = PRECOMPILED.size ? PRECOMPILED.get(schemaFingerprint(schema)) : undefined;
    compiled.set(schema, (fn = ahead ?? (ajv ??= settingsAjv()).compile(schema)));
  }
  return fn;
};

/** What a value of the wrong type should have been: a URL, an integer from 1 to 600, ... (or null). */
function kindOf(schema: Node): string {
  if (Array.isArray(schema.type)) {
    const other = schema.type.filter((t) => t !== 'null');
    return `${kindOf({ ...schema, type: other.length === 1 ? other[0] : other })} or null`;
  }
  return schema['x-check'] ? CHECKS[schema['x-check']].noun : allowedOf(schema as TSchema);
}

/** A value as a message shows it: JSON, cut short. */
const show = (v: unknown): string => {
  const json = v === undefined ? 'nothing' : JSON.stringify(v);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
};

/** `/custom_fields/0/name` under `account` is `account.custom_fields[0].name`. */
const keyOf = (key: string, pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), key);

/** One of Ajv's errors as a problem in Ward's words: the key, then what is wrong and what is allowed. */
function problemOf(key: string, e: ErrorObject): [string, string] {
  const at = keyOf(key, e.instancePath);
  const parent = e.parentSchema as Node;
  if (e.keyword === 'additionalProperties') {
    const allowed = Object.keys(parent.properties ?? {}).join(', ');
    return [
      `${at}.${(e.params as { additionalProperty: string }).additionalProperty}`,
      `unknown key (allowed: ${allowed})`,
    ];
  }
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const schema = parent.properties?.[missing];
    return [`${at}.${missing}`, `is required: ${schema ? allowedOf(schema as TSchema) : 'a value'}`];
  }
  // An item of a list is named by its value.
  const item = /\/\d+$/.test(e.instancePath);
  if (e.keyword === 'x-check') return [at, item ? `${show(e.data)} ${e.message}` : (e.message ?? '')];
  if (e.keyword === 'enum' && item) return [at, `${show(e.data)} is not one of ${(parent.enum ?? []).join(', ')}`];
  if (e.keyword === 'type') return [at, `must be ${kindOf(parent)}, got ${show(e.data)}`];
  return [at, `must be ${allowedOf(parent as TSchema)}, got ${show(e.data)}`];
}

/** The array indices of a key, for ordering problems item by item (`a[2].b[0]` is [2, 0]). */
const indices = (key: string): number[] => [...key.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
function byItem(a: string, b: string): number {
  const x = indices(a);
  const y = indices(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** Lower-cases the strings the schema takes in any letter case (`x-any-case`). */
function lowerCase(schema: Node, value: unknown): unknown {
  if (schema['x-any-case'] && typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value) && schema.items) return value.map((v) => lowerCase(schema.items!, v));
  if (isObject(value) && schema.properties)
    for (const [k, sub] of Object.entries(schema.properties)) if (k in value) value[k] = lowerCase(sub, value[k]);
  return value;
}

/** `patch` over `base`: objects merge key by key (an undefined value changes nothing), anything else replaces. */
export function mergeOver(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return structuredClone(base);
  if (!isObject(base) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = structuredClone(base);
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) out[k] = mergeOver(base[k], v);
  return out;
}

/** A rule relating several fields: it reports through `add(path, message)`, paths under the checked key. */
export type Rule<T> = (value: T, add: (path: string, message: string) => void) => void;

/**
 * Checks `value` against `schema`, then (whatever the schema said) the rules relating several fields.
 * Every problem is added under `key`, item by item; the value with the schema's defaults filled in
 * comes back when there is none, else null.
 */
export function checkValue<T>(
  p: ProblemSink,
  key: string,
  schema: TSchema,
  value: unknown,
  rules: Rule<T>[] = [],
): T | null {
  const data = lowerCase(schema as Node, structuredClone(value)) as T;
  const validate = validatorOf(schema);
  const found: Array<[string, string]> = [];
  const seen = new Set<string>();
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      const [at, message] = problemOf(key, e);
      // One problem per key, except unknown keys (each is its own key).
      if (seen.has(at)) continue;
      seen.add(at);
      found.push([at, message]);
    }
  }
  // Under no key (the environment), a rule's `.NAME` is `NAME`.
  for (const rule of rules) rule(data, (path, message) => found.push([`${key}${path}`.replace(/^\./, ''), message]));
  found.sort(([a], [b]) => byItem(a, b));
  for (const [at, message] of found) p.add(at, message);
  return found.length ? null : data;
}

/** Reports each key of `obj` that is not among `allowed` (the config file's top level). */
export function checkKnownKeys(
  p: ProblemSink,
  key: string,
  obj: Record<string, unknown>,
  allowed: readonly string[],
): void {
  for (const k of Object.keys(obj))
    if (!allowed.includes(k)) p.add(`${key}.${k}`, `unknown key (allowed: ${allowed.join(', ')})`);
}

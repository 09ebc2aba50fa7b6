import { type Static, type TObject, type TProperties, type TSchema, type TUnsafe, Type } from 'typebox';

/**
 * The management API's schemas, derived from a settings schema: every member optional at every depth
 * (a request changes some keys, an answer need not list all), no defaults (the API applies none and
 * the serializer must not invent values), none of Ward's own `x-` keywords (Fastify's Ajv is strict).
 */
type Json = Record<string, unknown>;

/** `always` and `Always` both: the API took the capitalised spelling of an any-case value before. */
const capitalised = (values: unknown[]) => [
  ...values,
  ...values.map((v) => (typeof v === 'string' ? v.charAt(0).toUpperCase() + v.slice(1) : v)),
];

function open(node: unknown, input: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => open(n, input));
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'default' || k === 'required' || k.startsWith('x-')) continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, open(s, input)]))
        : open(v, input);
  }
  const s = node as Json;
  if (input && s['x-any-case'] && Array.isArray(s.enum)) out.enum = capitalised(s.enum);
  return out;
}

export interface ApiShape {
  /** Members left out (e.g. a secret an answer never shows, a key a change cannot make). */
  omit?: string[];
  /** Members the API adds (timestamps, a key's mode). */
  extra?: TProperties;
  /** Members a request must give. */
  needed?: string[];
  /** A request (any-case spellings accepted), else an answer. */
  input?: boolean;
  minProperties?: number;
}

/** The API's schema of a settings group (typed as the group's members, all optional but the needed ones). */
export function apiSchema<T extends TObject, K extends keyof Static<T> & string = never>(
  schema: T,
  shape: ApiShape & { needed?: K[] } = {},
): TUnsafe<Partial<Static<T>> & Pick<Static<T>, K>> {
  const opened = open(schema, shape.input ?? false) as Json & { properties: Json };
  for (const k of shape.omit ?? []) delete opened.properties[k];
  Object.assign(opened.properties, open(shape.extra ?? {}, false));
  return Type.Unsafe<Partial<Static<T>> & Pick<Static<T>, K>>({
    ...opened,
    ...(shape.needed ? { required: shape.needed } : {}),
    ...(shape.minProperties ? { minProperties: shape.minProperties } : {}),
  } as TSchema);
}

import {
  type Static,
  type TObject,
  type TObjectOptions,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
  Type,
} from 'typebox';

/**
 * TypeBox builders for what Ward's route schemas say in plain JSON Schema (so the documents and
 * Ajv's messages stay as they were): a string among values (`enum`, not TypeBox's `anyOf` of
 * literals), a nullable value (`type: [t, 'null']`), any object, an object whose fields are all optional.
 */
export const stringEnum = <const T extends readonly string[]>(values: T, options: object = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const { type, ...rest } = schema as { type?: unknown };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
};

export const anyObject = (options: object = {}): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options });

/** Type.Object with every property optional (TypeBox's Partial drops the object's options). */
export function partialObject<P extends TProperties>(
  properties: P,
  options?: TObjectOptions,
): TObject<{ [K in keyof P]: TOptional<P[K]> }> {
  const optional = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v as TSchema)]));
  return Type.Object(optional, options) as never;
}

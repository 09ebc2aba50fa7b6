// The protocol routes' parameter schemas (http/protocol-schema.ts) name and describe each parameter
// for the OpenAPI document and validate nothing: the protocol's own checks answer the exact catalog
// error. Compiled by Ajv they still cost a compile each and draw its strictTypes warning (`properties`
// with no `type`, on purpose: an absent body must pass). This wraps Fastify's validator factory so a
// schema that only describes gets the validator it amounts to, one that accepts everything.
import { createRequire } from 'node:module';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type RouteSchema = { schema: unknown; method: string; url: string; httpPart?: string };
export type BuildValidator = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Validate;

const DESCRIBING = new Set(['properties', 'additionalProperties', 'description', 'title']);

/** Whether a schema only lists and describes properties: no type, no constraint, every field allowed. */
export function validatesNothing(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Record<string, unknown>;
  if (s.additionalProperties !== true || !Object.keys(s).every((k) => DESCRIBING.has(k))) return false;
  const properties = s.properties ?? {};
  if (typeof properties !== 'object' || properties === null) return false;
  return Object.values(properties).every(
    (p) => !!p && typeof p === 'object' && Object.keys(p).every((k) => k === 'description' || k === 'title'),
  );
}

const acceptAll: Validate = () => true;

/** Fastify's own validator factory (@fastify/ajv-compiler), what it uses when none is given. */
export const fastifyValidatorFactory = (): BuildValidator =>
  (createRequire(import.meta.url)('@fastify/ajv-compiler') as () => BuildValidator)();

/** `factory`, except that a schema which validates nothing is never handed to it. */
export function skipDescriptiveSchemas(factory: BuildValidator): BuildValidator {
  return (externalSchemas, options) => {
    let compile: ((route: RouteSchema) => Validate) | undefined;
    return (route) =>
      validatesNothing(route.schema) ? acceptAll : (compile ??= factory(externalSchemas, options))(route);
  };
}

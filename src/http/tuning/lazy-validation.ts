// Speed-up `lazy_validation` (docs/performance.md; plain path: Fastify's own validator compiler).
// Fastify compiles every route's JSON schema with Ajv at start-up (a sixth of Ward's cold start,
// most of it for management routes an instance may never serve). This validator factory is Fastify's
// own (@fastify/ajv-compiler, same options), made lazy: Ajv is loaded and built, and a route's
// schema compiled, on the first request that needs it. Validation itself is unchanged.
import { createRequire } from 'node:module';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type RouteSchema = { schema: unknown; method: string; url: string; httpPart?: string };
type BuildValidator = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Validate;

export function lazyValidatorFactory(): BuildValidator {
  let base: BuildValidator | undefined;
  const load = () =>
    (base ??= (
      createRequire(import.meta.url)('@fastify/ajv-compiler') as { AjvCompiler: () => BuildValidator }
    ).AjvCompiler());
  return (externalSchemas, options) => {
    let compiler: ((route: RouteSchema) => Validate) | undefined;
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => {
        validate ??= (compiler ??= load()(externalSchemas, options))(route);
        const ok = validate(data);
        lazy.errors = validate.errors;
        return ok;
      };
      return lazy;
    };
  };
}

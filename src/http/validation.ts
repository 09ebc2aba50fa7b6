import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { WardError, type FieldError } from '../errors/ward-error.js';

type AjvError = Pick<FastifySchemaValidationError, 'instancePath' | 'message' | 'params' | 'keyword'>;

/** Ajv's errors as the contract's error_details: the field (dotted path), what is wrong, missing or invalid. */
export const detailsOf = (errors: readonly Partial<AjvError>[]): FieldError[] =>
  errors.map((e) => {
    const field =
      [
        e.instancePath?.replace(/^\//, '').replace(/\//g, '.'),
        e.params?.additionalProperty ?? e.params?.missingProperty,
      ]
        .filter(Boolean)
        .join('.') || 'body';
    return {
      field: String(field),
      message: e.keyword === 'additionalProperties' ? 'is not an allowed field' : (e.message ?? 'is invalid'),
      code: e.keyword === 'required' ? 'missing' : 'invalid',
    };
  });

/** A request its route's schema refused: the catalog's invalid_request (400) with the fields in error_details. */
export function validationRefusal(errors: readonly Partial<AjvError>[]): WardError {
  const details = detailsOf(errors);
  const description = `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`;
  return new WardError('invalidRequest', { description: description.slice(0, 500), details });
}

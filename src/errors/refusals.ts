import { type FieldError, WardError } from './ward-error.js';

// Shorthands for the refusals thrown most often; each builds from its catalog entry.

export const invalidRequest = (description: string, details?: FieldError[]) =>
  new WardError('invalidRequest', { description, details });

export const missingField = (field: string) =>
  new WardError('missingParameter', {
    description: `${field} is required`,
    details: [{ field, message: `${field} is required`, code: 'missing' }],
  });

export const invalidField = (field: string, message: string) =>
  new WardError('invalidParameter', {
    description: `${field} ${message}`,
    details: [{ field, message, code: 'invalid' }],
  });

export const invalidGrant = (description: string) => new WardError('invalidGrant', { description });

export const invalidClient = (description?: string, basic = false) =>
  new WardError('invalidClient', {
    description,
    headers: basic ? { 'WWW-Authenticate': 'Basic realm="ward", charset="UTF-8"' } : {},
  });

export const unauthorizedClient = (description: string) => new WardError('unauthorizedClient', { description });

export const invalidScope = (description: string) => new WardError('invalidScope', { description });

/** RFC 6750 3.1: `error="invalid_token"` in the challenge, except when no credentials were sent (`challenge` false). */
export const invalidToken = (description?: string, challenge = true) =>
  new WardError('invalidToken', {
    description,
    headers: { 'WWW-Authenticate': challenge ? 'Bearer realm="ward", error="invalid_token"' : 'Bearer realm="ward"' },
  });

export const forbidden = (description: string) => new WardError('forbidden', { description });

export const notFound = (description?: string) => new WardError('notFound', { description });

export const rateLimited = (retryAfterSeconds: number) =>
  new WardError('rateLimited', { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/**
 * The one error shape of every API response (identity-api.md, "Transport rules"):
 * {error, error_description, error_user_msg, error_message_key, error_id?, error_details?}.
 * `error` is an OAuth code where one fits; `error_message_key` is always present.
 */
export interface FieldError {
  field: string;
  message: string;
  code: 'missing' | 'invalid';
}

export interface ApiErrorOptions {
  userMsg?: string;
  details?: FieldError[];
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly userMsg: string;
  readonly details?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly messageKey: string,
    opts: ApiErrorOptions = {},
  ) {
    super(description);
    this.userMsg = opts.userMsg ?? description;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
  }

  body(errorId?: string): Record<string, unknown> {
    return {
      error: this.error,
      error_description: this.description,
      error_user_msg: this.userMsg,
      error_message_key: this.messageKey,
      ...(errorId ? { error_id: errorId } : {}),
      ...(this.details ? { error_details: this.details } : {}),
    };
  }
}

export const invalidRequest = (description: string, details?: FieldError[], messageKey = 'error.invalidRequest') =>
  new ApiError(400, 'invalid_request', description, messageKey, { details });

export const missingField = (field: string) =>
  invalidRequest(
    `${field} is required`,
    [{ field, message: `${field} is required`, code: 'missing' }],
    'error.missingParameter',
  );

export const invalidField = (field: string, message: string) =>
  invalidRequest(`${field} ${message}`, [{ field, message, code: 'invalid' }], 'error.invalidParameter');

export const invalidGrant = (description: string, messageKey = 'error.invalidGrant') =>
  new ApiError(400, 'invalid_grant', description, messageKey);

export const invalidClient = (description: string, basic = false) =>
  new ApiError(401, 'invalid_client', description, 'error.invalidClient', {
    headers: basic ? { 'WWW-Authenticate': 'Basic realm="ward", charset="UTF-8"' } : {},
  });

export const unauthorizedClient = (description: string) =>
  new ApiError(400, 'unauthorized_client', description, 'error.unauthorizedClient');

export const invalidScope = (description: string) =>
  new ApiError(400, 'invalid_scope', description, 'error.invalidScope');

export const invalidToken = (description = 'The access token is missing, invalid, expired or revoked') =>
  new ApiError(401, 'invalid_token', description, 'error.invalidToken', {
    headers: { 'WWW-Authenticate': 'Bearer realm="ward", error="invalid_token"' },
  });

export const forbidden = (description: string, messageKey = 'error.forbidden') =>
  new ApiError(403, 'access_denied', description, messageKey);

export const notFound = (description = 'Not found') => new ApiError(404, 'not_found', description, 'error.notFound');

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limit_reached', 'Too many requests, retry later', 'error.rateLimitReached', {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/**
 * Nothing wrong with the request, but it cannot be served now: the database is unreachable, or the
 * process is shutting down. The caller may send it again after `Retry-After` seconds.
 */
export const serviceUnavailable = (
  error: 'server_error' | 'temporarily_unavailable',
  description: string,
  retryAfterSeconds: number,
) =>
  new ApiError(503, error, description, 'error.serviceUnavailable', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

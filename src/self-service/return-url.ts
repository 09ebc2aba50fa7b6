import { invalidField } from '../errors/refusals.js';
import { isRegisteredRedirectUri } from '../protocol/authorize/check-redirect-uri.js';

/**
 * Where a self-service link may send the browser afterwards: one of the client's Allowed Callback
 * URLs, as an exact string (the rule of redirect_uri). Absent: undefined; anything else is a 400 that
 * names the field, never an open redirect.
 */
export function allowedReturnUrl(
  client: { allowed_callback_urls: readonly string[] } | undefined,
  field: string,
  value: unknown,
): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!client || !isRegisteredRedirectUri(client.allowed_callback_urls, value))
    throw invalidField(field, "must be one of the client's Allowed Callback URLs");
  return value;
}

/** `url` with `params` added to its query. */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

import type { ResourceRequest } from '../protocol/bearer.js';

/** The parts of a request an API call's credentials are read from. */
interface RequestParts {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
}

/** What an API call presents to bearer.ts: its Authorization header, and for DPoP its proof, method and path. */
export function resourceRequest(
  req: RequestParts,
  authorization = req.headers.authorization as string | undefined,
): ResourceRequest {
  return { authorization, dpop: req.headers.dpop, method: req.method, path: req.url };
}

/**
 * The Authorization header of a userinfo request, or the access token of its form-encoded POST body
 * as a Bearer credential when no header carries one (RFC 6750 2.2, OIDC Core 5.3.1).
 */
export function headerOrBodyToken(req: RequestParts & { body?: unknown }): string | undefined {
  const header = req.headers.authorization as string | undefined;
  if (header !== undefined || req.method !== 'POST') return header;
  const type = (req.headers['content-type'] as string | undefined)?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const token = (req.body as Record<string, unknown> | undefined)?.access_token;
  return typeof token === 'string' && token !== '' ? `Bearer ${token}` : undefined;
}

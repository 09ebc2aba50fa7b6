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

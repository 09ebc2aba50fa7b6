// Shared assertions for the authorization-endpoint tests (AZ-01..AZ-20). Not a test file itself.
import assert from 'node:assert/strict';
import type { Response } from 'undici';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair } from '../../helpers/oauth.js';

export const CB = 'https://app.example/cb';
export const CHALLENGE = pkcePair().challenge;

/** A valid code request of the public client; override or drop (undefined) any parameter. */
export function codeRequest(over: Record<string, string | undefined> = {}): string {
  return authorizeUrl({
    client_id: PUBLIC_CLIENT.client_id,
    response_type: 'code',
    redirect_uri: CB,
    scope: 'openid profile',
    state: 'st-123',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...over,
  });
}

/** The answer is Ward's own 400 error page: no Location, HTML, never cached, not frameable. */
export async function assertErrorPage(res: Response, error?: string): Promise<string> {
  const body = await res.text();
  assert.equal(
    res.status,
    400,
    `expected the 400 error page, got ${res.status} ${res.headers.get('location') ?? ''} ${body.slice(0, 200)}`,
  );
  assert.equal(res.headers.get('location'), null, 'an error page never redirects');
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.match(body, /This request cannot be completed/);
  if (error) assert.ok(body.includes(`Error: ${error}<`), `error page names ${error}: ${body.slice(-300)}`);
  return body;
}

/**
 * The answer is a 302 to exactly `target` (origin + path, byte for byte) carrying `error` in the query,
 * the same state and the issuer; the Location has no CR/LF and error_description no CR/LF/TAB.
 */
export function assertErrorRedirect(
  res: Response,
  target: string,
  error: string,
  issuer: string,
  state: string | null = 'st-123',
): URL {
  assert.equal(res.status, 302, `expected a redirect, got ${res.status}`);
  const raw = res.headers.get('location');
  assert.ok(raw, 'Location present');
  assert.doesNotMatch(raw, /[\r\n]/);
  const prefix = target.includes('?') ? `${target}&` : `${target}?`;
  assert.ok(raw.startsWith(prefix), `redirected to ${raw}, expected ${prefix}...`);
  const loc = new URL(raw);
  assert.equal(loc.searchParams.get('error'), error, `error in ${raw}`);
  assert.equal(loc.searchParams.get('state'), state);
  assert.equal(loc.searchParams.get('iss'), issuer);
  assert.equal(loc.searchParams.get('code'), null, 'never a code with an error');
  assert.equal(loc.searchParams.get('access_token'), null);
  assert.doesNotMatch(loc.searchParams.get('error_description') ?? '', /[\r\n\t]/);
  assert.equal(loc.hash, '');
  return loc;
}

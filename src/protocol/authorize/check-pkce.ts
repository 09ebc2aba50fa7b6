// Rule (RFC 7636, RFC 9700 section 2.1.1): public clients must send an S256 code_challenge; plain
// is refused; a challenge without its method is refused rather than read as plain; the challenge
// must be 43 base64url characters (the S256 of a verifier), and not the S256 of the state (PK-11).
import { createHash } from 'node:crypto';
import { AuthorizeError } from '../../errors/oauth-error.js';
import type { AuthorizeContext } from './request.js';

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function checkPkce(ctx: AuthorizeContext): void {
  const { code_challenge: challenge, code_challenge_method: method } = ctx.params;
  const client = ctx.req.client!;
  if (ctx.req.responseType === 'messenger_code') {
    // The chatbot redeems the code on its server with no verifier: PKCE cannot apply (short life,
    // single use, binding to client and callback, and user interaction stand in for it).
    if ((challenge !== undefined && challenge !== '') || (method !== undefined && method !== ''))
      throw new AuthorizeError('invalid_request', 'PKCE does not apply to messenger_code', true);
    return;
  }
  if (challenge === undefined || challenge === '') {
    if (method !== undefined && method !== '')
      throw new AuthorizeError('invalid_request', 'code_challenge_method without code_challenge', true);
    if ((ctx.req.responseType === 'code' || ctx.req.responseType === 'code id_token') && client.pkce_enforced)
      throw new AuthorizeError('invalid_request', 'code_challenge is required (PKCE with S256)', true);
    return;
  }
  if (method === undefined || method === '')
    throw new AuthorizeError('invalid_request', 'code_challenge_method is required and must be S256', true);
  if (method !== 'S256')
    throw new AuthorizeError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)', true);
  if (typeof challenge !== 'string' || !S256_CHALLENGE.test(challenge))
    throw new AuthorizeError('invalid_request', 'code_challenge must be 43 base64url characters', true);
  // A verifier equal to the state travels in the redirect URL: such a challenge protects nothing.
  if (
    typeof ctx.params.state === 'string' &&
    createHash('sha256').update(ctx.params.state).digest('base64url') === challenge
  ) {
    throw new AuthorizeError('invalid_request', 'code_challenge must not be derived from state', true);
  }
  ctx.req.codeChallenge = challenge;
}

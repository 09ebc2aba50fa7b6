// Rule (RFC 7636, RFC 9700 section 2.1.1): public clients must send an S256 code_challenge; plain
// is refused; a challenge without its method is refused rather than read as plain; the challenge
// must be 43 base64url characters (the S256 of a verifier), and not the S256 of the state (PK-11).
import { createHash } from 'node:crypto';
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext } from './request.js';

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function checkPkce(ctx: AuthorizeContext): void {
  const { code_challenge: challenge, code_challenge_method: method } = ctx.params;
  const client = ctx.req.client!;
  if (ctx.req.responseType === 'messenger_code') {
    // The chatbot redeems the code on its server with no verifier: PKCE cannot apply (short life,
    // single use, binding to client and callback, and user interaction stand in for it).
    if ((challenge !== undefined && challenge !== '') || (method !== undefined && method !== ''))
      throw new WardError('authorizeInvalidRequest', { description: 'PKCE does not apply to messenger_code' });
    return;
  }
  if (challenge === undefined || challenge === '') {
    if (method !== undefined && method !== '')
      throw new WardError('authorizeInvalidRequest', { description: 'code_challenge_method without code_challenge' });
    if ((ctx.req.responseType === 'code' || ctx.req.responseType === 'code id_token') && client.pkce_enforced)
      throw new WardError('authorizeInvalidRequest', { description: 'code_challenge is required (PKCE with S256)' });
    return;
  }
  if (method === undefined || method === '')
    throw new WardError('authorizeInvalidRequest', {
      description: 'code_challenge_method is required and must be S256',
    });
  if (method !== 'S256')
    throw new WardError('authorizeInvalidRequest', {
      description: 'code_challenge_method must be S256 (plain is not supported)',
    });
  if (typeof challenge !== 'string' || !S256_CHALLENGE.test(challenge))
    throw new WardError('authorizeInvalidRequest', { description: 'code_challenge must be 43 base64url characters' });
  // A verifier equal to the state travels in the redirect URL: such a challenge protects nothing.
  if (
    typeof ctx.params.state === 'string' &&
    createHash('sha256').update(ctx.params.state).digest('base64url') === challenge
  ) {
    throw new WardError('authorizeInvalidRequest', { description: 'code_challenge must not be derived from state' });
  }
  ctx.req.codeChallenge = challenge;
}

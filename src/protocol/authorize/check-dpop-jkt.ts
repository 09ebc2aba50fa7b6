// Rule (RFC 9449 10): dpop_jkt, when sent, is the JWK SHA-256 thumbprint of the DPoP key the code will
// be redeemed with (43 base64url characters); the code is bound to it (dpop/code-binding.ts).
import { WardError } from '../../errors/ward-error.js';
import { JKT } from '../dpop/code-binding.js';
import type { AuthorizeContext } from './request.js';

export function checkDpopJkt(ctx: AuthorizeContext): void {
  const jkt = ctx.params.dpop_jkt;
  if (jkt === undefined || jkt === '') return;
  if (typeof jkt !== 'string' || !JKT.test(jkt))
    throw new WardError('authorizeInvalidRequest', {
      description: 'dpop_jkt must be the base64url SHA-256 thumbprint of a JWK (43 characters)',
    });
  ctx.req.dpopJkt = jkt;
}

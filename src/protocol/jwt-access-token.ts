// JWT access tokens (RFC 9068) for the API resources whose token format is `jwt`: signed with the
// account's current RS256 key (the global set, published at /jwks.json, rotated and revoked like every
// key of the account), header `typ: at+jwt`, so an API verifies them itself. Ward reads them back for
// introspection and revocation: only a token whose key is one of the account's published keys, of the
// at+jwt type, issued by this issuer and not expired opens. `gid` names the grant (token family) so a
// revoked grant (logout, a reused refresh token) makes introspection answer inactive.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { GLOBAL_SET, type KeyStore } from '../keys/key-store.js';
import type { JwsSigner } from '../keys/jwt.js';
import type { Clock } from '../lib/clock.js';
import { secureRandomBytes } from '../lib/random.js';
import type { AccessTokenClaims } from './access-token-codec.js';

export const AT_JWT_TYPE = 'at+jwt';

export interface JwtAccessTokens {
  /**
   * Signs an access token for `claims.aud`; `sub` is the user, or the client when there is none (RFC 9068 2.2).
   * `extra`: the claims before.token hooks added (never a registered name: hooks/answer.ts refuses
   * those; Ward's own claims are written over them all the same).
   */
  sign(
    claims: Omit<AccessTokenClaims, 'jti'> & { aud: string },
    extra?: Record<string, unknown>,
  ): Promise<{ token: string; jti: string }>;
  /** The claims of a JWT access token this account signed and that has not expired, or null (never throws). */
  verify(token: string): Promise<AccessTokenClaims | null>;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
/** The DPoP key thumbprint of a `cnf` claim, or null. */
const jktOf = (cnf: unknown): string | null =>
  typeof cnf === 'object' && cnf !== null && typeof (cnf as { jkt?: unknown }).jkt === 'string'
    ? (cnf as { jkt: string }).jkt
    : null;

export function createJwtAccessTokens(deps: {
  issuer: string;
  keys: Pick<KeyStore, 'current' | 'hasCurrent' | 'ensureGlobalKeys' | 'published'>;
  jws: JwsSigner;
  clock: Clock;
}): JwtAccessTokens {
  const publicKeys = new Map<string, KeyObject>();
  function publicKey(kid: string): KeyObject | null {
    const found = deps.keys.published(kid);
    // Only the account's own keys: a client-specific key signs that client's ID tokens, never an API's token.
    if (!found || found.keySet !== GLOBAL_SET || found.jwk.alg !== 'RS256') return null;
    let key = publicKeys.get(kid);
    if (!key) {
      const { kty, n, e } = found.jwk as Record<string, string>;
      key = createPublicKey({ key: { kty: kty!, n: n!, e: e! }, format: 'jwk' });
      publicKeys.set(kid, key);
    }
    return key;
  }
  return {
    async sign(claims, extra = {}) {
      if (!deps.keys.hasCurrent(GLOBAL_SET, 'RS256')) await deps.keys.ensureGlobalKeys(['RS256']);
      const { kid, key } = deps.keys.current(GLOBAL_SET, 'RS256');
      const jti = secureRandomBytes(16).toString('base64url');
      const payload: Record<string, unknown> = {
        ...extra,
        iss: deps.issuer,
        exp: seconds(claims.expires_at),
        aud: claims.aud,
        sub: claims.user_id ?? claims.client_id,
        client_id: claims.client_id,
        iat: seconds(claims.created_at),
        jti,
        ...(claims.scope ? { scope: claims.scope } : {}),
        ...(claims.auth_time !== null ? { auth_time: seconds(claims.auth_time) } : {}),
        ...(claims.amr.length ? { amr: claims.amr } : {}),
        ...(claims.grant_id ? { gid: claims.grant_id } : {}),
        ...(claims.step_up_action !== null ? { step_up_action: claims.step_up_action } : {}),
        // A DPoP-bound token names its key (RFC 9449 6.1): the API checks the proof against it.
        ...(claims.jkt !== null ? { cnf: { jkt: claims.jkt } } : {}),
      };
      return { token: await deps.jws.rs256(payload, kid, key, AT_JWT_TYPE), jti };
    },
    async verify(token) {
      if (token.split('.').length !== 3) return null;
      try {
        const { kid, typ } = decodeProtectedHeader(token);
        if (typ !== AT_JWT_TYPE || typeof kid !== 'string') return null;
        const key = publicKey(kid);
        if (!key) return null;
        const { payload: p } = await jwtVerify(token, key, {
          issuer: deps.issuer,
          typ: AT_JWT_TYPE,
          algorithms: ['RS256'],
          currentDate: new Date(deps.clock.now()),
          requiredClaims: ['exp', 'iat', 'jti', 'sub', 'aud', 'client_id'],
        });
        const grantId = typeof p.gid === 'string' ? p.gid : null;
        const aud = Array.isArray(p.aud) ? p.aud[0] : p.aud;
        if (typeof aud !== 'string' || typeof p.client_id !== 'string') return null;
        return {
          jti: p.jti!,
          grant_id: grantId,
          client_id: p.client_id,
          // A user's token always has its grant; a token without one is a client's (client_credentials).
          user_id: grantId ? p.sub! : null,
          scope: typeof p.scope === 'string' ? p.scope : '',
          auth_time: typeof p.auth_time === 'number' ? p.auth_time * 1000 : null,
          amr: Array.isArray(p.amr) ? (p.amr as string[]) : [],
          // iat has whole seconds: the token was issued at some instant of that second, at the latest its end
          // (a client's tokens_not_before is compared in milliseconds).
          created_at: p.iat! * 1000 + 999,
          expires_at: p.exp! * 1000,
          aud,
          step_up_action: typeof p.step_up_action === 'string' ? p.step_up_action : null,
          jkt: jktOf(p.cnf),
        };
      } catch {
        return null;
      }
    },
  };
}

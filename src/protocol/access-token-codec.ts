// Access tokens are self-contained and sealed: AES-256-GCM under a key derived from the master key,
// so issuing one writes nothing and checking one needs no token row. The client cannot read or
// change what is inside (opaque, as before); a token made under another key, a JWT, a truncated or
// edited token all fail to open. What stays in the database is what can change after issue: the
// grant's revocation (one row read per check) and the jti of a token revoked on its own (RFC 7009).
import { hkdfSync } from 'node:crypto';
import { secureRandomBytes } from '../lib/random.js';
import { decryptBytes, encryptBytes } from '../lib/secrets.js';

/** What a sealed access token carries. */
export interface AccessTokenClaims {
  /** Random id: the key of a revocation. */
  jti: string;
  /** The grant (token family) of a user's token; null for client_credentials (no user, no grant). */
  grant_id: string | null;
  client_id: string;
  user_id: string | null;
  scope: string;
  auth_time: number | null;
  amr: string[];
  created_at: number;
  expires_at: number;
  /** The API resource the token is for (RFC 8707); null: Ward's own APIs (userinfo, the identity API). */
  aud: string | null;
  /** The action of the step-up the grant was signed in with (docs/mfa.md#step-up-actions); null: none. */
  step_up_action: string | null;
  /** The JWK thumbprint of the DPoP key the token is bound to (RFC 9449 6.1, `cnf.jkt`); null: a Bearer token. */
  jkt: string | null;
}

const VERSION = 1;
/** A token's first part, so a Bearer value is told from a refresh token or a JWT without a lookup. */
const PREFIX = 'wat1.';

export interface AccessTokenCodec {
  seal(claims: Omit<AccessTokenClaims, 'jti'>): { token: string; jti: string };
  /** The claims of a token this key sealed, or null (never throws on input). */
  open(token: string): AccessTokenClaims | null;
}

/** The optional fields up to the last one set (a field before it that is unset is written as null). */
function optionalTail(fields: (string | null)[]): (string | null)[] {
  let end = fields.length;
  while (end > 0 && fields[end - 1] === null) end--;
  return fields.slice(0, end);
}

export function createAccessTokenCodec(masterKey: Buffer): AccessTokenCodec {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'ward access tokens v1', 32));
  const aad = Buffer.from([VERSION]);
  return {
    seal(claims) {
      const jti = secureRandomBytes(16).toString('base64url');
      const body = JSON.stringify([
        jti,
        claims.grant_id,
        claims.client_id,
        claims.user_id,
        claims.scope,
        claims.auth_time,
        claims.amr,
        claims.created_at,
        claims.expires_at,
        // Only a resource's token carries its audience, a step-up's its action and a DPoP-bound one
        // its key: Ward's own tokens keep their size. A token of an older release (nine to eleven
        // fields) opens the same, bound to no key.
        ...optionalTail([claims.aud, claims.step_up_action, claims.jkt]),
      ]);
      return { token: PREFIX + encryptBytes(key, body, aad).toString('base64url'), jti };
    },
    open(token) {
      if (!token.startsWith(PREFIX)) return null;
      const text = token.slice(PREFIX.length);
      const raw = Buffer.from(text, 'base64url');
      // The decoder skips characters outside the alphabet: only the canonical spelling is a token.
      if (raw.toString('base64url') !== text) return null;
      try {
        const body = decryptBytes(key, raw, aad).toString('utf8');
        const [jti, grant_id, client_id, user_id, scope, auth_time, amr, created_at, expires_at, aud, action, jkt] =
          JSON.parse(body) as [
            string,
            string | null,
            string,
            string | null,
            string,
            number | null,
            string[],
            number,
            number,
            string | null | undefined,
            string | null | undefined,
            string | undefined,
          ];
        return {
          jti,
          grant_id,
          client_id,
          user_id,
          scope,
          auth_time,
          amr,
          created_at,
          expires_at,
          aud: aud ?? null,
          step_up_action: action ?? null,
          jkt: jkt ?? null,
        };
      } catch {
        return null;
      }
    },
  };
}

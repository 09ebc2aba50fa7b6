// Speed-up `direct_jws` (docs/performance.md; plain path: jose, keys/jwt.ts). The JWS compact
// serialisation of Ward's ID tokens written with node:crypto directly: RS256 through the callback
// `crypto.sign` (the signature is computed on a libuv thread, so both cores work), HS256 with
// `createHmac`. test/keys/jws-differential.test.ts verifies every kind of token with jose.
import { createHmac, sign as signAsync } from 'node:crypto';
import type { JwsSigner } from '../jwt.js';

const b64 = (v: object): string => Buffer.from(JSON.stringify(v)).toString('base64url');

export const directJws: JwsSigner = {
  rs256(payload, kid, key, typ = 'JWT') {
    const input = `${b64({ alg: 'RS256', typ, kid })}.${b64(payload)}`;
    return new Promise((resolve, reject) => {
      signAsync('sha256', Buffer.from(input), key, (err, sig) =>
        err ? reject(err) : resolve(`${input}.${sig.toString('base64url')}`),
      );
    });
  },
  // With the client secret's UTF-8 octets (OIDC Core 10.1).
  async hs256(payload, secret, typ = 'JWT') {
    const input = `${b64({ alg: 'HS256', typ })}.${b64(payload)}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  },
};

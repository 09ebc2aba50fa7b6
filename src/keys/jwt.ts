import { createHmac, sign as signAsync, type KeyObject } from 'node:crypto';

const b64 = (v: object): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** RS256: the signature is computed off the event loop (callback crypto.sign), so both cores work. */
export function signRs256(payload: object, kid: string, key: KeyObject, typ = 'JWT'): Promise<string> {
  const input = `${b64({ alg: 'RS256', typ, kid })}.${b64(payload)}`;
  return new Promise((resolve, reject) => {
    signAsync('sha256', Buffer.from(input), key, (err, sig) =>
      err ? reject(err) : resolve(`${input}.${sig.toString('base64url')}`),
    );
  });
}

/** HS256 with the client secret's UTF-8 octets (OIDC Core 10.1); createHmac directly, no JOSE layer. */
export function signHs256(payload: object, secret: string, typ = 'JWT'): string {
  const input = `${b64({ alg: 'HS256', typ })}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

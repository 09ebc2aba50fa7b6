// A software passkey authenticator for Node tests (no browser): ES256 keys from node:crypto, the
// attestation ("none") and assertions written byte for byte as WebAuthn Level 2 describes them, and
// answered in the Core SDK's wire format (snake_cased, base64url) on the snake_cased options Ward
// sends. Tests that need a real browser use the virtual authenticator of test/helpers/passkeys.ts.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** The few CBOR items an attestation needs (RFC 8949): integers, byte and text strings, maps. */
function cbor(v: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  if (v instanceof Map) {
    const parts: Buffer[] = [head(5, v.size)];
    for (const [k, x] of v) parts.push(cbor(k), cbor(x));
    return Buffer.concat(parts);
  }
  throw new TypeError(`cbor: ${typeof v}`);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

interface Credential {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

/** Flags of authenticator data: user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(private readonly opts: { userVerified?: boolean } = {}) {}

  private flags(extra = 0) {
    return UP | (this.opts.userVerified === false ? 0 : UV) | extra;
  }

  /** navigator.credentials.create on Ward's snake_cased creation options: the attestation as the SDK sends it. */
  create(publicKey: Record<string, any>, origin: string): Record<string, any> {
    const rpId: string = publicKey.rp.id;
    const { privateKey, publicKey: pub } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = pub.export({ format: 'jwk' });
    const id = randomBytes(16);
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.from([id.length >> 8, id.length & 0xff]);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(AT)]),
      u32(0),
      Buffer.alloc(16),
      idLength,
      id,
      cose,
    ]);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: publicKey.challenge,
      origin,
      crossOrigin: false,
    });
    const attestation = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, key: privateKey, userHandle: publicKey.user.id, rpId, counter: 0 });
    return {
      id: b64u(id),
      raw_id: b64u(id),
      type: 'public-key',
      response: {
        client_data_json: b64u(Buffer.from(clientData)),
        attestation_object: b64u(attestation),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get on Ward's snake_cased request options: the assertion as the SDK sends it. */
  get(publicKey: Record<string, any>, origin: string): Record<string, any> {
    const allowed = (publicKey.allow_credentials ?? []) as Array<{ id: string }>;
    const cred = this.credentials.find(
      (c) => c.rpId === publicKey.rp_id && (allowed.length === 0 || allowed.some((a) => a.id === b64u(c.id))),
    );
    if (!cred) throw new Error('no credential for these options');
    cred.counter++;
    const authData = Buffer.concat([sha256(cred.rpId), Buffer.from([this.flags()]), u32(cred.counter)]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: publicKey.challenge, origin }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), cred.key);
    return {
      id: b64u(cred.id),
      raw_id: b64u(cred.id),
      type: 'public-key',
      response: {
        authenticator_data: b64u(authData),
        client_data_json: b64u(clientData),
        signature: b64u(signature),
        user_handle: cred.userHandle.replace(/=+$/, ''),
      },
    };
  }
}

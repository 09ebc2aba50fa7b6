// Forged JWTs presented as Bearer access tokens at GET /identity/v1/userinfo: SV-01 (alg none),
// SV-02 (HS/RS confusion), SV-03 (client-secret forgery), SV-04 (kid injection), SV-05 (jku/x5u/jwk,
// with a network spy), SV-06 (crit, b64:false), SV-09 (psychic, truncated, padded signatures).
// Access tokens are opaque: every JWT, however well signed, is refused with the one 401.
import assert from 'node:assert/strict';
import { createHmac, createPrivateKey, createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  FlattenedSign,
  SignJWT,
  UnsecuredJWT,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
} from 'jose';
import { generateSigningKey, keyAad } from '../../src/keys/generate.js';
import { GLOBAL_SET, clientSet } from '../../src/keys/key-store.js';
import { unseal } from '../../src/lib/secrets.js';
import { CONFIDENTIAL_SECRET } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { assertAccepted, assertRefused, issueSpaTokens, startSecurityWard, userinfo, type Issued } from './support.js';

const b64 = (v: unknown): string => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** A compact JWS built by hand, so that any header (even an invalid one) can be sent. */
function jws(header: object, payload: object, signer: (input: string) => Buffer | string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const sig = signer(input);
  return `${input}.${typeof sig === 'string' ? sig : sig.toString('base64url')}`;
}
const rs256 = (key: KeyObject) => (input: string) => cryptoSign('sha256', Buffer.from(input), key);
const hs256 = (secret: Buffer | string) => (input: string) => createHmac('sha256', secret).update(input).digest();

describe('forged JWTs are never access tokens', () => {
  let ward: TestWard;
  let spa: Issued;
  let claims: Record<string, unknown>;
  let globalKid: string;
  let attacker: { privateKey: KeyObject; publicKey: KeyObject };
  before(async () => {
    ward = await startSecurityWard();
    spa = await issueSpaTokens(ward);
    const now = Math.floor(ward.clock.now() / 1000);
    // What an access-token JWT for the victim would carry: every claim a naive validator checks.
    claims = {
      ...decodeJwt(spa.id_token),
      aud: ['spa', ward.url],
      scope: 'openid profile email',
      client_id: 'spa',
      iat: now,
      exp: now + 600,
    };
    globalKid = decodeProtectedHeader(spa.id_token).kid!;
    attacker = (await generateKeyPair('RS256', { extractable: true })) as unknown as {
      privateKey: KeyObject;
      publicKey: KeyObject;
    };
    await assertAccepted(ward, spa.access_token, spa.user.id);
  });
  after(() => ward.close());

  async function refused(token: string, what: string): Promise<void> {
    await assertRefused(await userinfo(ward, `Bearer ${token}`), what);
  }

  it('SV-01: alg none in every spelling, with and without the trailing dot', async () => {
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      for (const payload of [claims, decodeJwt(spa.id_token)]) {
        const unsigned = `${b64({ alg, typ: 'JWT', kid: globalKid })}.${b64(payload)}`;
        await refused(`${unsigned}.`, `alg ${alg} with trailing dot`);
        await refused(unsigned, `alg ${alg} without trailing dot`);
      }
    }
    // The id_token itself with its signature stripped.
    const [h, p] = spa.id_token.split('.');
    await refused(`${h}.${p}.`, 'id_token with stripped signature');
    await refused(`${b64({ alg: 'none' })}.${p}.`, 'id_token re-headed alg none');
    await refused(new UnsecuredJWT(claims).encode(), 'jose UnsecuredJWT');
  });

  it('SV-02: HS256/HS512 keyed with the RSA public key (PEM, DER, JWK JSON, certificate, modulus)', async () => {
    const jwks = (await (await ward.fetch('/jwks.json')).json()) as {
      keys: Array<Record<string, string> & { x5c: string[] }>;
    };
    const jwk = jwks.keys.find((k) => k.kid === globalKid)!;
    const pub = createPublicKey({ key: jwk as never, format: 'jwk' });
    const pem = pub.export({ type: 'spki', format: 'pem' }) as string;
    const secrets: Array<[string, Uint8Array]> = [
      ['spki PEM', Buffer.from(pem)],
      ['spki PEM without trailing newline', Buffer.from(pem.trimEnd())],
      ['pkcs1 PEM', Buffer.from(pub.export({ type: 'pkcs1', format: 'pem' }) as string)],
      ['spki DER', pub.export({ type: 'spki', format: 'der' })],
      ['JWK JSON', Buffer.from(JSON.stringify(jwk))],
      ['JWK JSON (n, e, kty only)', Buffer.from(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))],
      ['x5c certificate DER', Buffer.from(jwk.x5c[0]!, 'base64')],
      ['x5c base64 text', Buffer.from(jwk.x5c[0]!)],
      ['modulus bytes', Buffer.from(jwk.n!, 'base64url')],
    ];
    for (const [what, secret] of secrets) {
      for (const alg of ['HS256', 'HS512']) {
        const token = await new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', kid: globalKid }).sign(secret);
        await refused(token, `${alg} keyed with ${what}`);
      }
    }
  });

  it('SV-03: a confidential client mints a token for a victim with its own client_secret (HS256)', async () => {
    const key = new TextEncoder().encode(CONFIDENTIAL_SECRET);
    const now = Math.floor(ward.clock.now() / 1000);
    const base = { iss: ward.url, sub: spa.user.id, scope: 'openid profile email mfa', iat: now, exp: now + 300 };
    for (const [what, payload] of [
      ['aud = issuer', { ...base, aud: ward.url, client_id: 'backend' }],
      ['aud = backend', { ...base, aud: 'backend', azp: 'backend' }],
      ['aud = spa', { ...base, aud: 'spa', client_id: 'spa' }],
      ['typ at+jwt', { ...base, aud: ward.url, client_id: 'backend', jti: 'x1' }],
    ] as const) {
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: what === 'typ at+jwt' ? 'at+jwt' : 'JWT' })
        .sign(key);
      await refused(token, `client-secret forgery: ${what}`);
    }
  });

  it('SV-04: kid injection answers 401 fast, never 500, whatever the kid', async () => {
    // A revoked key and another client's key, both with their real private keys.
    const now = ward.clock.now();
    const revokedRow = await generateSigningKey(ward.registry.masterKey, GLOBAL_SET, now);
    revokedRow.status = 'previous';
    const otherRow = await generateSigningKey(ward.registry.masterKey, clientSet('other-client'), now);
    await ward.registry.storage.keys.insert(revokedRow);
    await ward.registry.storage.keys.insert(otherRow);
    await ward.registry.storage.keys.revoke(revokedRow.kid, now);
    await ward.registry.keys.reload();
    const privateOf = (row: typeof revokedRow) =>
      createPrivateKey({
        key: unseal(ward.registry.masterKey, row.private_sealed, keyAad(row.kid)),
        format: 'der',
        type: 'pkcs8',
      });
    const cases: Array<[string, string, KeyObject]> = [
      ['path traversal', '../../../../../../dev/null', attacker.privateKey],
      ['SQL', "' OR 1=1--", attacker.privateKey],
      ['SQL union', 'x" UNION SELECT private_sealed FROM signing_keys--', attacker.privateKey],
      ['wildcard', '*', attacker.privateKey],
      ['10 kB', 'k'.repeat(10_240), attacker.privateKey],
      ['unicode and NUL', 'ключ-😀-\u0000-\u202e', attacker.privateKey],
      ['absent from the store', 'no-such-kid', attacker.privateKey],
      ['real global kid, attacker key', globalKid, attacker.privateKey],
      ['revoked key', revokedRow.kid, privateOf(revokedRow)],
      ["another client's key", otherRow.kid, privateOf(otherRow)],
    ];
    for (const [what, kid, key] of cases) {
      const token = jws({ alg: 'RS256', typ: 'JWT', kid }, claims, rs256(key));
      const t0 = performance.now();
      const res = await userinfo(ward, `Bearer ${token}`);
      const ms = performance.now() - t0;
      await assertRefused(res, `kid ${what}`);
      assert.ok(ms < 1000, `kid ${what} took ${Math.round(ms)} ms`);
    }
    // The kid as a non-string, and the same through jose's own signer.
    await refused(jws({ alg: 'RS256', kid: { $ne: null } }, claims, rs256(attacker.privateKey)), 'kid object');
    await refused(jws({ alg: 'RS256', kid: ['a', 'b'] }, claims, rs256(attacker.privateKey)), 'kid array');
    await refused(
      await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: '../x' }).sign(attacker.privateKey),
      'jose-signed kid',
    );
  });

  describe('SV-05: jku, x5u and embedded jwk headers', () => {
    let spy: Server;
    let hits = 0;
    let spyUrl = '';
    before(async () => {
      spy = createServer((_req, res) => {
        hits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [] }));
      });
      await new Promise<void>((resolve) => spy.listen(0, 'localhost', resolve));
      spyUrl = `http://localhost:${(spy.address() as { port: number }).port}`;
    });
    after(() => new Promise<void>((resolve) => spy.close(() => resolve())));

    it('refuses tokens that name their own key, and fetches nothing', async () => {
      const pubJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker', alg: 'RS256', use: 'sig' };
      const headers: Array<[string, object]> = [
        ['jku', { alg: 'RS256', kid: 'attacker', jku: `${spyUrl}/jwks.json` }],
        [
          'jku with the issuer prefix',
          { alg: 'RS256', kid: 'attacker', jku: `${ward.url}@localhost:${new URL(spyUrl).port}/jwks.json` },
        ],
        ['x5u', { alg: 'RS256', x5u: `${spyUrl}/cert.pem` }],
        ['embedded jwk', { alg: 'RS256', jwk: pubJwk }],
        ['embedded jwk with the global kid', { alg: 'RS256', kid: globalKid, jwk: pubJwk }],
        [
          'jku + jwk + x5u',
          { alg: 'RS256', kid: 'attacker', jku: `${spyUrl}/jwks.json`, x5u: `${spyUrl}/c.pem`, jwk: pubJwk },
        ],
      ];
      for (const [what, header] of headers) await refused(jws(header, claims, rs256(attacker.privateKey)), what);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(hits, 0, 'Ward made an outbound request to a URL named in a token header');
    });
  });

  it('SV-06: crit headers and unencoded payloads, signed with the real global key', async () => {
    const { key } = ward.registry.keys.current(GLOBAL_SET);
    await refused(jws({ alg: 'RS256', kid: globalKid, crit: ['exp'] }, claims, rs256(key)), 'crit exp');
    await refused(
      jws({ alg: 'RS256', kid: globalKid, crit: ['unknown'], unknown: true }, claims, rs256(key)),
      'crit unknown',
    );
    await refused(jws({ alg: 'RS256', kid: globalKid, crit: [] }, claims, rs256(key)), 'crit empty');
    const raw = JSON.stringify(claims).replace(/\./g, '');
    const flat = await new FlattenedSign(new TextEncoder().encode(raw))
      .setProtectedHeader({ alg: 'RS256', kid: globalKid, b64: false, crit: ['b64'] })
      .sign(key);
    await refused(`${flat.protected}.${raw}.${flat.signature}`, 'b64 false, payload inline');
    await refused(`${flat.protected}..${flat.signature}`, 'b64 false, detached payload');
    await refused(
      jws({ alg: 'HS256', crit: ['b64'], b64: false }, claims, hs256(CONFIDENTIAL_SECRET)),
      'b64 false HS256',
    );
  });

  it('SV-09: psychic ES256 signatures, truncated and padded signatures and tokens', async () => {
    const es = `${b64({ alg: 'ES256', typ: 'JWT', kid: globalKid })}.${b64(claims)}`;
    await refused(`${es}.${Buffer.alloc(64).toString('base64url')}`, 'ES256 r=s=0 (P1363)');
    await refused(`${es}.${Buffer.from('3006020100020100', 'hex').toString('base64url')}`, 'ES256 r=s=0 (DER)');
    await refused(`${es}.`, 'ES256 empty signature');
    const [h, p, s] = spa.id_token.split('.') as [string, string, string];
    const sig = Buffer.from(s, 'base64url');
    await refused(
      `${h}.${p}.${sig.subarray(0, sig.length - 1).toString('base64url')}`,
      'id_token signature minus one byte',
    );
    await refused(`${h}.${p}.${sig.subarray(0, 16).toString('base64url')}`, 'id_token signature truncated to 16 bytes');
    await refused(
      `${h}.${p}.${Buffer.concat([sig, Buffer.from([0])]).toString('base64url')}`,
      'id_token signature plus a byte',
    );
    await refused(`${h}.${p}.${s}AAAA`, 'id_token signature plus base64 text');
    // The opaque access token itself, altered.
    const at = spa.access_token;
    for (const [what, t] of [
      ['minus its last character', at.slice(0, -1)],
      ['plus a character', `${at}A`],
      ['plus base64 padding', `${at}=`],
      ['with a flipped character', at.slice(0, 10) + (at[10] === 'A' ? 'B' : 'A') + at.slice(11)],
      ['in standard base64', Buffer.from(at, 'base64url').toString('base64')],
      ['upper-cased', at.toUpperCase()],
    ] as const) {
      if (t !== at) await refused(t, `access token ${what}`);
    }
    await assertAccepted(ward, spa.access_token, spa.user.id);
  });
});

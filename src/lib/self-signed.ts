// A self-signed X.509 v3 certificate (RFC 5280) for a key Ward holds: a signing key's x5c
// (keys/generate.ts) and the development TLS certificate (bootstrap/data-dir.ts). The structures and
// their DER are @peculiar/asn1-x509's, the signature node:crypto's. @peculiar/x509 builds the same
// over WebCrypto, but loading it took twice as long: a tenth of a first start (docs/performance.md,
// "Start-up"). Loaded on first use: a restart with existing keys never needs it.
import { createPublicKey, type KeyObject, sign } from 'node:crypto';

type Asn1 = typeof import('@peculiar/asn1-schema') & typeof import('@peculiar/asn1-x509');

let loading: Promise<Asn1> | undefined;
const loadAsn1 = (): Promise<Asn1> =>
  (loading ??= Promise.all([import('@peculiar/asn1-schema'), import('@peculiar/asn1-x509')]).then(([schema, x509]) => ({
    ...schema,
    ...x509,
  })));

/** Loads the ASN.1 modules now, for a certificate about to be made (keys/generate.ts `generateAhead`). */
export const loadCertificateModules = (): Promise<void> => loadAsn1().then(() => undefined);

export interface SelfSignedRequest {
  /** The key that signs the certificate; the certificate holds its public key. */
  privateKey: KeyObject;
  /** Positive, at most 20 bytes (RFC 5280 4.1.2.2), as DER writes it: its first byte 0x01-0x7f. */
  serialNumber: Buffer;
  /** The subject and issuer: attribute types by short name, CN and O. */
  name: { CN: string; O?: string };
  notBefore: Date;
  notAfter: Date;
  /** The key usage (critical). */
  usage: Array<'digitalSignature' | 'keyCertSign'>;
  /** A certificate authority (basicConstraints cA, critical): the development certificate is its own. */
  ca?: boolean;
  /** TLS server names: extendedKeyUsage serverAuth and subjectAltName of these DNS names and addresses. */
  server?: { dns: string[]; ip: string[] };
}

/** The signature algorithm of each key type: its identifier (RFC 4055, 5758, 8410) and digest. */
const SIGNATURE: Record<string, { oid: string; nullParameters: boolean; digest: string | null }> = {
  rsa: { oid: '1.2.840.113549.1.1.11', nullParameters: true, digest: 'sha256' },
  ec: { oid: '1.2.840.10045.4.3.2', nullParameters: false, digest: 'sha256' },
  ed25519: { oid: '1.3.101.112', nullParameters: false, digest: null },
};
const ATTRIBUTE = { CN: '2.5.4.3', O: '2.5.4.10' } as const;
const DER_NULL = new Uint8Array([5, 0]).buffer;

/** A serial number from random or derived bytes: their first byte made 0x01-0x7f. */
export function serialNumberFrom(bytes: Buffer): Buffer {
  const serial = Buffer.from(bytes);
  serial[0] = (serial[0] ?? 0) & 0x7f || 1;
  return serial;
}

/** The certificate's DER. */
export async function selfSignedCertificate(req: SelfSignedRequest): Promise<Buffer> {
  const a = await loadAsn1();
  const type = req.privateKey.asymmetricKeyType ?? '';
  const alg = SIGNATURE[type];
  if (!alg) throw new Error(`self-signed certificate: no signature algorithm for a ${type} key`);
  const first = req.serialNumber[0] ?? 0;
  if (req.serialNumber.length > 20 || first === 0 || first >= 0x80)
    throw new Error('self-signed certificate: the serial number must be 1-20 bytes, its first 0x01-0x7f');
  const algorithm = new a.AlgorithmIdentifier({
    algorithm: alg.oid,
    ...(alg.nullParameters ? { parameters: DER_NULL } : {}),
  });
  const name = new a.Name(
    (Object.keys(ATTRIBUTE) as Array<keyof typeof ATTRIBUTE>)
      .filter((k) => req.name[k] !== undefined)
      .map(
        (k) =>
          new a.RelativeDistinguishedName([
            new a.AttributeTypeAndValue({
              type: ATTRIBUTE[k],
              value: new a.AttributeValue({ utf8String: req.name[k]! }),
            }),
          ]),
      ),
  );
  const extension = (extnID: string, critical: boolean, value: object) =>
    new a.Extension({ extnID, critical, extnValue: new a.OctetString(a.AsnConvert.serialize(value)) });
  const usage = req.usage.reduce((flags, u) => flags | a.KeyUsageFlags[u], 0);
  const extensions = [
    ...(req.ca ? [extension(a.id_ce_basicConstraints, true, new a.BasicConstraints({ cA: true }))] : []),
    extension(a.id_ce_keyUsage, true, new a.KeyUsage(usage)),
    ...(req.server
      ? [
          extension(a.id_ce_extKeyUsage, false, new a.ExtendedKeyUsage([a.id_kp_serverAuth])),
          extension(
            a.id_ce_subjectAltName,
            false,
            new a.SubjectAlternativeName([
              ...req.server.dns.map((dNSName) => new a.GeneralName({ dNSName })),
              ...req.server.ip.map((iPAddress) => new a.GeneralName({ iPAddress })),
            ]),
          ),
        ]
      : []),
  ];
  const spki = createPublicKey(req.privateKey).export({ type: 'spki', format: 'der' });
  const tbs = new a.TBSCertificate({
    version: a.Version.v3,
    serialNumber: new Uint8Array(req.serialNumber).buffer,
    signature: algorithm,
    issuer: name,
    validity: new a.Validity({ notBefore: req.notBefore, notAfter: req.notAfter }),
    subject: name,
    subjectPublicKeyInfo: a.AsnConvert.parse(spki, a.SubjectPublicKeyInfo),
    extensions: new a.Extensions(extensions),
  });
  const tbsDer = Buffer.from(a.AsnConvert.serialize(tbs));
  // ECDSA's signature is the DER of (r, s) in a certificate (RFC 5758 3.2): node's default encoding.
  const signature = sign(alg.digest, tbsDer, req.privateKey);
  const cert = new a.Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: new Uint8Array(signature).buffer,
  });
  return Buffer.from(a.AsnConvert.serialize(cert));
}

// Authenticator apps (RFC 6238 TOTP) with the `otpauth` library: SHA-1, 6 digits, 30-second steps (what
// every app reads from the otpauth:// URI), one step of drift each way. The QR code of the URI is drawn
// here as SVG by `qrcode` (no outside service sees the secret).
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** Time steps accepted either side of now (clock drift, a code typed at a step's end). */
export const TOTP_WINDOW = 1;

/** A new 160-bit secret (RFC 4226 section 4 recommends 160 bits), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  });

/** The otpauth:// URI an app reads (Key Uri Format): issuer, the account's label, the secret, the parameters. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totpOf(secret, label, issuer).toString();
}

/** The URI as an SVG QR code (a string of markup; no script, no outside reference). */
export async function qrSvg(uri: string): Promise<string> {
  // Loaded on the first enrolment, not at start.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The time step the code belongs to, when it is right within one step of `now` (ms), else null. The
 * caller refuses a step already used (replay): storage's `advanceStep`.
 */
export function matchTotp(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    timestamp: now,
    window: TOTP_WINDOW,
  });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD, timestamp: now }) + delta;
}

import { domainToASCII } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { hasControlCharacter } from '../lib/text.js';

/** A domain in its ASCII form: dot-separated labels of letters, digits and inner hyphens; a TLD with a letter. */
const ASCII_DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The one form of an email address that every entry stores and compares, so that look-alikes are one
 * account: trimmed, NFKC (full-width and other compatibility forms, `＠` included, become their plain
 * characters), the local part lower-cased, the domain in its ASCII form by IDNA (UTS #46, what
 * `node:url` does to a host: `Bücher.DE` is `xn--bcher-kva.de`) without a trailing dot. Null when the
 * result is not an address: one `@`, no blank or control character (PostgreSQL text cannot hold a
 * NUL), a domain name of labels (no IP literal, no `%`), at most 320 characters.
 */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 1000) return null;
  const v = value.trim().normalize('NFKC');
  const at = v.lastIndexOf('@');
  if (at <= 0) return null;
  const local = v.slice(0, at).toLowerCase().normalize('NFKC');
  const domain = v.slice(at + 1).replace(/\.$/, '');
  // The WHATWG host parser decodes %XX and reads numbers as IPv4: neither belongs in an address.
  if (/[%\s]/.test(domain) || hasControlCharacter(domain)) return null;
  const ascii = domainToASCII(domain);
  if (!ASCII_DOMAIN.test(ascii)) return null;
  const email = `${local}@${ascii}`;
  if (email.length > 320 || /[\s@]/.test(local) || hasControlCharacter(local)) return null;
  return email;
}

/**
 * Phone numbers in E.164, normalised by libphonenumber-js: `+33 6 12 34 56 78` and `+33612345678`
 * are one number. International format is required (no default country is assumed).
 */
export function normalizePhone(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const parsed = parsePhoneNumberFromString(value.trim());
  return parsed?.isValid() ? parsed.number : null;
}

import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { hasControlCharacter } from '../lib/text.js';

/** Emails are compared trimmed and lower-cased; no control characters (PostgreSQL text cannot hold a NUL). */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (v.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) || hasControlCharacter(v)) return null;
  return v;
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

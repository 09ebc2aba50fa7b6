/** Emails are compared trimmed and lower-cased. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (v.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return null;
  return v;
}

/** Phone numbers are E.164 (+ and 7 to 15 digits), spaces, dots, dashes and brackets removed. */
export function normalizePhone(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.replace(/[\s.()-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(v) ? v : null;
}

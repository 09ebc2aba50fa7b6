// The `user` field Apple posts with its answer on the first sign-in only (never again):
// {"name":{"firstName":"..","lastName":".."},"email":".."}. The browser posts it, nothing signs it:
// only the names are taken (for a new account), never the email, which comes from the id_token.

export interface PostedNames {
  given_name?: string;
  family_name?: string;
}

const name = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 100) : undefined);

export function postedNames(raw: unknown): PostedNames {
  if (typeof raw !== 'string' || raw.length > 4096) return {};
  let user: unknown;
  try {
    user = JSON.parse(raw);
  } catch {
    return {};
  }
  const n = (user as { name?: unknown } | null)?.name;
  if (typeof n !== 'object' || n === null) return {};
  const { firstName, lastName } = n as Record<string, unknown>;
  return { given_name: name(firstName), family_name: name(lastName) };
}

/** True when a write failed on a UNIQUE constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export const bool = (v: number | boolean | null | undefined): boolean => v === 1 || v === true;
export const int = (v: boolean): number => (v ? 1 : 0);

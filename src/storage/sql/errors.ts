/** True when a write failed on a UNIQUE constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string };
  return (
    err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * True when PostgreSQL refused a text value it cannot hold (a NUL character: 22021; a character the
 * database's encoding lacks: 22P05). SQLite stores such text as it is. Input validation keeps NUL out
 * of the fields Ward reads; this is the net under whatever it missed.
 */
export function isUnstorableText(e: unknown): boolean {
  const err = e as { code?: string };
  return err?.code === '22021' || err?.code === '22P05';
}

export const bool = (v: number | boolean | null | undefined): boolean => v === 1 || v === true;
export const int = (v: boolean): number => (v ? 1 : 0);

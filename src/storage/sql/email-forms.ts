import { type SqlBool, sql } from 'kysely';
import type { Engine } from '../connect.js';

/**
 * True for an email column whose value may differ from its normalised form (accounts/identifiers.ts,
 * docs/security.md "Stored addresses"): non-ASCII characters or a trailing dot. Addresses stored
 * before issue 33 were trimmed and lower-cased only; the others are already in the one form.
 */
export const mayNeedNormalisation = (engine: Engine, column: string) =>
  engine === 'sqlite'
    ? sql<SqlBool>`(${sql.ref(column)} glob '*[^ -~]*' or ${sql.ref(column)} like '%.')`
    : sql<SqlBool>`(${sql.ref(column)} ~ '[^ -~]' or ${sql.ref(column)} like '%.')`;

/** Where a pass over the users' addresses stopped: they are read oldest first (created_at, then id). */
export interface EmailCursor {
  created_at: number;
  id: string;
}

/**
 * A row read with the columns of a joined table under their own names (`user_…`, `profile_…`), less
 * those columns: a plain copy of the rest. (Object rest destructuring, or `delete`, over rows this wide
 * runs V8's slow generic path and leaves objects in dictionary mode that the token paths read again.)
 */
export function withoutColumns<R extends object, K extends string>(row: R, joined: ReadonlySet<K>): Omit<R, K> {
  const rest: Record<string, unknown> = {};
  for (const k in row) if (!joined.has(k as string as K)) rest[k] = row[k];
  return rest as Omit<R, K>;
}

/**
 * The columns `columns` of a joined table read under `prefix` (`profile_user_id`, …) as that table's row
 * (null when the join found none: its `key` column is null), and the row without them.
 */
export function splitPrefixed<R extends object, C extends string, K extends string>(
  row: R,
  prefix: string,
  columns: readonly C[],
  prefixed: ReadonlySet<K>,
  key: C,
): { part: Record<C, unknown> | null; rest: Omit<R, K> } {
  const part = {} as Record<C, unknown>;
  for (const c of columns) part[c] = (row as Record<string, unknown>)[`${prefix}${c}`];
  return { part: part[key] === null ? null : part, rest: withoutColumns(row, prefixed) };
}

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

/**
 * DataLoader batch functions must return one result per key, in key order (databases return rows in
 * table order). These two helpers are the only way our loaders turn rows into that shape.
 */
export function byKeys<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): (R | null)[] {
  const index = new Map<K, R>();
  for (const row of rows) index.set(keyOf(row), row);
  return keys.map((key) => index.get(key) ?? null);
}

export function groupByKeys<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): R[][] {
  const groups = new Map<K, R[]>();
  for (const key of keys) groups.set(key, []);
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key) ?? []);
}

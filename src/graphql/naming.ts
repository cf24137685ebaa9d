/**
 * The one naming rule between GraphQL (camelCase) and REST (snake_case). snake_case words join with a
 * capital; a digit run is its own word (per_1000 <-> per1000) except after a one-letter word (f33).
 * test/unit/naming.test.ts proves camel(snake(x)) === x for every field and argument of the schema.
 */
const snakeCache = new Map<string, string>();
/** The schema's names fit many times over; client-sent body keys pass through too, so the cache must not grow with them. */
export const SNAKE_CACHE_MAX = 10_000;

/** Entries in the cache (for the test that a flood of distinct names cannot grow it without bound). */
export const snakeCacheSize = (): number => snakeCache.size;

export function snake(camelName: string): string {
  let cached = snakeCache.get(camelName);
  if (cached === undefined) {
    const words = camelName.match(/_+|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [camelName];
    const out: string[] = [];
    for (const word of words) {
      const lower = word.toLowerCase();
      const previous = out[out.length - 1];
      if (/^\d/.test(word) && previous !== undefined && /^[a-z]$/.test(previous)) out[out.length - 1] = previous + lower;
      else out.push(lower);
    }
    cached = out.join("_").replace(/^(_+)_/, "$1");
    if (snakeCache.size < SNAKE_CACHE_MAX) snakeCache.set(camelName, cached);
  }
  return cached;
}

export function camel(snakeName: string): string {
  const lead = /^_*/.exec(snakeName)?.[0] ?? "";
  const [first, ...rest] = snakeName.slice(lead.length).split("_");
  return lead + first + rest.map((w) => (w ? w[0].toUpperCase() + w.slice(1) : "")).join("");
}

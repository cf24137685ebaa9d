/**
 * SQL as values (pg-sql2 style): `sql` is a tagged template whose interpolations are parameters, never
 * spliced text, and whose interpolated fragments compose. `compile` writes a fragment into a statement's
 * `SqlParams`, so fragments slot into statements built with placeholders (list-kit pageSql).
 *
 *   const f = sql`d.state = ${state}`;                 // one parameter
 *   sql.join([f, sql`d.county = ${county}`], " AND ") // fragments compose
 *   sql.raw("d.name")                                  // trusted text: code constants only, never input
 */
import type { SqlParams } from "./sql";

/** A value written once in a statement however often its fragments use it (`sql.value`). */
class SharedValue {
  constructor(readonly value: unknown) {}
}

/** An immutable SQL fragment: text parts around values (parameters, shared values or nested fragments). */
export class SqlFragment {
  /** `parts.length === values.length + 1`. */
  constructor(
    readonly parts: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/** A fragment from a template: `${x}` is a parameter, or the fragment `x` when it is one. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return new SqlFragment(strings, values);
}

/** Trusted SQL text (a column, an operator from code): never a caller's value. */
sql.raw = (text: string): SqlFragment => new SqlFragment([text], []);

/** The fragments joined by `separator` (trusted text). */
sql.join = (fragments: readonly SqlFragment[], separator: string): SqlFragment => {
  const parts: string[] = [""];
  const values: unknown[] = [];
  fragments.forEach((fragment, n) => {
    if (n) parts[parts.length - 1] += separator;
    values.push(fragment);
    parts.push("");
  });
  return new SqlFragment(parts, values);
};

/** A parameter used several times (in a filter's condition and its check): one placeholder per statement. */
sql.value = (value: unknown): SharedValue => new SharedValue(value);

const placeholders = new WeakMap<SqlParams, Map<SharedValue, string>>();

/** The fragment's text, its values added to `p` in the order they appear (placeholders $n). */
export function compile(fragment: SqlFragment, p: SqlParams): string {
  let text = fragment.parts[0];
  fragment.values.forEach((value, n) => {
    text += placeholder(value, p) + fragment.parts[n + 1];
  });
  return text;
}

function placeholder(value: unknown, p: SqlParams): string {
  if (value instanceof SqlFragment) return compile(value, p);
  if (!(value instanceof SharedValue)) return p.add(value);
  let shared = placeholders.get(p);
  if (!shared) placeholders.set(p, (shared = new Map()));
  let name = shared.get(value);
  if (!name) shared.set(value, (name = p.add(value.value)));
  return name;
}

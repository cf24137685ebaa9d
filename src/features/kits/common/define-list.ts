/**
 * `defineList`: a list resource's filters and sorts, each declared once. A filter declaration carries its
 * GraphQL input type, its description and its SQL (`sql` fragments, src/db/sql-template.ts); a sort its
 * column and description. From them follow the filter input type (`<Name>Filter`), the sort enum
 * (`<Name>OrderField`), the list arguments, the clauses the service runs (list-kit FilterClause) and the
 * dictionary entries of both types. REST reads the filter input type from the schema: its fields are the
 * list route's query parameters (snake_case), its descriptions the OpenAPI parameters' (rest-adapter/coerce.ts).
 *
 * Adding a filter is one entry in `filters` (docs/architecture.md has a worked example).
 */
import { Extensions, Field, Float, InputType, Int, registerEnumType, type ClassType } from "type-graphql";
import type { SqlParams } from "../../../db/sql";
import { compile, sql, type SqlFragment } from "../../../db/sql-template";
import { orderEnum } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { AppError, BadRequestError } from "../../../graphql/errors";
import { snake } from "../../../graphql/naming";
import { REST_PARAMETERS_EXTENSION } from "../../../graphql/rest";
import { DateScalar, DateTimeScalar, UUIDScalar } from "../../../graphql/scalars";
import {
  checkFedId,
  checkList,
  checkRange,
  checkState,
  checkText,
  compileFilter,
  containsPattern,
  ListArgs,
  MAX_FED_IDS,
  sortClause,
  updatedSinceValue,
  type FilterCheck,
  type FilterClause,
  type ListArgsOf,
} from "./list-kit";
import { GradeLevel, LOCALE_CODE_PREFIX, LocaleBucket, PipelineStatus } from "./enums";

// ---------------------------------------------------------------------------------------------------
// Filter value types: the GraphQL input type and the TypeScript value it gives

/** A filter's input type: its GraphQL type (TypeGraphQL's type function) and, as a phantom, its value. */
export interface FilterType<V> {
  graphql: () => unknown;
  readonly value?: V;
}

const type = <V>(graphql: () => unknown): FilterType<V> => ({ graphql });

export const Text = type<string>(() => String);
export const Bool = type<boolean>(() => Boolean);
export const IntValue = type<number>(() => Int);
export const FloatValue = type<number>(() => Float);
export const Uuid = type<string>(() => UUIDScalar);
export const Instant = type<Date>(() => DateTimeScalar);
/** A calendar date, YYYY-MM-DD. */
export const CalendarDate = type<string>(() => DateScalar);
export const Texts = type<string[]>(() => [String]);
export const Uuids = type<string[]>(() => [UUIDScalar]);
/** A value of a registered enum (`E`: the TypeScript enum object). */
export const enumOf = <E extends Record<string, string>>(e: E): FilterType<E[keyof E]> => type(() => e);
/** Values of a registered enum. */
export const enumsOf = <E extends Record<string, string>>(e: E): FilterType<E[keyof E][]> => type(() => [e]);

// ---------------------------------------------------------------------------------------------------
// Declarations

/** SQL of a filter: conditions (ANDed), or none; `check` a check of the value that needs the database (list-kit FilterCheck). */
export type Where =
  | SqlFragment
  | readonly SqlFragment[]
  | { where: SqlFragment | readonly SqlFragment[]; check: { sql: SqlFragment; fail: (value: unknown) => AppError } }
  | null
  | undefined
  | false;

export interface FilterField<V = unknown> {
  type: FilterType<V>;
  description: string;
}

/**
 * One declaration of a list's filter: the input fields it owns (a range owns two, the intelligence group
 * eight) and its SQL over the filter's values (`context`: what the list passes, the viewer).
 */
export interface FilterGroup<F, C = unknown> {
  fields: { [K in keyof F]-?: FilterField };
  where: (filter: F, context: C) => Where;
}

type Value<T> = T extends FilterType<infer V> ? V : never;

/** One input field `name` of `type`, with its SQL for a given value (not called when the field is absent). */
export function filter<K extends string, T extends FilterType<unknown>, C = unknown>(
  name: K,
  type: T,
  description: string,
  where: (value: Value<T>, context: C) => Where,
): FilterGroup<{ [P in K]?: Value<T> | null }, C> {
  return {
    fields: { [name]: { type, description } } as never,
    where: (f, context) => {
      const value = (f as Record<string, unknown>)[name];
      return value != null && where(value as Value<T>, context);
    },
  };
}

/** One input field whose SQL runs whether or not it is given (`fallback`: its value when absent, e.g. a default status). */
export function defaultedFilter<K extends string, T extends FilterType<unknown>>(
  name: K,
  type: T,
  description: string,
  fallback: Value<T>,
  where: (value: Value<T>) => Where,
): FilterGroup<{ [P in K]?: Value<T> | null }> {
  return {
    fields: { [name]: { type, description } } as never,
    where: (f) => where(((f as Record<string, unknown>)[name] ?? fallback) as Value<T>),
  };
}

/** Several input fields checked and compiled together (a pair whose values must agree). */
export function filterGroup<const D extends Record<string, FilterField<unknown>>, C = unknown>(
  fields: D,
  where: (filter: { [K in keyof D]?: (D[K] extends FilterField<infer V> ? V : never) | null }, context: C) => Where,
): FilterGroup<{ [K in keyof D]?: (D[K] extends FilterField<infer V> ? V : never) | null }, C> {
  return { fields: fields as never, where };
}

/**
 * min<Name> <= column <= max<Name>, both optional, non-negative (integers when `integer`) unless `signed`;
 * 400s name min_<name> / max_<name>.
 */
export function rangeFilter<N extends string>(
  name: N,
  column: SqlFragment,
  options: { integer: boolean; min: string; max: string; signed?: boolean },
): FilterGroup<{ [P in `min${Capitalize<N>}` | `max${Capitalize<N>}`]?: number | null }> {
  const suffix = name[0].toUpperCase() + name.slice(1);
  const minKey = `min${suffix}`;
  const maxKey = `max${suffix}`;
  const valueType = options.integer ? IntValue : FloatValue;
  return {
    fields: {
      [minKey]: { type: valueType, description: options.min },
      [maxKey]: { type: valueType, description: options.max },
    } as never,
    where: (f) => {
      const min = (f as Record<string, number | null | undefined>)[minKey];
      const max = (f as Record<string, number | null | undefined>)[maxKey];
      if (options.signed) checkSignedRange(snake(name), min, max);
      else checkRange(snake(name), min, max, options.integer);
      return [...(min != null ? [sql`${column} >= ${min}`] : []), ...(max != null ? [sql`${column} <= ${max}`] : [])];
    },
  };
}

/** Bounds that may be negative (money: a 990 can report negative revenue): finite and ordered. */
function checkSignedRange(name: string, min: number | null | undefined, max: number | null | undefined): void {
  for (const [which, value] of [
    ["min", min],
    ["max", max],
  ] as const) {
    if (value != null && !Number.isFinite(value)) throw new BadRequestError(`${which}_${name} must be a number`);
  }
  if (min != null && max != null && min > max) throw new BadRequestError(`min_${name} must not exceed max_${name}`);
}

/** `column` contains the text, ignoring case; the caller's % and _ taken literally (400s name the parameter). */
export const containsFilter = <K extends string>(name: K, column: SqlFragment, description: string) =>
  filter(name, Text, description, (text) => sql`${column} ILIKE ${containsPattern(checkText(snake(name), text))}`);

/** `column` equals the text, ignoring case. */
export const equalsIgnoringCaseFilter = <K extends string>(name: K, column: SqlFragment, description: string) =>
  filter(name, Text, description, (text) => sql`lower(${column}) = lower(${checkText(snake(name), text)})`);

/**
 * `column` is one of the values (`sqlType`: their SQL type); `nonEmpty`: an empty list (GraphQL can pass one)
 * is a 400 rather than an empty page.
 */
export const anyOfFilter = <K extends string, T extends FilterType<string[]>>(
  name: K,
  type: T,
  column: SqlFragment,
  sqlType: "uuid" | "text",
  description: string,
  options: { nonEmpty?: boolean } = {},
) =>
  filter(name, type, description, (values) => {
    if (options.nonEmpty && !(values as string[]).length)
      throw new BadRequestError(`${snake(name)} must be a non-empty comma-separated list`);
    return sql`${column} = ANY(${values}::${sql.raw(sqlType)}[])`;
  });

/** `state`: two-letter abbreviations, any of them (each checked). */
export const statesFilter = (column: SqlFragment, description: string) =>
  filter("state", Texts, description, (states) => sql`${column} = ANY(${checkList("state", states, checkState)}::text[])`);

/** `state`: one two-letter abbreviation (checked). */
export const stateFilter = (column: SqlFragment) =>
  filter("state", Text, "Two-letter state abbreviation.", (state) => sql`${column} = ${checkState(state)}`);

/** `status` of a record the extraction pipeline fills (PipelineStatus); omitted, any. */
export const pipelineStatusFilter = (column: SqlFragment) =>
  filter(
    "status",
    enumOf(PipelineStatus),
    "Only records whose extraction pipeline status is this: pending, processing, completed or error (omitted: any status).",
    (status) => sql`${column} = ${status}`,
  );

/**
 * `status` of a roster whose records stay when they leave it: `active` when omitted, `all` for no
 * condition, any other value `column` equals.
 */
export const activeStatusFilter = <E extends { active: string; all: string }>(statuses: E, column: SqlFragment, description: string) =>
  defaultedFilter("status", enumOf(statuses), description, statuses.active as E[keyof E], (status) =>
    status === statuses.all ? null : sql`${column} = ${status}`,
  );

/** `locale`: the NCES locale bucket, the first digit of the locale code `column`. */
export const localeFilter = (column: SqlFragment, description: string) =>
  filter("locale", enumOf(LocaleBucket), description, (locale) => sql`left(${column}, 1) = ${LOCALE_CODE_PREFIX[locale]}`);

/** `gradeLevels`: the grade buckets `column` holds include any of these. */
export const gradeLevelsFilter = (column: SqlFragment, description: string) =>
  filter("gradeLevels", enumsOf(GradeLevel), description, (levels) => sql`${column} && ${levels}::text[]`);

/**
 * `county`: exact names, any case, with or without a trailing "County" (rosters write "Lancaster",
 * "LANCASTER" or "Lancaster County").
 */
export const countyFilter = (column: SqlFragment, description: string) =>
  filter("county", Texts, description, (counties) => {
    const names = checkList("county", counties, (c) =>
      checkText("county", c)
        .toLowerCase()
        .replace(/\s+county$/, ""),
    );
    return sql`regexp_replace(lower(${column}), '\\s+county$', '') = ANY(${names}::text[])`;
  });

/** `city`: exact city names, any case, any of them. */
export const cityFilter = (column: SqlFragment, description: string) =>
  filter("city", Texts, description, (names) => {
    const cities = checkList("city", names, (c) => checkText("city", c).toLowerCase());
    return sql`lower(${column}) = ANY(${cities}::text[])`;
  });

/** Our ids (`ids`): `column` is one of them. */
export const idsFilter = (column: SqlFragment, description: string) =>
  filter("ids", Uuids, description, (ids) => sql`${column} = ANY(${ids}::uuid[])`);

/**
 * `fedIds`: `column` (an NCES id) is one of the caller's: district ids are 7 digits (LEAID), school ids 12
 * (NCESSCH). Each is checked, so a typo is a 400 naming it instead of an empty page.
 */
export const fedIdsFilter = (column: SqlFragment, digits: 7 | 12, description: string) =>
  filter("fedIds", Texts, description, (values) => {
    if (values.length > MAX_FED_IDS) throw new BadRequestError(`fed_ids must list at most ${MAX_FED_IDS} ids; got ${values.length}`);
    const ids = checkList("fed_ids", values, (id) => checkFedId("fed_ids", id, digits));
    return sql`${column} = ANY(${ids}::text[])`;
  });

/**
 * `updatedSince` (incremental sync): rows whose `column` (updated_at / last_updated_at, set by every
 * ingestion and write) is at or after the instant. Inclusive, so a row written in the same millisecond
 * as the previous sync's newest is read again rather than missed.
 */
export const updatedSinceFilter = (column: SqlFragment, description: string) =>
  filter("updatedSince", Instant, description, (value) => {
    const since = updatedSinceValue(value);
    return since != null && sql`${column} >= ${since}::timestamptz`;
  });

/**
 * `column` is an entity of the caller's list (one id) or of any of its lists (several), lists of `entityType`.
 * Checked in the same statement: a list id that is not a list of the caller's organization is a 404 naming it
 * (another organization's list is never revealed, and never silently matches nothing), a list of another
 * entity type a 400.
 */
export function callerListsFilter<K extends string, T extends typeof Uuid | typeof Uuids>(
  name: K,
  type: T,
  column: SqlFragment,
  entityType: "district" | "school" | "contact",
  description: string,
): FilterGroup<{ [P in K]?: Value<T> | null }, { organizationId: string }> {
  return filter(name, type, description, (value: string | string[], viewer: { organizationId: string }) => {
    const param = snake(name);
    const ids = sql.value(Array.isArray(value) ? checkList(param, value, (id) => id) : [value]);
    const org = sql.value(viewer.organizationId);
    return {
      where: sql`${column} IN (SELECT li.entity_id FROM list_items li JOIN lists l ON l.id = li.list_id
                      WHERE l.id = ANY(${ids}::uuid[]) AND l.organization_id = ${org}::uuid)`,
      check: {
        // The ids that are not the caller's lists of this entity type, in the order given, with the type of those that are its lists.
        sql: sql`(SELECT json_agg(json_build_object('id', wanted.id, 'entity_type', l.entity_type) ORDER BY wanted.n)
                 FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS wanted(id, n)
                 LEFT JOIN lists l ON l.id = wanted.id AND l.organization_id = ${org}::uuid
                WHERE l.entity_type IS DISTINCT FROM ${sql.raw(`'${entityType}'`)})`,
        fail: (found) => listCheckFailure(param, entityType, found),
      },
    };
  }) as never;
}

function listCheckFailure(name: string, entityType: string, found: unknown): AppError {
  const wrong = (typeof found === "string" ? JSON.parse(found) : found) as { id: string; entity_type: string | null }[];
  const missing = wrong.find((w) => w.entity_type === null);
  if (missing) return new AppError("NOT_FOUND", `${name}: list ${missing.id} not found`);
  const other = wrong[0];
  return new BadRequestError(`${name}: list ${other.id} is a list of ${other.entity_type}s, not of ${entityType}s`);
}

// ---------------------------------------------------------------------------------------------------
// The list

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
// Any filter's declaration; FilterOfGroups recovers each one's type.
type AnyGroup<C> = FilterGroup<any, C>;
type FilterOfGroups<G extends readonly AnyGroup<never>[]> = UnionToIntersection<
  G[number] extends infer X ? (X extends FilterGroup<infer F, never> ? F : never) : never
>;

export interface SortField {
  /** The column of the list's table (the alias is the service's). */
  column: string;
  description: string;
}

export interface ListDefinition<G extends readonly AnyGroup<C>[], O extends string, C> {
  /** The GraphQL type names: `<name>Filter`, `<name>OrderField`. */
  name: string;
  /** The items in words (order enum's description: "Sort columns of districts"). */
  items: string;
  /** The filter input type's description. */
  description: string;
  filters: G;
  /** Sort field -> its description (the column of the same name), or its column and description. */
  sorts: Record<O, SortField | string>;
  defaultSort: NoInfer<O>;
  maxLimit: number;
  defaultLimit?: number;
  /** Takes a metric query (districts, schools). */
  metricQuery?: boolean;
  /** The context the clauses get (the viewer); only a type. */
  context?: C;
}

export interface List<F, O extends string, C> {
  name: string;
  /** The filter input type (`<name>Filter`), the sort enum (`<name>OrderField`) and the list arguments. */
  Filter: ClassType<F & object>;
  OrderField: { [K in O]: K };
  Args: ClassType<ListArgsOf<F, O>>;
  /** The filter's SQL, in declaration order (so the first bad parameter is the one reported; list-kit compileFilter). */
  clauses: FilterClause<F, C>[];
  /** Sort field -> column. */
  orderColumns: Record<O, string>;
  /** ORDER BY the sort field (the default when none) over `alias`, by the sort contract (list-kit sortClause). */
  order(alias: string, orderBy: O | null | undefined, ascending: boolean | null | undefined): string;
  /** The conditions of `filter` (none given: of an empty one), its parameters added to `p` (list-kit compileFilter). */
  where(filter: F | null | undefined, p: SqlParams, context: C, checks?: FilterCheck[]): string[];
  defaultOrder: O;
  maxLimit: number;
  /** Input field -> its declaration, in declaration order (the list-contract suite reads it). */
  fields: Record<string, FilterField>;
  /** The descriptions of `<name>Filter` and `<name>OrderField` for the field dictionary. */
  dictionary: Dictionary;
}

export function defineList<const G extends readonly AnyGroup<C>[], O extends string, C = unknown>(
  definition: ListDefinition<G, O, C>,
): List<Partial<FilterOfGroups<G>>, O, C> {
  type F = Partial<FilterOfGroups<G>>;
  const filterName = `${definition.name}Filter`;
  const orderName = `${definition.name}OrderField`;
  const fields: Record<string, FilterField> = {};
  for (const group of definition.filters) {
    for (const [key, field] of Object.entries(group.fields as Record<string, FilterField>)) {
      if (key in fields) throw new Error(`${filterName}: ${key} is declared twice`);
      fields[key] = field;
    }
  }

  // The input type, built as ListArgs builds its ArgsType (fields in declaration order).
  const Filter = { [filterName]: class {} }[filterName];
  for (const [key, field] of Object.entries(fields)) {
    Field(field.type.graphql as never, { nullable: true })(Filter.prototype, key);
  }
  Extensions({ [REST_PARAMETERS_EXTENSION]: true })(Filter);
  InputType(filterName)(Filter);

  const sorts = Object.keys(definition.sorts) as O[];
  const sortOf = (sort: O): SortField => {
    const declared = definition.sorts[sort];
    return typeof declared === "string" ? { column: sort, description: declared } : declared;
  };
  const OrderField = Object.fromEntries(sorts.map((s) => [s, s])) as { [K in O]: K };
  registerEnumType(OrderField, { name: orderName });

  const Args = ListArgs<F, O>({
    filter: Filter as ClassType<F & object>,
    orderBy: { type: OrderField, default: definition.defaultSort },
    maxLimit: definition.maxLimit,
    defaultLimit: definition.defaultLimit,
    metricQuery: definition.metricQuery,
  });

  const clauses = definition.filters.map(
    (group): FilterClause<F, C> =>
      (f, p, context) =>
        compileWhere(group.where(f as never, context as never), p),
  );

  const orderColumns = Object.fromEntries(sorts.map((s) => [s, sortOf(s).column])) as Record<O, string>;

  return {
    name: definition.name,
    Filter: Filter as ClassType<F & object>,
    OrderField,
    Args,
    clauses,
    orderColumns,
    order: (alias, orderBy, ascending) => sortClause(alias, orderColumns[orderBy ?? definition.defaultSort], ascending),
    where: (filter, p, context, checks) => compileFilter(clauses, filter ?? ({} as F), p, context, checks),
    defaultOrder: definition.defaultSort,
    maxLimit: definition.maxLimit,
    fields,
    dictionary: {
      [filterName]: {
        [TYPE]: definition.description,
        ...Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.description])),
      },
      [orderName]: orderEnum(definition.items, Object.fromEntries(sorts.map((s) => [s, sortOf(s).description]))),
    },
  };
}

/** A declaration's SQL written into the statement's parameters (list-kit clause form). */
function compileWhere(where: Where, p: SqlParams): ReturnType<FilterClause<unknown>> {
  if (!where) return null;
  if (Array.isArray(where)) return (where as readonly SqlFragment[]).map((w) => compile(w, p));
  if ("check" in where) {
    const conditions = Array.isArray(where.where)
      ? (where.where as readonly SqlFragment[]).map((w) => compile(w, p))
      : compile(where.where as SqlFragment, p);
    const check: FilterCheck = { sql: compile(where.check.sql, p), fail: where.check.fail };
    return { where: conditions, check };
  }
  return compile(where as SqlFragment, p);
}

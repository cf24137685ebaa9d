/**
 * Values for GraphQL input types, derived from the type alone: a JSON value (a GraphQL variable, a REST JSON body)
 * or a REST parameter's text. Two modes per request: `hostile: false` gives values of the declared type (valid
 * ones, and boundaries the type admits: unicode, edge dates, int4 edges) so requests get past validation to the
 * services and the database; `hostile: true` mixes in the wrong JSON type, bad enum values, unknown input fields,
 * missing required fields, oversized lists and malformed text. A few arguments follow a grammar of their own,
 * found by name: the metric query, summary items and years (metric-query.ts). Ids are drawn from the data's ids
 * of the kind the argument names (`districtId` -> District, `id` -> the field's own type) when there are any.
 */
import fc from "fast-check";
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputField,
  type GraphQLInputType,
} from "graphql";
import { aggregateItem, metricEntityOf, metricQueryText, summaryYear } from "./metric-query";
import {
  anyString,
  BOOLEAN_TEXTS,
  dateText,
  dateTimeText,
  floatText,
  floatValue,
  intText,
  intValue,
  jsonText,
  nested,
  RawJson,
  rarely,
  uuidText,
  wrongJson,
} from "./values";

/** What the fuzzer knows of the data under test: ids and NCES ids by GraphQL type name, strings it holds, its school years. */
export interface FuzzData {
  ids: Record<string, string[]>;
  words: string[];
  fedIds: Record<string, string[]>;
  years: number[];
}

/** Where a value goes: the argument or input field name, the field it is an argument of, and that field's type. */
export interface Slot {
  name: string;
  /** The root field (`districts`, `schoolAggregates`): whose metrics a metric query names. */
  field?: string;
  /** The named type of the field (`District`): whose ids `id` wants. */
  owner?: string;
}

/** The ids an argument likely wants: `districtId` / `districtIds` -> District, `parentProgramId` -> ...Program, `id` -> the owner. */
export function idsFor(data: FuzzData, slot: Slot): { known: string[]; others: string[] } {
  const all = Object.values(data.ids).flat();
  const stem = /^(.*?)(Ids?|_ids?)$/.exec(slot.name)?.[1];
  const types = Object.keys(data.ids);
  if (stem === "entity") return { known: ["District", "School", "Contact"].flatMap((t) => data.ids[t] ?? []), others: all };
  const wanted = (slot.name === "id" || !stem ? slot.owner : stem)?.toLowerCase();
  const type = wanted
    ? (types.find((t) => t.toLowerCase() === wanted) ?? types.find((t) => t.toLowerCase().endsWith(wanted.replace(/^parent/, ""))))
    : undefined;
  const known = type ? data.ids[type]! : [];
  return { known: known.length ? known : all, others: all };
}

const DATE = "Date";
const DATE_TIME = "DateTimeISO";
const UUID = "UUID";
const JSON_SCALAR = "JSON";

/** Valid values, or (hostile) now and then `bad`. */
const mixed = <T>(hostile: boolean, valid: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, weight = 8): fc.Arbitrary<T> =>
  hostile ? fc.oneof({ arbitrary: valid, weight }, { arbitrary: bad, weight: 1 }) : valid;

/** A grammar of its own for an argument of this name, as text, or undefined. */
function grammarText(slot: Slot, data: FuzzData, hostile: boolean): fc.Arbitrary<string> | undefined {
  if (slot.name === "metricQuery") return metricQueryText(metricEntityOf(slot.field), data.years, hostile);
  if (slot.name === "year") return summaryYear(data.years, hostile);
  if (/^fedIds?$/.test(slot.name)) {
    const own = (slot.owner && data.fedIds[slot.owner]) || Object.values(data.fedIds).flat();
    return mixed(
      hostile,
      fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 4 }, fc.constantFrom("0000000", "000000000000")),
      anyString([], true),
      3,
    );
  }
  // Web addresses (webhooks' `url` ...): https ones mostly; hostile: private hosts, other schemes, malformed.
  if (/(^u|U)rl$/.test(slot.name))
    return mixed(
      hostile,
      fc.oneof(fc.constantFrom("https://hooks.example.org/fuzz", "https://example.com/a?b=c#d"), fc.webUrl()),
      fc.constantFrom(
        "http://127.0.0.1/",
        "http://169.254.169.254/latest",
        "https://localhost:1/",
        "ftp://example.com/",
        "javascript:alert(1)",
        "https://",
        "not a url",
        `https://example.com/${"a".repeat(5000)}`,
      ),
      4,
    );
  return undefined;
}

/** A REST parameter's text for a variable of `type` (query string or the POST twins' string bodies). */
export function textFor(type: GraphQLInputType, slot: Slot, data: FuzzData, hostile: boolean): fc.Arbitrary<string> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item =
      slot.name === "aggregates" ? aggregateItem(metricEntityOf(slot.field), hostile) : textFor(inner.ofType, slot, data, hostile);
    return mixed(
      hostile,
      fc.array(item, { minLength: 1, maxLength: 4 }).map((items) => items.join(",")),
      fc.oneof(
        fc.constantFrom("", ",", " , ,", "a,,b"),
        fc.array(item, { minLength: 1001, maxLength: 1001 }).map((items) => items.join(",")),
      ),
      5,
    );
  }
  const grammar = grammarText(slot, data, hostile);
  if (grammar) return grammar;
  if (isEnumType(inner)) {
    const names = inner.getValues().map((v) => v.name);
    return mixed(
      hostile,
      fc.constantFrom(...names),
      fc.oneof(fc.constantFrom(...names.map((n) => n.toUpperCase()), "", "unknown_value"), anyString([], true)),
    );
  }
  if (inner === GraphQLInt) return intText(hostile);
  if (inner === GraphQLFloat) return floatText(hostile);
  if (inner === GraphQLBoolean) return mixed(hostile, fc.constantFrom("true", "false"), fc.constantFrom(...BOOLEAN_TEXTS));
  if (inner.name === UUID) {
    const { known, others } = idsFor(data, slot);
    return uuidText(known, others, hostile);
  }
  if (inner.name === DATE) return dateText(hostile);
  if (inner.name === DATE_TIME) return dateTimeText(hostile);
  if (inner.name === JSON_SCALAR) return wrongJson().map(jsonText);
  if (inner === GraphQLString || inner === GraphQLID) return anyString(data.words, hostile);
  return anyString(data.words, hostile);
}

export interface JsonOptions {
  /** How an input field's name is written (REST bodies: snake_case). */
  key: (field: string) => string;
  hostile: boolean;
  depth?: number;
}

/** A JSON value for a variable or body property of `type`; hostile: now and then of another type, or null where required. */
export function jsonFor(type: GraphQLInputType, slot: Slot, data: FuzzData, options: JsonOptions): fc.Arbitrary<unknown> {
  const depth = options.depth ?? 0;
  const nullable = !isNonNullType(type);
  const valid = typedJson(isNonNullType(type) ? type.ofType : type, slot, data, { ...options, depth: depth + 1 });
  if (!options.hostile) return nullable ? fc.oneof({ arbitrary: valid, weight: 12 }, fc.constant(null)) : valid;
  return fc.oneof({ arbitrary: valid, weight: 16 }, { arbitrary: wrongJson(), weight: 2 }, { arbitrary: fc.constant(null), weight: 1 });
}

function typedJson(inner: GraphQLInputType, slot: Slot, data: FuzzData, options: JsonOptions): fc.Arbitrary<unknown> {
  const { hostile } = options;
  if (isListType(inner)) {
    const item =
      slot.name === "aggregates" ? aggregateItem(metricEntityOf(slot.field), hostile) : jsonFor(inner.ofType, slot, data, options);
    return mixed<unknown>(
      hostile,
      fc.oneof({ arbitrary: fc.array(item, { maxLength: 4 }), weight: 8 }, item),
      // GraphQL coerces a single value to a list of one; 1,001 is over every list's cap.
      fc.array(item, { minLength: 1001, maxLength: 1001 }),
      10,
    );
  }
  if (isInputObjectType(inner)) return inputObject(Object.values(inner.getFields()), inner.name, slot, data, options);
  const grammar = grammarText(slot, data, hostile);
  if (grammar) return grammar;
  if (isEnumType(inner)) {
    const names = inner.getValues().map((v) => v.name);
    return mixed(hostile, fc.constantFrom(...names), fc.constantFrom("", "UNKNOWN", names[0]!.toUpperCase()));
  }
  if (inner === GraphQLInt) return intValue(hostile);
  if (inner === GraphQLFloat) return floatValue(hostile);
  if (inner === GraphQLBoolean) return mixed<unknown>(hostile, fc.boolean(), fc.constantFrom("true", 1, 0));
  if (inner === GraphQLID) return fc.oneof(anyString(data.words, hostile), intValue(hostile));
  if (inner.name === JSON_SCALAR)
    return mixed<unknown>(
      hostile,
      fc.json({ maxDepth: 3 }).map((text) => new RawJson(text)),
      fc.oneof(wrongJson(), fc.constant(nested(60)), fc.constant(nested(70))),
      4,
    );
  return textFor(inner, slot, data, hostile);
}

/**
 * An input object: its required fields, some optional ones, nested objects to `depth` 4; hostile: now and then a
 * required field missing, or a field the type does not have.
 */
function inputObject(
  fields: GraphQLInputField[],
  typeName: string,
  slot: Slot,
  data: FuzzData,
  options: JsonOptions,
): fc.Arbitrary<unknown> {
  if ((options.depth ?? 0) > 4) return fc.constant({});
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const field of fields) {
    const key = options.key(field.name);
    model[key] = jsonFor(
      field.type,
      { name: field.name, field: slot.field, owner: typeName.replace(/(Input|Filter)$/, "") },
      data,
      options,
    );
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(key);
  }
  const object = fc.record(model, { requiredKeys: required });
  if (!options.hostile) return object;
  return fc
    .tuple(
      object,
      required.length ? rarely(fc.constantFrom(...required), 6) : fc.constant(undefined),
      rarely(fc.tuple(fc.constantFrom("unknown_field", "Extra", "__proto__", "constructor", "id", "organization_id", ""), wrongJson()), 6),
    )
    .map(([o, dropped, extra]) => {
      const out: Record<string, unknown> = { ...o };
      if (dropped !== undefined) delete out[dropped];
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
}

/**
 * The field dictionary: the one place descriptions of the public GraphQL schema are written (meaning,
 * unit, source, school-year convention, gating). Each area module exports entries keyed by GraphQL type
 * name, then by member: "(type)" for the type itself, a field, input field or enum value by its name,
 * and an argument as "field(argument)". `applyDictionary` writes them onto the built schema before it
 * is printed or served, so schema.graphql, introspection (GraphiQL) and the OpenAPI document
 * (rest-adapter/openapi.ts reads descriptions from the schema) all show the same text.
 *
 * The dictionary is the only source: a description written anywhere else (a TypeGraphQL decorator's
 * `description`, registerEnumType, a scalar's config) is replaced by the dictionary's entry and reported
 * by `dictionaryProblems` as foreign, so the check (test/unit/field-dictionary.test.ts) fails on it.
 */
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";

/** The key of a type's own description. */
export const TYPE = "(type)";

/** Type name -> member key ("(type)", field, enum value, "field(argument)") -> description. */
export type Dictionary = Record<string, Record<string, string>>;

/** Merges area dictionaries; the same key in two of them is a programming error. */
export function mergeDictionaries(...parts: Dictionary[]): Dictionary {
  const merged: Dictionary = {};
  for (const part of parts) {
    for (const [typeName, members] of Object.entries(part)) {
      const target = (merged[typeName] ??= {});
      for (const [key, text] of Object.entries(members)) {
        if (key in target) throw new Error(`field dictionary: ${typeName} ${key} is described twice`);
        target[key] = text;
      }
    }
  }
  return merged;
}

/** A describable element of the schema: its dictionary address and a setter for its description. */
interface Element {
  typeName: string;
  key: string;
  /** The printed path, e.g. District.contacts(limit). */
  path: string;
  description: string | null | undefined;
  set(text: string | undefined): void;
}

function isPublicType(type: GraphQLNamedType): boolean {
  return !type.name.startsWith("__") && !isSpecifiedScalarType(type);
}

/** An element whose description lives on `holder` (a field, argument, input field or enum value), keyed `key` in its type. */
function member(typeName: string, key: string, holder: { description?: string | null }): Element {
  return { typeName, key, path: `${typeName}.${key}`, description: holder.description, set: (t) => (holder.description = t) };
}

/** Every type, field, argument, input field and enum value of the schema, introspection types aside. */
function* elements(schema: GraphQLSchema): Generator<Element> {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isPublicType(type)) continue;
    const typeName = type.name;
    yield { typeName, key: TYPE, path: typeName, description: type.description, set: (text) => (type.description = text) };
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        yield member(typeName, field.name, field);
        for (const arg of field.args) yield member(typeName, `${field.name}(${arg.name})`, arg);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) yield member(typeName, field.name, field);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) yield member(typeName, value.name, value);
    }
  }
}

/** Per described schema: the elements that carried a description before the dictionary was applied. */
const foreignDescriptions = new WeakMap<GraphQLSchema, Set<string>>();

/**
 * Sets every element's description to its dictionary entry (none when the dictionary has none), noting
 * which elements came with a description of their own. Once per schema.
 */
export function applyDictionary(schema: GraphQLSchema, dictionary: Dictionary): void {
  if (foreignDescriptions.has(schema)) return;
  const foreign = new Set<string>();
  for (const element of elements(schema)) {
    if (element.description) foreign.add(element.path);
    const text = dictionary[element.typeName]?.[element.key];
    element.set(text?.trim() ? text : undefined);
  }
  foreignDescriptions.set(schema, foreign);
}

export interface DictionaryProblems {
  /** Elements the dictionary does not describe (no entry, or a blank one). */
  missing: string[];
  /** Dictionary entries naming no element of the schema (renamed or removed members). */
  unknown: string[];
  /**
   * Elements described outside the dictionary: a description present before the dictionary was applied
   * (decorator, registerEnumType, scalar config), or one that differs from the entry afterwards.
   */
  foreign: string[];
}

/** What the check (test/unit/field-dictionary.test.ts) refuses; all empty when the dictionary alone describes the whole schema. */
export function dictionaryProblems(schema: GraphQLSchema, dictionary: Dictionary): DictionaryProblems {
  const before = foreignDescriptions.get(schema);
  const missing: string[] = [];
  const foreign: string[] = [];
  const seen = new Set<string>();
  for (const element of elements(schema)) {
    seen.add(`${element.typeName}\u0000${element.key}`);
    const text = dictionary[element.typeName]?.[element.key];
    if (!text?.trim()) missing.push(element.path);
    const differs = element.description ? element.description !== text : false;
    if (before?.has(element.path) || differs) foreign.push(element.path);
  }
  const unknown: string[] = [];
  for (const [typeName, members] of Object.entries(dictionary)) {
    for (const key of Object.keys(members)) {
      if (!seen.has(`${typeName}\u0000${key}`)) unknown.push(key === TYPE ? typeName : `${typeName}.${key}`);
    }
  }
  return { missing, unknown, foreign };
}

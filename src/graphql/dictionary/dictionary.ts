/**
 * The field dictionary: the one place descriptions of the public GraphQL schema are written (meaning,
 * unit, source, school-year convention, gating). Each area module exports entries keyed by GraphQL type
 * name, then by member: "(type)" for the type itself, a field, input field or enum value by its name,
 * and an argument as "field(argument)". `applyDictionary` writes them onto the built schema before it
 * is printed or served, so schema.graphql, introspection (GraphiQL) and the OpenAPI document
 * (rest-adapter/openapi.ts reads descriptions from the schema) all show the same text.
 *
 * An element keeps a description written in its TypeGraphQL decorator (older code); the dictionary
 * must not describe it a second time (`dictionaryProblems` reports both as a conflict), so every
 * description has exactly one definition.
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
  set(text: string): void;
}

function isPublicType(type: GraphQLNamedType): boolean {
  return !type.name.startsWith("__") && !isSpecifiedScalarType(type);
}

/** Every type, field, argument, input field and enum value of the schema, introspection types aside. */
function* elements(schema: GraphQLSchema): Generator<Element> {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isPublicType(type)) continue;
    const typeName = type.name;
    yield { typeName, key: TYPE, path: typeName, description: type.description, set: (text) => (type.description = text) };
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        yield {
          typeName,
          key: field.name,
          path: `${typeName}.${field.name}`,
          description: field.description,
          set: (t) => (field.description = t),
        };
        for (const arg of field.args) {
          const key = `${field.name}(${arg.name})`;
          yield { typeName, key, path: `${typeName}.${key}`, description: arg.description, set: (t) => (arg.description = t) };
        }
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        yield {
          typeName,
          key: field.name,
          path: `${typeName}.${field.name}`,
          description: field.description,
          set: (t) => (field.description = t),
        };
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) {
        yield {
          typeName,
          key: value.name,
          path: `${typeName}.${value.name}`,
          description: value.description,
          set: (t) => (value.description = t),
        };
      }
    }
  }
}

const applied = new WeakSet<GraphQLSchema>();
/** Decorator descriptions seen before the dictionary was applied (to tell conflicts after). */
const ownDescriptions = new WeakMap<GraphQLSchema, Set<string>>();

/** Writes the dictionary's descriptions onto the schema's elements that have none of their own. Once per schema. */
export function applyDictionary(schema: GraphQLSchema, dictionary: Dictionary): void {
  if (applied.has(schema)) return;
  applied.add(schema);
  const own = new Set<string>();
  for (const element of elements(schema)) {
    if (element.description) own.add(element.path);
    const text = dictionary[element.typeName]?.[element.key];
    if (text !== undefined && !element.description) element.set(text);
  }
  ownDescriptions.set(schema, own);
}

export interface DictionaryProblems {
  /** Elements without any description. */
  missing: string[];
  /** Dictionary entries naming no element of the schema (renamed or removed members). */
  unknown: string[];
  /** Elements described both in a decorator and in the dictionary. */
  conflicts: string[];
}

/** What the check (test/unit/field-dictionary.test.ts) refuses; all empty when the schema is fully described once. */
export function dictionaryProblems(schema: GraphQLSchema, dictionary: Dictionary): DictionaryProblems {
  const own = ownDescriptions.get(schema) ?? new Set<string>();
  const missing: string[] = [];
  const conflicts: string[] = [];
  const seen = new Set<string>();
  for (const element of elements(schema)) {
    seen.add(`${element.typeName}\u0000${element.key}`);
    if (!element.description?.trim()) missing.push(element.path);
    if (own.has(element.path) && dictionary[element.typeName]?.[element.key] !== undefined) conflicts.push(element.path);
  }
  const unknown: string[] = [];
  for (const [typeName, members] of Object.entries(dictionary)) {
    for (const key of Object.keys(members)) {
      if (!seen.has(`${typeName}\u0000${key}`)) unknown.push(key === TYPE ? typeName : `${typeName}.${key}`);
    }
  }
  return { missing, unknown, conflicts };
}

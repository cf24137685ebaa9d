/**
 * GraphQL types as JSON Schema (2020-12): the one mapping both published faces use, the OpenAPI document
 * (rest-adapter/openapi.ts: parameters, bodies, components) and the MCP tools' input schemas (src/mcp/tools.ts).
 * Scalars, enums (with their values' descriptions), lists, nullability and input objects (each property with
 * its description, default and range; the required ones; no other properties) map one way. What differs
 * between the faces is a parameter: a property's name (REST snake_case, MCP the GraphQL name) and where named
 * types go (OpenAPI: its components, by $ref; MCP: inline, so each tool's schema stands alone).
 */
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
  isScalarType,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLScalarType,
} from "graphql";

export type JsonSchema = Record<string, unknown>;

export function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/** The schema that also allows null (a type list, and null among an inline enum's values; or anyOf around a reference). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string" && Array.isArray(schema.enum))
    return { ...schema, type: [schema.type, "null"], enum: [...schema.enum, null] };
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (schema.$ref) return { anyOf: [schema, { type: "null" }] };
  return schema; // any JSON value already includes null
}

export function scalarSchema(type: GraphQLScalarType): JsonSchema {
  if (type === GraphQLString || type === GraphQLID) return { type: "string" };
  if (type === GraphQLInt) return { type: "integer", format: "int32" };
  if (type === GraphQLFloat) return { type: "number" };
  if (type === GraphQLBoolean) return { type: "boolean" };
  switch (type.name) {
    case "UUID":
      return { type: "string", format: "uuid" };
    case "DateTimeISO":
      return withDescription({ type: "string", format: "date-time" }, type.description);
    case "Date":
      return withDescription({ type: "string", format: "date" }, type.description);
    default:
      return withDescription({}, type.description);
  }
}

export interface JsonSchemaOptions {
  /** An input field's property name, from its GraphQL name. */
  propertyName(name: string): string;
  /** Where named types (input objects, enums) are written, each once, and referenced as `${prefix}${name}`; absent: inline. */
  components?: { schemas: Record<string, JsonSchema>; prefix: string };
}

/** The schemas of one document (or, inline, of any number of them). */
export class JsonSchemas {
  /** Inline: the input objects being written, so a type that contains itself ends as a plain object. */
  private readonly writing = new Set<string>();

  constructor(private readonly options: JsonSchemaOptions) {}

  /** An input type's schema; a non-null wrapper is the caller's to express (required, or not nullable). */
  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.input(type.ofType);
    if (isListType(type)) return { type: "array", items: this.input(type.ofType) };
    if (isScalarType(type)) return scalarSchema(type);
    if (isEnumType(type)) return this.enum(type);
    if (isInputObjectType(type)) return this.named(type.name, () => this.inputObject(type));
    throw new Error(`unsupported input type ${String(type)}`);
  }

  /** An enum's schema: its values, and their descriptions when any has one. */
  enum(type: GraphQLEnumType): JsonSchema {
    return this.named(type.name, () => {
      const values = type.getValues();
      const described = values.filter((v) => v.description);
      return {
        type: "string",
        ...(type.description ? { description: type.description } : {}),
        enum: values.map((v) => v.name),
        ...(described.length ? { "x-enum-descriptions": Object.fromEntries(described.map((v) => [v.name, v.description])) } : {}),
      };
    });
  }

  private inputObject(type: GraphQLInputObjectType): JsonSchema {
    const name = this.options.propertyName;
    const fields = Object.values(type.getFields());
    const properties: JsonSchema = {};
    for (const field of fields) {
      // A JSON scalar field's value is the caller's own object, kept as written.
      const schema: JsonSchema = { ...this.input(field.type) };
      if (field.defaultValue !== undefined && field.defaultValue !== null) schema.default = field.defaultValue;
      const range = field.extensions?.range as { minimum?: number; maximum?: number } | undefined;
      if (range) Object.assign(schema, range);
      properties[name(field.name)] = withDescription(isNonNullType(field.type) ? schema : nullable(schema), field.description);
    }
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => name(f.name));
    return {
      type: "object",
      ...(type.description ? { description: type.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    };
  }

  private named(name: string, build: () => JsonSchema): JsonSchema {
    const components = this.options.components;
    if (!components) {
      if (this.writing.has(name)) return { type: "object" };
      this.writing.add(name);
      try {
        return build();
      } finally {
        this.writing.delete(name);
      }
    }
    if (!components.schemas[name]) {
      components.schemas[name] = {}; // reserved first: input types may refer to themselves
      components.schemas[name] = build();
    }
    return { $ref: `${components.prefix}${name}` };
  }
}

/**
 * JSON Schemas of the tools' GraphQL inputs, generated from the public schema: property names, types,
 * enum values and descriptions (the field dictionary's) are the schema's, so tool inputs never drift
 * from what the operations accept.
 */
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLSchema,
} from "graphql";

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  UUID: { type: "string", format: "uuid" },
  DateTimeISO: { type: "string", format: "date-time" },
  Date: { type: "string", format: "date" },
  JSON: {},
};

function typeSchema(type: GraphQLInputType, depth: number): JsonSchema {
  const inner = getNullableType(type);
  if (isListType(inner)) return { type: "array", items: typeSchema(inner.ofType, depth) };
  if (isEnumType(inner)) return { type: "string", enum: inner.getValues().map((v) => v.name) };
  if (isScalarType(inner)) return { ...(SCALARS[inner.name] ?? { type: "string" }) };
  if (isInputObjectType(inner)) {
    if (depth > 4) return { type: "object" };
    const properties: Record<string, JsonSchema> = {};
    for (const field of Object.values(inner.getFields())) {
      const property = typeSchema(field.type, depth + 1);
      properties[field.name] = field.description ? { ...property, description: field.description } : property;
    }
    return { type: "object", properties, additionalProperties: false };
  }
  return {};
}

/** The JSON Schema of a named input type (an input object such as DistrictFilter, or an enum). */
export function inputSchema(schema: GraphQLSchema, typeName: string): JsonSchema {
  const type = schema.getType(typeName);
  if (!type || !(isInputObjectType(type) || isEnumType(type))) throw new Error(`MCP: ${typeName} is not an input type of the schema`);
  return { title: typeName, ...(type.description ? { description: type.description } : {}), ...typeSchema(type, 0) };
}

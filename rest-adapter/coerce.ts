/**
 * REST parameters are strings (query strings, or the string-valued bodies of the POST twins). This
 * turns each into the GraphQL variable of the same name, using the variable's type in the operation:
 * no per-endpoint parsing code, and every error names the REST parameter.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { camel, snake } from "../src/graphql/naming";

export class ParameterError extends Error {}

export interface VariableSpec {
  name: string;
  type: GraphQLInputType;
}

export function operationVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, VariableSpec> {
  const specs = new Map<string, VariableSpec>();
  for (const def of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`unknown type for $${def.variable.name.value}`);
    specs.set(def.variable.name.value, { name: def.variable.name.value, type });
  }
  return specs;
}

export function coerceString(param: string, raw: string, type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const items = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.length) throw new ParameterError(`${param} must be a non-empty comma-separated list`);
    return items.map((item) => coerceString(param, item, inner.ofType));
  }
  if (isEnumType(inner)) {
    const values = inner.getValues().map((v) => v.name);
    if (!values.includes(raw)) throw new ParameterError(`${param} must be one of ${values.join(", ")}; got "${raw}"`);
    return raw;
  }
  if (inner === GraphQLInt) {
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || Math.abs(n) > 2147483647) {
      throw new ParameterError(`${param} must be an integer; got "${raw}"`);
    }
    return n;
  }
  if (inner === GraphQLFloat) {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new ParameterError(`${param} must be a number; got "${raw}"`);
    return n;
  }
  if (inner === GraphQLBoolean) {
    if (raw !== "true" && raw !== "false") throw new ParameterError(`${param} must be true or false; got "${raw}"`);
    return raw === "true";
  }
  if (inner === GraphQLString || inner === GraphQLID) {
    // PostgreSQL text cannot hold NUL; refused here rather than by the database.
    if (raw.includes("\u0000")) throw new ParameterError(`${param} must not contain NUL characters`);
    return raw;
  }
  if (isScalarType(inner)) {
    try {
      return inner.parseValue(raw);
    } catch (error) {
      throw new ParameterError(`${param} ${(error as Error).message.replace(/^\w+ cannot represent[^:]*:?\s*/i, "is invalid: ")}`.trim());
    }
  }
  throw new Error(`parameter ${param}: unsupported variable type ${String(inner)}`);
}

/** Maps string parameters (snake_case) onto the operation's variables; unknown names are an error. */
export function coerceParameters(
  params: Record<string, unknown>,
  variables: Map<string, VariableSpec>,
  reserved: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [param, value] of Object.entries(params)) {
    const spec = variables.get(camel(param));
    // REST names are snake_case only: `minRatio` is not another spelling of `min_ratio`.
    if (!spec || reserved.has(spec.name) || snake(spec.name) !== param) {
      unknown.push(param);
      continue;
    }
    if (Array.isArray(value)) throw new ParameterError(`${param} must be given once`);
    if (typeof value !== "string") throw new ParameterError(`${param} must be a string`);
    out[spec.name] = coerceString(param, value, spec.type);
  }
  if (unknown.length) {
    const allowed = [...variables.keys()].filter((v) => !reserved.has(v)).map(snake);
    throw new ParameterError(`unknown parameter${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; allowed: ${allowed.join(", ")}`);
  }
  return out;
}

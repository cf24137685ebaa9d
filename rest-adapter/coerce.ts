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
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { clip, echo } from "../src/graphql/errors";
import { camel, snake } from "../src/graphql/naming";
import { REST_PARAMETERS_EXTENSION } from "../src/graphql/rest";
import { expectation } from "../src/graphql/variables";

export class ParameterError extends Error {}

export interface VariableSpec {
  name: string;
  type: GraphQLInputType;
  /** A field of a list's filter (`$filter`): the variable it goes into, and the input field (its description). */
  parent?: string;
  field?: GraphQLInputField;
}

/**
 * The operation's variables as REST parameters. A variable whose input type is marked `restParameters`
 * (a list's filter, src/features/kits/common/define-list.ts) stands for its fields: each is a parameter of
 * its own, in the type's field order, gathered back into the variable's object.
 */
export function operationVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, VariableSpec> {
  const specs = new Map<string, VariableSpec>();
  const add = (spec: VariableSpec) => {
    if (specs.has(spec.name)) throw new Error(`parameter ${spec.name} is declared twice in ${operation.name?.value}`);
    specs.set(spec.name, spec);
  };
  for (const def of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`unknown type for $${def.variable.name.value}`);
    const named = isNonNullType(type) ? type.ofType : type;
    if (isInputObjectType(named) && named.extensions?.[REST_PARAMETERS_EXTENSION]) {
      for (const field of Object.values(named.getFields())) {
        add({ name: field.name, type: field.type, parent: def.variable.name.value, field });
      }
    } else add({ name: def.variable.name.value, type });
  }
  return specs;
}

/**
 * One parameter's string as the value of its variable's type. Messages name the parameter as the caller
 * wrote it, say what the type expects in REST words (an enum's values listed, no GraphQL type names) and echo
 * the value clipped (`echo`, the same on every face).
 */
export function coerceString(param: string, raw: string, type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  const refuse = (): never => {
    throw new ParameterError(`${param} ${expectation(inner)}; got ${echo(raw)}`);
  };
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
    if (!values.includes(raw)) refuse();
    return raw;
  }
  if (inner === GraphQLInt) {
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n > 2147483647 || n < -2147483648) refuse();
    return n;
  }
  if (inner === GraphQLFloat) {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) refuse();
    return n;
  }
  if (inner === GraphQLBoolean) {
    if (raw !== "true" && raw !== "false") refuse();
    return raw === "true";
  }
  if (inner === GraphQLString || inner === GraphQLID) {
    // PostgreSQL text cannot hold NUL; refused here rather than by the database.
    if (raw.includes("\u0000")) throw new ParameterError(`${param} must not contain NUL characters`);
    return raw;
  }
  if (isScalarType(inner)) {
    let value: unknown;
    try {
      value = inner.parseValue(raw);
    } catch {
      refuse();
    }
    return value;
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
      unknown.push(clip(param));
      continue;
    }
    if (Array.isArray(value)) throw new ParameterError(`${param} must be given once`);
    if (typeof value !== "string") throw new ParameterError(`${param} must be a string; got ${echo(value)}`);
    const target = spec.parent ? ((out[spec.parent] ??= {}) as Record<string, unknown>) : out;
    target[spec.name] = coerceString(param, value, spec.type);
  }
  if (unknown.length) {
    const allowed = [...variables.keys()].filter((v) => !reserved.has(v)).map(snake);
    throw new ParameterError(
      `unknown parameter${unknown.length > 1 ? "s" : ""} ${clip(unknown.join(", "), 200)}; allowed: ${allowed.join(", ")}`,
    );
  }
  return out;
}

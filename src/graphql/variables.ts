/**
 * Variable values of an operation, checked before anything uses them (cost, execution) on every face.
 * graphql-jit's own variable parsing ignores a non-null variable's default (`$s: String! = "NE"` sent
 * without variables is "not provided") and its errors carry no code, so Apollo and the error model took
 * them for internal errors (issue 20 point 9). Here graphql-js's `coerceInputValue` decides, the first
 * refused value becomes a `VariableValueError` (BAD_USER_INPUT) that knows the variable, the path inside
 * it, the value and what was expected, and each face words it with its own names: GraphQL's variable,
 * REST's parameter or body property (rest-adapter/executor.ts), MCP's tool argument (src/mcp/tools.ts).
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  coerceInputValue,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  valueFromASTUntyped,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from "graphql";
import { AppError, clip, echo } from "./errors";
import { DateScalar, DateTimeScalar, JSONScalar, UUIDScalar } from "./scalars";

/** What a value of this (leaf or input object) type must be, in words every face can use after a name. */
export function expectation(type: GraphQLInputType): string {
  const named = getNamedType(type);
  if (isListType(getNullableType(type))) return "must be a list";
  if (isEnumType(named))
    return `must be one of ${named
      .getValues()
      .map((v) => v.name)
      .join(", ")}`;
  if (isInputObjectType(named)) return "must be an object";
  return SCALAR_EXPECTATION[named.name] ?? `must be a valid ${named.name}`;
}

const SCALAR_EXPECTATION: Record<string, string> = {
  [GraphQLInt.name]: "must be an integer from -2147483648 to 2147483647",
  [GraphQLFloat.name]: "must be a finite number",
  [GraphQLString.name]: "must be a string",
  [GraphQLBoolean.name]: "must be true or false",
  [GraphQLID.name]: "must be a string or an integer",
  [UUIDScalar.name]: "must be a UUID",
  [DateTimeScalar.name]: "must be an ISO 8601 date-time with a time zone, e.g. 2024-07-01T00:00:00Z",
  [DateScalar.name]: "must be a date YYYY-MM-DD",
  [JSONScalar.name]: "must be JSON",
};

type Problem = "required" | "null" | "unknown" | "invalid";

/** A variable value the operation's types refuse (the first one), with what each face needs to word it. */
export class VariableValueError extends AppError {
  constructor(
    /** The variable's name ("filter"). */
    readonly variable: string,
    /** Input field names and list indexes inside the variable (["state"], ["entityIds", 0]); the last is the bad member. */
    readonly at: readonly (string | number)[],
    readonly problem: Problem,
    /** The refused value (invalid), as the client sent it. */
    readonly value: unknown,
    /** The expected type at the path; for an unknown field, the input object type that lacks it. */
    readonly type?: GraphQLInputType,
  ) {
    super("BAD_USER_INPUT", "");
    // Apollo answers an error thrown before execution (operationAdmission) with this status, 500 without it.
    this.extensions.http = { status: 400 };
    // An unknown field's name is the client's: clipped like any echoed value.
    this.message = this.describe(`Variable "$${variable}"${at.length ? ` at "${clip([variable, ...at].join("."))}"` : ""}`);
  }

  /**
   * Where the refused value is, in a face's names (clipped: keys may be the client's): the variable, or for
   * `input` (whose fields are a face's own parameters or arguments) its field, named by `name`; then the path
   * inside, keys named by `key`, list indexes as [i]: `limit`, `entity_ids[0]`, `filter.minEnrollment`.
   */
  place(name: (graphqlName: string) => string, key: (graphqlName: string) => string): string {
    const [first, ...rest] = this.variable === "input" && this.at.length ? this.at : [this.variable, ...this.at];
    const keys = [name(String(first)), ...rest.map((k) => (typeof k === "number" ? `[${k}]` : `.${key(k)}`))];
    return clip(keys.join(""));
  }

  /** The message with `subject` naming the place: a variable, a parameter, a body property, a tool argument. */
  describe(subject: string): string {
    if (this.problem === "required") return `${subject} is required`;
    if (this.problem === "null") return `${subject} must not be null`;
    if (this.problem === "unknown") return `${subject} is not a field of ${this.type ? getNamedType(this.type).name : "the input"}`;
    return `${subject} ${this.type ? expectation(this.type) : "is invalid"}; got ${echo(this.value)}`;
  }
}

/** The type at `path` inside a variable of type `type` (undefined past an unknown field). */
function typeAt(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLInputType | undefined {
  let current: GraphQLInputType | undefined = type;
  for (const key of path) {
    const inner: GraphQLInputType | undefined = current && (getNullableType(current) as GraphQLInputType);
    if (inner && isListType(inner) && typeof key === "number") current = inner.ofType as GraphQLInputType;
    else if (inner && isInputObjectType(inner) && typeof key === "string") current = inner.getFields()[key]?.type;
    else return undefined;
  }
  return current;
}

const MISSING_FIELD = /^Field "(\w+)" of required type "[^"]*" was not provided\.$/;
// The unknown name is the client's (any characters, any length): matched greedily up to the type, then clipped.
const UNKNOWN_FIELD = /^Field "([\s\S]*)" is not defined by type "\w+"\./;

/** graphql-js's report of one refused value, as a VariableValueError. */
function refusal(
  variable: string,
  type: GraphQLInputType,
  path: (string | number)[],
  value: unknown,
  error: GraphQLError,
): VariableValueError {
  const missing = MISSING_FIELD.exec(error.message);
  if (missing) return new VariableValueError(variable, [...path, missing[1]!], "required", undefined);
  const unknown = UNKNOWN_FIELD.exec(error.message);
  if (unknown) return new VariableValueError(variable, [...path, unknown[1]!], "unknown", undefined, typeAt(type, path));
  const at = typeAt(type, path);
  if (value === null && at && isNonNullType(at)) return new VariableValueError(variable, path, "null", null, at);
  return new VariableValueError(variable, path, "invalid", value, at ?? type);
}

/**
 * The operation's variable values as the engine runs them: the client's values, each declared variable the
 * client left out replaced by its default (in the client's own form, as the compiled query parses it), or
 * the first value the types refuse thrown as a VariableValueError. Undeclared names are left as they are
 * (GraphQL ignores them).
 */
export function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown> = { ...(inputs ?? {}) };
  for (const definition of operation.variableDefinitions ?? []) {
    const variable = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as TypeNode & { kind: never }) as GraphQLInputType | undefined;
    if (!type) continue; // validation refused the document already
    if (!inputs || !Object.prototype.hasOwnProperty.call(inputs, variable) || inputs[variable] === undefined) {
      if (definition.defaultValue) values[variable] = valueFromASTUntyped(definition.defaultValue);
      else if (isNonNullType(type)) throw new VariableValueError(variable, [], "required", undefined, type);
      continue;
    }
    const value = inputs[variable];
    if (value === null) {
      if (isNonNullType(type)) throw new VariableValueError(variable, [], "null", null, type);
      continue;
    }
    coerceInputValue(value, type, (path, invalid, error) => {
      throw refusal(variable, type, path as (string | number)[], invalid, error);
    });
  }
  return values;
}

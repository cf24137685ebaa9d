/**
 * The OpenAPI 3.1 document of /api/v1, generated from the route table (routes.ts) and the GraphQL types:
 * never written by hand. Each route's operation gives its parameters (the operation's variables, typed,
 * with the description, default and range of the argument or input field each one feeds), its body and
 * its response (the operation's selection under the route's `select` path, with REST's snake_case keys);
 * src/graphql/errors.ts gives the error bodies.
 */
import {
  getNamedType,
  getOperationAST,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLInterfaceType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { TYPE } from "../src/graphql/dictionary";
import { fill, HTTP_DICTIONARY as HTTP } from "../src/graphql/dictionary/http";
import { ERROR_BODY_EXTRAS, errorStatuses, type ErrorCode } from "../src/graphql/errors";
import { JsonSchemas, nullable, scalarSchema, withDescription } from "../src/graphql/json-schema";
import { camel, snake } from "../src/graphql/naming";
import { operationVariables, type VariableSpec } from "./coerce";
import { exportPlan } from "./export";
import { isDetailRead, type BodyDoc, type RouteSpec } from "./route";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it) or any other object of the document. */
export type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: Json;
  servers: Json[];
  security: Json[];
  tags: Json[];
  paths: Record<string, Record<string, Json>>;
  components: { securitySchemes: Json; schemas: Record<string, Json>; responses: Record<string, Json>; headers: Record<string, Json> };
}

export interface OpenApiOptions {
  version: string;
}

/** Where REST mounts the table (src/app.ts). */
export const REST_BASE_PATH = "/api/v1";

/** Express `/districts/:id` -> OpenAPI `/districts/{id}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, "{$1}");

/** Error codes every endpoint can answer: bad input, no key, nothing at the path, and the masked internal error. */
// 503 on every route: the database cannot be reached or is busy, or the process is shutting down (docs/operations.md).
const COMMON_ERRORS: ErrorCode[] = ["BAD_USER_INPUT", "UNAUTHENTICATED", "NOT_FOUND", "SERVICE_UNAVAILABLE", "INTERNAL_SERVER_ERROR"];

/** Response headers (docs/http-conventions.md): the request id of every answer, the query cost of every run, detail reads' ETag. */
const HEADERS: Record<string, Json> = {
  "X-Request-Id": { description: HTTP.Headers["X-Request-Id"], schema: { type: "string" } },
  "X-Query-Cost": { description: HTTP.Headers["X-Query-Cost"], schema: { type: "integer" } },
  "X-Query-Cost-Limit": { description: HTTP.Headers["X-Query-Cost-Limit"], schema: { type: "integer" } },
  "WWW-Authenticate": { description: HTTP.Headers["WWW-Authenticate"], schema: { type: "string" } },
  ETag: { description: HTTP.Headers.ETag, schema: { type: "string" } },
  "Content-Disposition": { description: HTTP.Headers["Content-Disposition"], schema: { type: "string" } },
  "X-Export-Rows": { description: HTTP.Headers["X-Export-Rows"], schema: { type: "integer" } },
  "X-Export-Total": { description: HTTP.Headers["X-Export-Total"], schema: { type: "integer" } },
  "X-Export-Row-Cap": { description: HTTP.Headers["X-Export-Row-Cap"], schema: { type: "integer" } },
  "X-Export-Truncated": { description: HTTP.Headers["X-Export-Truncated"], schema: { type: "boolean" } },
};
/** The headers of an export's response (docs/exports.md). */
const EXPORT_HEADERS = ["Content-Disposition", "X-Export-Rows", "X-Export-Total", "X-Export-Row-Cap", "X-Export-Truncated"];
const header = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

export function openApiDocument(routes: RouteSpec[], schema: GraphQLSchema, options: OpenApiOptions): OpenApiDocument {
  const builder = new Builder(schema);
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  for (const spec of routes) {
    const path = openApiPath(spec.path);
    const tag = spec.path.split("/")[1];
    tags.add(tag);
    (paths[path] ??= {})[spec.method.toLowerCase()] = builder.operation(spec, tag);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "edmarket REST API",
      version: options.version,
      description: `${HTTP.Document[TYPE]}\n\n${HTTP.Document.conventions}`,
    },
    servers: [{ url: REST_BASE_PATH }],
    security: [{ apiKey: [] }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: HTTP.Document.apiKey },
      },
      schemas: builder.schemas,
      responses: builder.errorResponses(),
      headers: HEADERS,
    },
  };
}

interface Usage {
  /** The argument or input field the variable is passed to (its description, default and range). */
  input?: GraphQLArgument | GraphQLInputField;
}

class Builder {
  readonly schemas: Record<string, Json> = {};
  /** Input types and enums as JSON Schema, written once each into `schemas` (the mapping MCP's tools use too). */
  private readonly json = new JsonSchemas({
    propertyName: snake,
    components: { schemas: this.schemas, prefix: "#/components/schemas/" },
  });
  private readonly fragmentOwners = new Map<string, string>();
  private readonly errorCodesUsed = new Set<string>(COMMON_ERRORS);

  constructor(private readonly schema: GraphQLSchema) {
    this.schemas.ErrorBody = {
      type: "object",
      description: HTTP.ErrorBody[TYPE],
      properties: {
        error: { type: "string", description: HTTP.ErrorBody.error },
        message: { type: "string", description: HTTP.ErrorBody.message },
        statusCode: { type: "integer", description: HTTP.ErrorBody.statusCode },
      },
      required: ["error", "message", "statusCode"],
    };
  }

  operation(spec: RouteSpec, tag: string): Json {
    const operation = getOperationAST(spec.document);
    if (!operation?.name) throw new Error(`${spec.method} ${spec.path}: the document needs one named operation`);
    const fragments = fragmentsOf(spec.document);
    const variables = operationVariables(this.schema, operation);
    const root = operation.operation === "mutation" ? this.schema.getMutationType() : this.schema.getQueryType();
    if (!root) throw new Error(`${spec.method} ${spec.path}: the schema has no ${operation.operation} type`);
    const usages = variableUsages(root, operation.selectionSet, fragments);
    // A filter field standing for itself (coerce.ts operationVariables) is described by its input field.
    const usage = (v: VariableSpec): Usage | undefined => (v.field ? { input: v.field } : usages.get(v.name));

    const parameters: Json[] = [];
    const pathParams = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const reserved = new Set<string>();
    for (const name of pathParams) {
      const variable = camel(name);
      reserved.add(variable);
      parameters.push({ name, in: "path", required: true, ...this.describedInput(variables.get(variable)!.type, usages.get(variable)) });
    }
    for (const [header, variable] of Object.entries(spec.headers ?? {})) {
      reserved.add(variable);
      const type = variables.get(variable)!.type;
      parameters.push({ name: header, in: "header", required: isNonNullType(type), ...this.describedInput(type, usages.get(variable)) });
    }
    const detail = isDetailRead(spec);
    if (detail) {
      parameters.push({
        name: "If-None-Match",
        in: "header",
        required: false,
        description: HTTP.Headers["If-None-Match"],
        schema: { type: "string" },
      });
    }
    const rest = [...variables.values()].filter((v) => !reserved.has(v.name));
    if (spec.input === "query") {
      for (const variable of rest) {
        const schema = this.describedInput(variable.type, usage(variable));
        const list = isListType(isNonNullType(variable.type) ? variable.type.ofType : variable.type);
        parameters.push({
          name: snake(variable.name),
          in: "query",
          required: isNonNullType(variable.type),
          ...(list ? { style: "form", explode: false } : {}),
          ...schema,
        });
      }
    }

    let requestBody: Json | undefined;
    if (spec.input === "string-body") {
      const properties = Object.fromEntries(rest.map((v) => [snake(v.name), this.stringForm(v.type, usage(v))]));
      const required = rest.filter((v) => isNonNullType(v.type)).map((v) => snake(v.name));
      requestBody = {
        required: false,
        description: fill(HTTP.Document.postQuery, { path: openApiPath(spec.path) }),
        content: {
          "application/json": {
            schema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
          },
        },
      };
    } else if (spec.input === "json-body") {
      const input = variables.get("input");
      if (!input) throw new Error(`${spec.method} ${spec.path}: a json-body route's operation needs $input`);
      requestBody = {
        required: isNonNullType(input.type),
        content: { "application/json": { schema: this.json.input(input.type) } },
      };
    }

    const selected = this.select(root, operation.selectionSet, fragments, spec.select, `${spec.method} ${spec.path}`);
    const exported =
      spec.method === "GET" && spec.input === "query" && !!exportPlan(this.schema, spec.document, operation, spec.path, spec.select);
    const responses: Record<string, Json> = {};
    if (spec.respond) {
      if (!spec.responses) throw new Error(`${spec.method} ${spec.path}: a route with respond() documents its responses`);
      for (const [status, doc] of Object.entries(spec.responses)) {
        responses[status] = {
          description: doc.description,
          content: { "application/json": { schema: this.bodyDoc(doc.body, selected, fragments, `${spec.method} ${spec.path}`) } },
        };
      }
    } else if (spec.status === 204) {
      responses["204"] = { description: "Done; no body." };
    } else {
      const body = this.outputSchema(selected.type, selected.selectionSet, fragments, true);
      // A metric query's list page may carry notices (history_gated) beside data and pagination (src/graphql/notices.ts).
      if (variables.has("metricQuery") && !spec.wrap && body.type === "object") (body.properties as Json).notices = this.notices();
      responses[String(spec.status ?? 200)] = {
        description: spec.status === 201 ? "Created." : "OK.",
        content: {
          "application/json": {
            schema: spec.wrap ? wrapped(body) : body,
          },
        },
      };
    }
    const ran = {
      "X-Request-Id": header("X-Request-Id"),
      "X-Query-Cost": header("X-Query-Cost"),
      "X-Query-Cost-Limit": header("X-Query-Cost-Limit"),
    };
    for (const response of Object.values(responses)) response.headers = { ...ran, ...(detail ? { ETag: header("ETag") } : {}) };
    if (exported) {
      // The formats are declared beside the JSON body, not as other contents of the 200: the typed client would
      // otherwise type every list body as JSON | string.
      const ok = responses[String(spec.status ?? 200)];
      ok["x-export"] = {
        "text/csv": HTTP.Document.csv,
        "application/x-ndjson": HTTP.Document.ndjson,
        headers: Object.fromEntries(EXPORT_HEADERS.map((name) => [name, header(name)])),
      };
    }
    if (detail)
      responses["304"] = { description: "Not Modified: If-None-Match named the current ETag.", headers: { ETag: header("ETag") } };
    const codes = [
      ...COMMON_ERRORS,
      ...(spec.input === "json-body" || spec.input === "string-body" ? ["PAYLOAD_TOO_LARGE" as const] : []),
      ...(spec.errors ?? []),
      ...(exported ? ["NOT_ACCEPTABLE" as const] : []),
    ];
    for (const code of codes) this.errorCodesUsed.add(code);
    const statuses = new Set(codes.map((code) => errorStatuses().find((s) => s.code === code)!.statusCode));
    for (const status of [...statuses].sort()) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };

    const field = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    const rootField = field && field.kind === Kind.FIELD ? root.getFields()[field.name.value] : undefined;
    return {
      operationId: `${spec.method.toLowerCase()}${operation.name.value}`,
      tags: [tag],
      summary: `${spec.method} ${openApiPath(spec.path)}`,
      ...(rootField?.description ? { description: rootField.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  /** The optional `notices` of a list body, and its item schema `Notice` (registered on first use). */
  private notices(): Json {
    this.schemas.Notice ??= {
      type: "object",
      description: HTTP.Notice[TYPE],
      properties: {
        code: { type: "string", enum: ["history_gated"], description: HTTP.Notice.code },
        message: { type: "string", description: HTTP.Notice.message },
      },
      required: ["code", "message"],
    };
    return { type: "array", items: { $ref: "#/components/schemas/Notice" }, description: HTTP.Notice.notices };
  }

  /** The error responses by status, each with the bodies of its codes (the generic body, or one with the code's extra fields). */
  errorResponses(): Record<string, Json> {
    const byStatus = new Map<number, { code: string; error: string }[]>();
    for (const { code, statusCode, error } of errorStatuses()) {
      if (!this.errorCodesUsed.has(code)) continue;
      byStatus.set(statusCode, [...(byStatus.get(statusCode) ?? []), { code, error }]);
    }
    const responses: Record<string, Json> = {};
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const variants: Json[] = [];
      const plain = [...new Set(codes.filter((c) => !ERROR_BODY_EXTRAS[c.code as ErrorCode]).map((c) => c.error))];
      if (plain.length) {
        variants.push({
          allOf: [
            { $ref: "#/components/schemas/ErrorBody" },
            {
              type: "object",
              properties: {
                error: { enum: plain, description: fill(HTTP.ErrorBody.errorAtStatus, { status }) },
                statusCode: { const: status, description: fill(HTTP.ErrorBody.always, { value: status }) },
              },
            },
          ],
        });
      }
      for (const { code, error } of codes) {
        const extras = ERROR_BODY_EXTRAS[code as ErrorCode];
        if (!extras) continue;
        const name = `${pascal(code)}Error`;
        this.schemas[name] = {
          allOf: [
            { $ref: "#/components/schemas/ErrorBody" },
            {
              type: "object",
              properties: {
                error: { const: error, description: fill(HTTP.ErrorBody.always, { value: error }) },
                statusCode: { const: status, description: fill(HTTP.ErrorBody.always, { value: status }) },
                ...extras,
              },
              required: Object.keys(extras),
            },
          ],
        };
        variants.push({ $ref: `#/components/schemas/${name}` });
      }
      responses[`Error${status}`] = {
        description: `${codes.map((c) => c.error).join(", ")} (${codes.map((c) => c.code).join(", ")})`,
        headers: { "X-Request-Id": header("X-Request-Id"), ...(status === 401 ? { "WWW-Authenticate": header("WWW-Authenticate") } : {}) },
        content: { "application/json": { schema: variants.length === 1 ? variants[0] : { oneOf: variants } } },
      };
    }
    return responses;
  }

  // -------------------------------------------------------------------------------------------------
  // Inputs

  /** A parameter's schema and description: the variable's type with the default, range and description of the input it feeds. */
  private describedInput(type: GraphQLInputType, usage: Usage | undefined): Json {
    const schema: Json = { ...this.json.input(type), ...this.constraints(type, usage) };
    const description = usage?.input?.description;
    return { ...(description ? { description } : {}), schema };
  }

  /** Default and range of the argument or input field a variable feeds (range: the `range` extension list arguments carry). */
  private constraints(type: GraphQLInputType, usage: Usage | undefined): Json {
    const out: Json = {};
    const input = usage?.input;
    if (!input) return out;
    if (input.defaultValue !== undefined && input.defaultValue !== null) out.default = input.defaultValue;
    const named = getNamedType(type);
    const range = input.extensions?.range as { minimum?: number; maximum?: number } | undefined;
    if (range && (named === GraphQLInt || named === GraphQLFloat)) {
      if (range.minimum !== undefined) out.minimum = range.minimum;
      if (range.maximum !== undefined) out.maximum = range.maximum;
    }
    return out;
  }

  /** A string-body property: the query parameter's string form (the POST twins take strings, coerced like a query string). */
  private stringForm(type: GraphQLInputType, usage: Usage | undefined): Json {
    const inner = isNonNullType(type) ? type.ofType : type;
    const described = this.describedInput(type, usage);
    const base = described.description ? { description: described.description } : {};
    const constraints = this.constraints(type, usage);
    const fallback = constraints.default !== undefined ? { default: String(constraints.default) } : {};
    if (isListType(inner))
      return { ...base, type: "string", description: `${described.description ?? ""} ${HTTP.Document.commaSeparated}`.trim() };
    if (isEnumType(inner)) return { ...base, type: "string", enum: inner.getValues().map((v) => v.name), ...fallback };
    if (inner === GraphQLInt) return { ...base, type: "string", pattern: "^-?\\d+$", ...fallback };
    if (inner === GraphQLFloat) return { ...base, type: "string", pattern: "^-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?$", ...fallback };
    if (inner === GraphQLBoolean) return { ...base, type: "string", enum: ["true", "false"], ...fallback };
    return { ...base, ...this.json.input(inner), type: "string" };
  }

  // -------------------------------------------------------------------------------------------------
  // Outputs

  /** The field a `select` path reaches in the operation's result: its type and sub-selection (a path crossing a list continues in its items). */
  private select(
    parent: GraphQLObjectType | GraphQLInterfaceType,
    selectionSet: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
    path: string[],
    where: string,
  ): { type: GraphQLOutputType; selectionSet?: SelectionSetNode } {
    let current: { type: GraphQLOutputType; selectionSet?: SelectionSetNode } = { type: parent, selectionSet };
    for (const key of path) {
      const owner = getNamedType(current.type);
      if (!isObjectType(owner) && !isInterfaceType(owner)) throw new Error(`${where}: select ${path.join(".")} passes a leaf`);
      const field = fieldsOf(owner, current.selectionSet, fragments).find((f) => f.key === key);
      if (!field) throw new Error(`${where}: select ${path.join(".")}: ${key} is not selected`);
      current = { type: field.type, selectionSet: field.selectionSet };
    }
    return current;
  }

  private bodyDoc(
    doc: BodyDoc,
    from: { type: GraphQLOutputType; selectionSet?: SelectionSetNode },
    fragments: Map<string, FragmentDefinitionNode>,
    where: string,
  ): Json {
    if ("error" in doc) return { $ref: "#/components/schemas/ErrorBody" };
    if ("oneOf" in doc) return { oneOf: doc.oneOf.map((d) => this.bodyDoc(d, from, fragments, where)) };
    if ("items" in doc) return { type: "array", items: this.bodyDoc(doc.items, from, fragments, where) };
    if ("object" in doc) {
      const properties = Object.fromEntries(
        Object.entries(doc.object).map(([k, d]) => [k, { description: doc.descriptions?.[k], ...this.bodyDoc(d, from, fragments, where) }]),
      );
      return { type: "object", properties, required: Object.keys(properties) };
    }
    const named = getNamedType(from.type) as GraphQLObjectType;
    const target = this.select(named, from.selectionSet, fragments, doc.select, where);
    const body = this.outputSchema(target.type, target.selectionSet, fragments, true);
    return doc.wrap ? wrapped(body) : body;
  }

  /**
   * The JSON a selection of `type` answers. `present`: the value is never null here (the router answers 404
   * for a null selected value), whatever the type says.
   */
  private outputSchema(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
    present = false,
  ): Json {
    if (isNonNullType(type)) return this.outputSchema(type.ofType, selectionSet, fragments, true);
    let schema: Json;
    if (isListType(type)) schema = { type: "array", items: this.outputSchema(type.ofType, selectionSet, fragments) };
    else if (isScalarType(type)) schema = scalarSchema(type);
    else if (isEnumType(type)) schema = this.json.enum(type);
    else if (isObjectType(type) || isInterfaceType(type)) schema = this.objectSchema(type, selectionSet, fragments);
    else throw new Error(`unsupported output type ${String(type)}`);
    return present ? schema : nullable(schema);
  }

  private objectSchema(
    type: GraphQLObjectType | GraphQLInterfaceType,
    selectionSet: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
  ): Json {
    // A selection that is one fragment spread is that fragment's component (DistrictRecord ...): one schema per record shape.
    const only = selectionSet?.selections.length === 1 ? selectionSet.selections[0] : undefined;
    if (only?.kind === Kind.FRAGMENT_SPREAD) {
      const name = only.name.value;
      const owner = this.fragmentOwners.get(name);
      if (owner === undefined) {
        if (this.schemas[name]) throw new Error(`fragment ${name} has the name of a schema type`);
        this.fragmentOwners.set(name, type.name);
        this.schemas[name] = {};
        const fragment = fragments.get(name)!;
        this.schemas[name] = this.objectSchema(type, fragment.selectionSet, fragments);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const properties: Json = {};
    for (const field of fieldsOf(type, selectionSet, fragments)) {
      properties[field.key] = withDescription(this.outputSchema(field.type, field.selectionSet, fragments), field.description);
    }
    return {
      type: "object",
      ...(type.description ? { description: type.description } : {}),
      properties,
      required: Object.keys(properties),
    };
  }
}

/** The fields a selection set selects on `type` (fragments spread), keyed by REST response key. */
function fieldsOf(
  type: GraphQLObjectType | GraphQLInterfaceType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
): { key: string; type: GraphQLOutputType; selectionSet?: SelectionSetNode; description?: string | null }[] {
  const out: { key: string; type: GraphQLOutputType; selectionSet?: SelectionSetNode; description?: string | null }[] = [];
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === "__typename") continue;
      const def = type.getFields()[selection.name.value];
      if (!def) throw new Error(`${type.name} has no field ${selection.name.value}`);
      const key = snake(selection.alias?.value ?? selection.name.value);
      if (!out.some((f) => f.key === key))
        out.push({ key, type: def.type, selectionSet: selection.selectionSet, description: def.description });
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      for (const f of fieldsOf(type, fragments.get(selection.name.value)!.selectionSet, fragments))
        if (!out.some((o) => o.key === f.key)) out.push(f);
    } else {
      for (const f of fieldsOf(type, selection.selectionSet, fragments)) if (!out.some((o) => o.key === f.key)) out.push(f);
    }
  }
  return out;
}

/** Each variable of an operation and the argument or input field it is first passed to. */
function variableUsages(
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
): Map<string, Usage> {
  const usages = new Map<string, Usage>();
  const walkValue = (value: ValueNode, input: GraphQLArgument | GraphQLInputField) => {
    if (value.kind === Kind.VARIABLE) {
      if (!usages.has(value.name.value)) usages.set(value.name.value, { input });
    } else if (value.kind === Kind.LIST) {
      for (const item of value.values) walkValue(item, input);
    } else if (value.kind === Kind.OBJECT) {
      const type = getNamedType(input.type);
      if (!isInputObjectType(type)) return;
      for (const field of value.fields) {
        const def = type.getFields()[field.name.value];
        if (def) walkValue(field.value, def);
      }
    }
  };
  const walk = (type: GraphQLNamedType, set: SelectionSetNode | undefined) => {
    if (!set || !(isObjectType(type) || isInterfaceType(type))) return;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const def = type.getFields()[selection.name.value];
        if (!def) continue;
        for (const arg of selection.arguments ?? []) {
          const argDef = def.args.find((a) => a.name === arg.name.value);
          if (argDef) walkValue(arg.value, argDef);
        }
        walk(getNamedType(def.type), selection.selectionSet);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        walk(type, fragments.get(selection.name.value)?.selectionSet);
      } else {
        walk(type, selection.selectionSet);
      }
    }
  };
  walk(root, selectionSet);
  return usages;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
}

/** A detail body: `{ data: record }`. */
const wrapped = (body: Json): Json => ({
  type: "object",
  properties: { data: { ...body, description: body.description ?? HTTP.Document.data } },
  required: ["data"],
});

const pascal = (code: string): string =>
  code
    .toLowerCase()
    .split("_")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

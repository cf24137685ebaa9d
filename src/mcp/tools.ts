/**
 * The MCP tools: each checks its arguments, maps them to the variables of a fixed GraphQL operation
 * (operations.ts) and runs it on the shared execution engine, so cost limits, gating and error bodies
 * are those of /graphql and REST. Errors come back as tool results with `isError: true` and REST's
 * error body ({ error, message, statusCode, ... }) as text.
 */
import {
  isEnumType,
  isInputObjectType,
  type DocumentNode,
  type GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from "graphql";
import type { Context } from "../graphql/context";
import { snake } from "../graphql/naming";
import { AppError, BadRequestError, clip, echo, fromGraphQLError, httpError, maskError, type ErrorBody } from "../graphql/errors";
import type { ExecutionEngine } from "../graphql/execution";
import { JsonSchemas, type JsonSchema } from "../graphql/json-schema";
import { VariableValueError } from "../graphql/variables";
import { logger } from "../logger";
import { METRIC_CATALOGUE } from "../features/catalogue/metrics/metrics.mcp";
import { installedFeatures } from "../graphql/feature";
import { definedOnly as variables, oneOf, type McpRecordSpec } from "../graphql/mcp-tool";
import { IDEMPOTENCY_KEY } from "../graphql/dictionary/common";
import { IDEMPOTENCY_KEY_ARGUMENT, withIdempotencyKey } from "../graphql/idempotency";

/** The argument of a state-changing tool carrying the Idempotency-Key (src/graphql/idempotency.ts). */
const IDEMPOTENCY_TOOL_ARGUMENT = "idempotency_key";

/** What the tools run on: the engine and the context of one call (authenticated caller, time budget). */
export interface McpHost {
  engine: ExecutionEngine;
  /** Throws an AppError (e.g. UNAUTHENTICATED) when the call may not run. */
  context(): Context | Promise<Context>;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  annotations?: Record<string, boolean>;
}

type Args = Record<string, unknown>;

interface Tool extends ToolDefinition {
  call(host: McpHost, args: Args): Promise<ToolResult>;
}

const page = { type: "integer", minimum: 1, maximum: 200, description: "Records per page, 1 to 200 (default 50)." };
const offset = { type: "integer", minimum: 0, description: "Records to skip, 0 or more (default 0)." };

function ok(payload: Record<string, unknown>, cost: number | undefined, maxCost: number): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(payload) }],
    structuredContent: payload,
    _meta: { cost: { requested: cost ?? null, limit: maxCost } },
  };
}

function failure(body: ErrorBody): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { ...body }, isError: true };
}

function errorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return httpError(error.code, error.message, error.body);
  logger.error("mcp tool error", { error: String((error as Error)?.stack ?? error) });
  return httpError("INTERNAL_SERVER_ERROR", "internal error");
}

/**
 * Tool inputs in the JSON Schema the OpenAPI document uses (src/graphql/json-schema.ts), inline so each tool's
 * schema stands alone, with GraphQL's field names (a filter's keys are the GraphQL input fields).
 */
const TOOL_SCHEMAS = new JsonSchemas({ propertyName: (name) => name });

/** The JSON Schema of a named input type (an input object such as DistrictFilter, or an enum). */
function inputSchema(schema: GraphQLSchema, typeName: string): JsonSchema {
  const type = schema.getType(typeName);
  if (!type || !(isInputObjectType(type) || isEnumType(type))) throw new Error(`MCP: ${typeName} is not an input type of the schema`);
  return { title: typeName, ...TOOL_SCHEMAS.input(type) };
}

/** Checks the arguments' names (an unknown one is a typo that must not be ignored) and the required ones. */
function checkArgs(tool: string, args: Args, allowed: readonly string[], required: readonly string[]): void {
  for (const name of Object.keys(args)) {
    if (!allowed.includes(name)) throw new BadRequestError(`${tool}: unknown argument ${echo(name)}; expected ${allowed.join(", ")}`);
  }
  for (const name of required) {
    if (args[name] === undefined || args[name] === null) throw new BadRequestError(`${tool}: ${name} is required`);
  }
}

/**
 * A value the variable types refuse, worded for the tool's caller: the tool's argument (brief_id, not $briefId;
 * an `input` variable's fields are the tool's own arguments: entity_id), then the path inside it as sent
 * (filter keys are GraphQL input fields: filter.minEnrollment); the echoed value is clipped (src/graphql/errors.ts).
 */
function argumentMessage(tool: string, error: VariableValueError): string {
  return error.describe(`${tool}: ${error.place(snake, (key) => key)}`);
}

/** Runs one operation; `shape` turns its data into the tool's payload (null: the record was not found). */
async function run(
  host: McpHost,
  tool: string,
  document: DocumentNode,
  vars: Record<string, unknown>,
  shape: (data: Record<string, unknown>) => Record<string, unknown> | ErrorBody,
): Promise<ToolResult> {
  let context: Context;
  try {
    context = await host.context();
  } catch (error) {
    return failure(errorBody(error));
  }
  const result = await host.engine.executeRest(document, variables(vars), () => context);
  if (result.errors?.length) {
    const error = result.errors[0] as GraphQLError;
    if (error instanceof VariableValueError) return failure(httpError("BAD_USER_INPUT", argumentMessage(tool, error)));
    const formatted: GraphQLFormattedError = error.toJSON?.() ?? (error as unknown as GraphQLFormattedError);
    const coded = maskError(formatted, error);
    return failure(fromGraphQLError(coded));
  }
  const payload = shape(result.data as Record<string, unknown>);
  if ("statusCode" in payload && "error" in payload) return failure(payload as ErrorBody);
  // As on REST's list bodies: what the resolvers noted (history_gated ...), only when there are any.
  if (result.notices?.length) payload.notices = result.notices;
  return ok(payload, result.cost, host.engine.maxCost);
}

/** "a, b or c" */
const either = (names: readonly string[]): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export function buildTools(schema: GraphQLSchema): Tool[] {
  // The catalogue records the generic tools read: each declared by its feature (`mcpRecord` in feature.ts).
  const records = installedFeatures().mcpRecords;
  const metricRecords = records.filter((r) => r.metricQuery);
  const plurals = records.map((r) => r.plural);
  const singulars = records.map((r) => r.singular);
  const metricPlurals = metricRecords.map((r) => r.plural);
  const bySearch = (tool: string, value: unknown, among = records): McpRecordSpec =>
    among[
      among
        .map((r) => r.plural)
        .indexOf(
          oneOf(
            tool,
            "entity",
            value,
            among.map((r) => r.plural),
          ),
        )
    ];
  const filterSchema = (r: McpRecordSpec) => inputSchema(schema, r.filterType);
  const orderValues = (type: string) => (inputSchema(schema, type).enum as string[]) ?? [];
  const searchArgs = records.flatMap((r) => Object.entries(r.searchArgs ?? {}).map(([name, arg]) => ({ name, arg, record: r })));

  const search: Tool = {
    name: "search",
    title: `Search ${either(plurals)}`,
    description:
      `Lists US school ${either(plurals)} matching filters (the same filters as GET ${plurals.map((p, n) => `${n ? "" : "/api/v1"}/${p}`).join(", ")}; ` +
      'filter keys are the GraphQL input fields, e.g. { "state": "NE", "minEnrollment": 1000 }). Returns data (records with REST\'s ' +
      "snake_case keys), pagination and, for contacts, _access_summary. Gated fields are null until the caller's organization unlocks the record.",
    inputSchema: {
      type: "object",
      properties: {
        entity: { type: "string", enum: plurals, description: "What to list." },
        filter: {
          description: `Filters of the chosen entity: ${either(records.map((r) => r.filterType))} fields.`,
          anyOf: records.map(filterSchema),
        },
        order_by: {
          type: "string",
          enum: [...new Set(records.flatMap((r) => orderValues(r.orderType)))],
          description: "Sort column of the chosen entity (default name).",
        },
        order_ascending: { type: "boolean", description: "Default true." },
        ...Object.fromEntries(searchArgs.map(({ name, arg }) => [name, arg.schema])),
        limit: page,
        offset,
      },
      required: ["entity"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(host, args) {
      const extra = searchArgs.map((a) => a.name);
      checkArgs("search", args, ["entity", "filter", "order_by", "order_ascending", ...extra, "limit", "offset"], ["entity"]);
      const record = bySearch("search", args.entity);
      for (const { name, record: owner } of searchArgs)
        if (args[name] !== undefined && owner !== record) throw new BadRequestError(`search: ${name} applies to ${owner.plural} only`);
      const own = Object.entries(record.searchArgs ?? {}).map(([name, arg]) => [arg.variable, args[name]]);
      return run(
        host,
        "search",
        record.search,
        {
          filter: args.filter,
          orderBy: args.order_by,
          orderAscending: args.order_ascending,
          limit: args.limit,
          offset: args.offset,
          ...Object.fromEntries(own),
        },
        (data) => data[record.plural] as Record<string, unknown>,
      );
    },
  };

  const details: Tool = {
    name: "details",
    title: `One ${either(singulars)}`,
    description:
      `The record of one ${either(singulars)} by its id (a UUID from search), as GET /api/v1/<entity>s/{id} serves it, with _access ` +
      "(unlock state and cost); districts and schools add their latest statistics and, once unlocked, extracted intelligence " +
      "(pain points, vendors, funding, contracts, bids). An unknown id is a not_found error.",
    inputSchema: {
      type: "object",
      properties: {
        entity: { type: "string", enum: singulars, description: "What to read." },
        id: { type: "string", format: "uuid", description: "Our id of the record (UUID)." },
      },
      required: ["entity", "id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(host, args) {
      checkArgs("details", args, ["entity", "id"], ["entity", "id"]);
      const entity = oneOf("details", "entity", args.entity, singulars);
      const record = records[singulars.indexOf(entity)];
      return run(host, "details", record.details, { id: args.id }, (data) =>
        data[entity] ? { data: data[entity] } : httpError("NOT_FOUND", `${entity} ${clip(String(args.id))} not found`),
      );
    },
  };

  const metrics: Tool = {
    name: "metrics",
    title: "Metrics metric_query accepts",
    description:
      `The metrics metric_query accepts for ${either(metricPlurals)}, each with its type, source (annual_statistics or assessment) and the school ` +
      "years (school_year_start, the fall year) in which some record has a value (GET /api/v1/metrics).",
    inputSchema: {
      type: "object",
      properties: { entity: { type: "string", enum: metricPlurals, description: `${capitalized(either(metricPlurals))}.` } },
      required: ["entity"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(host, args) {
      checkArgs("metrics", args, ["entity"], ["entity"]);
      const record = bySearch("metrics", args.entity, metricRecords);
      return run(host, "metrics", METRIC_CATALOGUE, { entityType: record.singular }, (data) => ({ data: data.metrics }));
    },
  };

  const metricQuery: Tool = {
    name: "metric_query",
    title: `Select, filter and sort ${either(metricPlurals)} by statistics`,
    description:
      `Runs a metric query (docs/metric-query.md; contract section 8) over ${either(metricPlurals)}: select values of yearly statistics and ` +
      'assessments, filter and sort by them, e.g. {"select":[{"metric":"total_enrollment"}],"filters":[{"metric":"school_age_poverty_pct",' +
      '"op":"gt","value":25}],"sort":{"metric":"total_enrollment","direction":"desc"}}. Each record carries metric_values keyed by the ' +
      "select's `as` names. Years are school years by their fall year; on the free plan only the latest year is open unless the record is followed.",
    inputSchema: {
      type: "object",
      properties: {
        entity: { type: "string", enum: metricPlurals, description: `${capitalized(either(metricPlurals))}.` },
        metric_query: {
          description: "The metric query: a JSON object (or its text) with select, filters and sort; at most 16,000 characters.",
          anyOf: [{ type: "object" }, { type: "string" }],
        },
        filter: {
          description: `Plain filters of the entity (${either(metricRecords.map((r) => r.filterType))} fields).`,
          anyOf: metricRecords.map(filterSchema),
        },
        limit: page,
        offset,
      },
      required: ["entity", "metric_query"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(host, args) {
      checkArgs("metric_query", args, ["entity", "metric_query", "filter", "limit", "offset"], ["entity", "metric_query"]);
      const record = bySearch("metric_query", args.entity, metricRecords);
      const query = typeof args.metric_query === "string" ? args.metric_query : JSON.stringify(args.metric_query);
      return run(
        host,
        "metric_query",
        record.metricQuery!,
        { metricQuery: query, filter: args.filter, limit: args.limit, offset: args.offset },
        (data) => data[record.plural] as Record<string, unknown>,
      );
    },
  };

  // The features' own tools (unlock, briefs, projects ...), declared in their feature.ts (src/graphql/mcp-tool.ts).
  // One that changes state (not read-only: it runs a mutation) takes idempotency_key, the mutations' Idempotency-Key.
  const featureTools = installedFeatures().mcp.map((spec): Tool => {
    const keyed = spec.annotations?.readOnlyHint === false;
    const allowed = keyed ? [...spec.args, IDEMPOTENCY_TOOL_ARGUMENT] : spec.args;
    return {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: keyed
        ? {
            ...spec.inputSchema,
            properties: {
              ...spec.inputSchema.properties,
              [IDEMPOTENCY_TOOL_ARGUMENT]: { type: "string", minLength: 1, maxLength: 255, description: IDEMPOTENCY_KEY },
            },
          }
        : spec.inputSchema,
      annotations: spec.annotations,
      async call(host, args) {
        checkArgs(spec.name, args, allowed, spec.required);
        if (!keyed) {
          const plan = spec.plan(args);
          return run(host, spec.name, plan.document, plan.variables, plan.shape);
        }
        const { [IDEMPOTENCY_TOOL_ARGUMENT]: key, ...own } = args;
        const plan = spec.plan(own);
        const variables = { ...plan.variables, [IDEMPOTENCY_KEY_ARGUMENT]: key };
        return run(host, spec.name, withIdempotencyKey(plan.document), variables, plan.shape);
      },
    };
  });

  return [search, details, metrics, metricQuery, ...featureTools];
}

/** Calls a tool by name; argument errors come back as bad_request results, like REST's 400 bodies. */
export async function callTool(tools: readonly Tool[], host: McpHost, name: string, args: Args | undefined): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return failure(httpError("NOT_FOUND", `unknown tool ${JSON.stringify(name)}; tools: ${tools.map((t) => t.name).join(", ")}`));
  try {
    return await tool.call(host, args ?? {});
  } catch (error) {
    return failure(errorBody(error));
  }
}

/** The tools' public definitions (tools/list). */
export function toolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations }));
}

/**
 * A feature's MCP tools, declared in its `feature.ts` as data: the tool's public definition, the arguments it
 * takes, and the GraphQL operation its checked arguments run (src/mcp/tools.ts runs it on the shared execution
 * engine, so cost limits, gating and error bodies are those of /graphql and REST).
 */
import { parse, type DocumentNode } from "graphql";
import { BadRequestError, type ErrorBody } from "./errors";

export type ToolArgs = Record<string, unknown>;

/** What one call runs: the operation, its variables, and how its data becomes the tool's payload (an error body: not found ...). */
export interface McpToolPlan {
  document: DocumentNode;
  variables: Record<string, unknown>;
  shape(data: Record<string, unknown>): Record<string, unknown> | ErrorBody;
}

export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  annotations?: Record<string, boolean>;
  /** The arguments it takes (an unknown one is a bad_request, never ignored) and those it requires. */
  args: readonly string[];
  required: readonly string[];
  /** The operation for these arguments (their names already checked); throws a BadRequestError on a bad value. */
  plan(args: ToolArgs): McpToolPlan;
}

/** A tool argument that must be one of `values`. */
export function oneOf<T extends string>(tool: string, name: string, value: unknown, values: readonly T[]): T {
  if (typeof value !== "string" || !values.includes(value as T))
    throw new BadRequestError(`${tool}: ${name} must be one of ${values.join(", ")}`);
  return value as T;
}

/** Variables without the undefined ones, so the operation's argument defaults apply. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** The selections every MCP record read shares: the caller's access to the record, and a page's position. */
export const MCP_ACCESS = "_access { isUnlocked isUnlocking unlockedAt creditsSpent unlockCost }";
export const MCP_PAGINATION = "pagination { total limit offset hasMore }";

/** A record's metric query (McpRecordSpec.metricQuery), named `operation`: each row's id, NCES id, name, state and metric values. */
export function mcpMetricQuery(operation: string, plural: string, filterType: string): DocumentNode {
  return parse(`
  query ${operation}($metricQuery: String!, $filter: ${filterType}, $limit: Int, $offset: Int) {
    ${plural}(metricQuery: $metricQuery, filter: $filter, limit: $limit, offset: $offset) {
      data { id fedId name state metricValues }
      ${MCP_PAGINATION}
    }
  }`);
}

/**
 * A catalogue record the generic MCP tools read (src/mcp/tools.ts): `search` lists it, `details` reads one,
 * and, with `metricQuery`, `metrics` and `metric_query` run over it.
 */
export interface McpRecordSpec {
  /** search's entity value; `search` takes $filter, $orderBy, $orderAscending, $limit, $offset (and `searchArgs`' variables), rooted at this field. */
  plural: string;
  /** details' entity value; `details` takes $id, rooted at this field. */
  singular: string;
  filterType: string;
  orderType: string;
  search: DocumentNode;
  details: DocumentNode;
  /** Search arguments only this record takes: the tool argument -> its variable and JSON Schema. */
  searchArgs?: Record<string, { variable: string; schema: Record<string, unknown> }>;
  /** The metric query over this record ($metricQuery, $filter, $limit, $offset), rooted at `plural`. */
  metricQuery?: DocumentNode;
}

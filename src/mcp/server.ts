/**
 * The MCP server (official TypeScript SDK, low-level Server): tools/list answers the tools of tools.ts
 * with JSON Schemas generated from the GraphQL schema; tools/call runs them on the host's engine.
 * One instance per connection (stdio) or per request (stateless streamable HTTP).
 */
import fs from "node:fs";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { packageRoot } from "../db/package-root";
import { buildTools, callTool, toolDefinitions, type McpHost } from "./tools";

const INSTRUCTIONS =
  "edmarket: US K-12 and early-childhood market data (NCES districts and schools, Census SAIPE poverty, F-33 finance, Head Start, " +
  "childcare, contacts). Use search to find records, details to read one, metrics and metric_query to rank by statistics, and unlock " +
  "to spend credits on a record's gated fields (contacts' email and phone, districts' and schools' extracted intelligence); " +
  "request_brief and get_brief build and read a deep-research brief of a project's district or school (list_projects and " +
  "create_project give the project). " +
  "Years are school years by their fall year (2023 = 2023-24); money is nominal USD.";

let tools: ReturnType<typeof buildTools> | undefined;
let version: string | undefined;

export function createMcpServer(host: McpHost): Server {
  version ??= (JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
  tools ??= buildTools(host.engine.schema);
  const known = tools;
  const server = new Server({ name: "edmarket", version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions(known) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(known, host, request.params.name, request.params.arguments as Record<string, unknown> | undefined),
  );
  return server;
}

/**
 * Streamable HTTP at /mcp (stateless: every POST carries one JSON-RPC exchange and gets a fresh server
 * and transport). The app mounts it behind the same API key authentication as /graphql and /api/v1, so
 * a missing or bad key is the usual 401 body before MCP sees the request; each tool call then runs with
 * the request's context (caller, time budget) on the shared engine.
 */
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Router, type Request, type Response } from "express";
import type { Context } from "../graphql/context";
import { httpError } from "../graphql/errors";
import type { ExecutionEngine } from "../graphql/execution";
import { logger } from "../logger";
import { createMcpServer } from "./server";

export interface McpHttpHost {
  engine: ExecutionEngine;
  contextFor(req: Request, res: Response): Context;
}

export function mcpRouter(host: McpHttpHost): Router {
  const router = Router();
  router.post("/", async (req, res) => {
    const server = createMcpServer({ engine: host.engine, context: () => host.contextFor(req, res) });
    // JSON answers instead of an SSE stream: every tool answers once, and plain JSON passes any proxy.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logger.error("mcp request failed", { requestId: res.locals.requestId, error: String((error as Error)?.stack ?? error) });
      if (!res.headersSent) res.status(500).json(httpError("INTERNAL_SERVER_ERROR", "internal error"));
    }
  });
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  router.all("/", (_req, res) => {
    res.setHeader("Allow", "POST");
    res.status(405).json(httpError("METHOD_NOT_ALLOWED", "/mcp answers POST only (stateless streamable HTTP)"));
  });
  return router;
}

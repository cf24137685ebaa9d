/**
 * The REST adapter as the composition root mounts it at /api/v1: the route table on the shared engine, and
 * its OpenAPI document (GET /api/v1/openapi.json, no key needed), built once from the same table and schema.
 */
import fs from "node:fs";
import path from "node:path";
import { Router } from "express";
import { packageRoot } from "../src/db/package-root";
import type { RestAdapterFactory } from "../src/graphql/execution";
import { openApiDocument } from "./openapi";
import { createRestRouter } from "./router";
import { routes } from "./routes";

export const packageVersion = (): string =>
  (JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }).version;

export const restAdapter: RestAdapterFactory = (host) => {
  const open = Router();
  let body: Buffer | undefined;
  open.get("/openapi.json", (_req, res) => {
    body ??= Buffer.from(JSON.stringify(openApiDocument(routes, host.engine.schema, { version: packageVersion() })));
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length, "Cache-Control": "no-cache" });
    res.end(body);
  });
  return { router: createRestRouter(routes, host), open };
};

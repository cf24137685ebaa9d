/** The REST adapter as the composition root mounts it at /api/v1: the route table on the shared engine. */
import type { RestAdapterFactory } from "../src/graphql/execution";
import { createRestRouter } from "./router";
import { routes } from "./routes";

export const restAdapter: RestAdapterFactory = (host) => createRestRouter(routes, host);

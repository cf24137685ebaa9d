/**
 * The composition root: the CLI (src/) with the REST adapter (rest-adapter/) wired in. src/ never
 * imports rest-adapter/; this file is the one place that knows both. It also arms the fault tests' pause
 * points when EDMARKET_FAULT_PAUSE_AT names some (src/fault-points.ts; never set in production).
 */
import "reflect-metadata";
import { runCli } from "../src/cli/main";
import { armFaultPoints } from "../src/fault-points";
import type { RestAdapterFactory } from "../src/graphql/execution";

/** Loaded when a server builds its app: the REST adapter (and the GraphQL schema it imports) is most of what the
 * administration commands would otherwise load and never use. */
const rest: RestAdapterFactory = (host) => (require("../rest-adapter") as typeof import("../rest-adapter")).restAdapter(host);

if (process.env.EDMARKET_FAULT_PAUSE_AT) armFaultPoints(process.env.EDMARKET_FAULT_PAUSE_AT);
runCli(process.argv.slice(2), { rest });

/**
 * The GraphQL reference of `npm run bench:graphql`: PostGraphile v5 (preset amber, pg adaptor, the
 * node:http grafserv adaptor) over one schema of the bench database (PG_SCHEMA: the bench's plain
 * two-table schema `bench_plain`), production-like: Grafast in production mode, no GraphiQL, no watch
 * mode, no websockets, no EXPLAIN, a pg pool of POOL_SIZE. Usage:
 *   DATABASE_URL=... PORT=... PG_SCHEMA=... [POOL_SIZE=10] [HOST=127.0.0.1] node bench/postgraphile-server.mjs
 *
 * PostGraphile v5 requires Node 22 (`Promise.withResolvers`, used by grafast, grafserv and @dataplan/pg);
 * on Node 20 a spec-equivalent polyfill is installed before any of it is loaded (hence the dynamic
 * imports below: static imports would be evaluated before this module's body).
 *
 * The plain schema declares its foreign key (district_annual_stats.district_id -> districts.id), so the
 * relation is generated from it. Ordering puts nulls last (`pgOrderByNullsLast`), as ours does.
 */
/* global process */
import http from "node:http";

if (typeof Promise.withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    value: function withResolvers() {
      let resolve, reject;
      const promise = new this((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

// Grafast's production mode (it reads this when loaded), whatever NODE_ENV says; set explicitly, it also
// silences the warning printed when neither variable is set.
process.env.GRAPHILE_ENV ??= "production";

const { postgraphile } = await import("postgraphile");
const { PostGraphileAmberPreset } = await import("postgraphile/presets/amber");
const { makePgService } = await import("postgraphile/adaptors/pg");
const { grafserv } = await import("postgraphile/grafserv/node");

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const port = Number(process.env.PORT ?? 5678);
const host = process.env.HOST ?? "127.0.0.1";
const poolSize = Number(process.env.POOL_SIZE ?? 10);
const schema = process.env.PG_SCHEMA;
if (!schema) throw new Error("PG_SCHEMA is required");

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: databaseUrl, schemas: [schema], poolConfig: { max: poolSize } })],
  schema: { pgOrderByNullsLast: true },
  grafserv: { graphiql: false, watch: false, websockets: false, graphqlPath: "/graphql" },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = http.createServer();
await serv.addTo(server);
// Builds the schema (introspection) before the port opens: the first request is not a cold start.
await pgl.getSchema();
server.listen(port, host);

const shutdown = async () => {
  server.close();
  await pgl.release(); // releases the grafserv instance and the pg pool too
  process.exit(0);
};
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);

/**
 * The one module that chooses the database. Without DATABASE_URL the service runs on embedded PGlite
 * (on disk under DATA_DIR, or in memory for tests); with it, on PostgreSQL through node-postgres.
 * Nothing else in the codebase knows which one it is talking to: callers get a `Db`.
 */
import fs from "node:fs";
import path from "node:path";
import type { messages, PGlite } from "@electric-sql/pglite";
import type { Pool, PoolClient } from "pg";
import { logger } from "../logger";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock";
import { PrismaClient } from "./generated/client";
import { Turns } from "./turns";
import { hnswSessionSql, hnswStartupOptions, VECTOR_PLANNER_SQL } from "./vector-settings";

export type DbKind = "embedded" | "postgres";

export interface Db {
  readonly kind: DbKind;
  readonly prisma: PrismaClient;
  /** Whether the pgvector extension is installed (always on embedded; optional on PostgreSQL). */
  readonly hasVector: boolean;
  /** Parameterised SQL ($1, $2 ...) outside Prisma: bulk upserts, migrations, hand-built list queries. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /** Several statements separated by semicolons, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction on one connection; `q` is bound to that transaction. */
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Statements sent to the database since start; tests use it to prove there is no N+1. */
  readonly stats: { statements: number };
  /**
   * This database without a request's time budget (src/graphql/request-budget.ts wraps it per request): work whose
   * result outlives the request, such as filling a process-wide cache, runs on it.
   */
  readonly unbounded: Db;
  /**
   * The raw driver, for pg-boss, which shares the database. Embedded: `pglite` takes turns (src/db/turns.ts)
   * and counts its statements; `uncounted` is a statement in turn that `stats` does not count (the control channel).
   */
  readonly driver:
    | {
        kind: "embedded";
        pglite: PGlite;
        uncounted: Queryable["query"];
        /**
         * Runs `fn` when its turn starts, its statements (counted) in that turn: a caller that must decide just before
         * its statement runs (a request's deadline) without wrapping it in BEGIN and COMMIT, two more round trips.
         */
        inTurn<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
      }
    | { kind: "postgres"; pool: Pool; url: string };
  close(): Promise<void>;
}

/** How a statement is run. */
export interface QueryOptions {
  /**
   * `generic`: on embedded, prepared once (by its text) and planned once for any parameters. For a statement run on
   * every request whose planning costs more than its run and whose best plan does not depend on its parameters (the
   * semantic search's fusing statement: 2.6 ms of planning a request on embedded; bench/semantic.ts): a named
   * statement (64 kept, the least recently used closed) bound under `plan_cache_mode = force_generic_plan`.
   * PostgreSQL plans as usual: its planning is a fraction of PGlite's, and named statements would stay prepared on
   * every pooled connection, one per text (the block loaders' texts vary with the blocks asked for). Inside a
   * transaction it runs as any other statement.
   */
  plan?: "generic";
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

export interface DbOptions {
  /** postgres://... ; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Directory for the embedded database; `memory://` keeps it in memory. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PostgreSQL only: `statement_timeout` of every pooled connection (the API's request budget). */
  statementTimeoutMs?: number;
  /** Embedded only: start from this dumped data directory (`dumpDataDir`) instead of a new one (tests' template). */
  loadDataDir?: Blob;
  /** Embedded only: initdb's further arguments, for a new data directory (the tests' template). */
  initdbArgs?: string[];
  /** Embedded only: server settings for this boot, as `postgres -c name=value` (the tests' template). */
  settings?: Record<string, string>;
  /**
   * Embedded only: an open instance (from `bootPglite`) to run on instead of booting one; `close()` closes it. The
   * tests hand out pooled instances this way (test/support/db-pool.ts).
   */
  embeddedInstance?: PGlite;
}

/**
 * Prisma's "minimal" error format: its other formats capture a stack trace at every call (to print a code frame of the
 * calling line when the call fails), a cost on every query. Errors keep their codes (P2002 ...), which is what the
 * services read; their messages are never shown to a caller (src/graphql/errors.ts).
 */
const PRISMA_ERROR_FORMAT = "minimal";

export async function createDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl
    ? createPostgresDb(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMs)
    : createEmbeddedDb(options.dataDir ?? "memory://", options);
}

async function createEmbeddedDb(dataDir: string, options: DbOptions): Promise<Db> {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const pgliteModule = await import("@electric-sql/pglite");
  const location = dataDir.startsWith("memory://") ? dataDir : path.resolve(dataDir, "pglite");
  // A second process on the same directory would corrupt it: hold DATA_DIR for as long as this is open.
  let lock: DataDirLock | undefined;
  if (!options.embeddedInstance && !location.startsWith("memory://")) {
    fs.mkdirSync(path.dirname(location), { recursive: true });
    lock = await acquireDataDirLock(path.dirname(location));
  }
  let pglite: PGlite;
  try {
    pglite = options.embeddedInstance ?? (await bootPglite(location, options));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const stats = { statements: 0 };
  const { root, uncounted, inTurn } = takeTurnsAndCount(pglite, stats, pgliteModule);
  try {
    await pglite.exec(
      `CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm; ${VECTOR_PLANNER_SQL}; ${hnswSessionSql()}`,
    );
  } catch (error) {
    await pglite.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite as never), errorFormat: PRISMA_ERROR_FORMAT });

  const db: Db = {
    kind: "embedded",
    prisma,
    hasVector: true,
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
    stats,
    driver: { kind: "embedded", pglite, uncounted, inTurn },
    get unbounded() {
      return db;
    },
    async close() {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
  return db;
}

/** A PGlite instance with this service's extensions and type parsers, at `location` (a directory or `memory://`). */
export async function bootPglite(
  location: string,
  { loadDataDir, initdbArgs, settings }: Pick<DbOptions, "loadDataDir" | "initdbArgs" | "settings"> = {},
): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  // A package subpath export, which TypeScript's CommonJS resolution cannot type: require it.
  const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm") as { pg_trgm: import("@electric-sql/pglite").Extension };
  // Dynamic import resolves PGlite's ESM typings, the type import above its CJS ones: same class.
  return (await PGlite.create({
    dataDir: location,
    extensions: { vector, pg_trgm },
    loadDataDir,
    initDbStartParams: initdbArgs,
    startParams: settings && [
      ...PGlite.defaultStartParams,
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    parsers: { 20: Number, 1700: Number, 1082: (v: string) => v },
  })) as unknown as PGlite;
}

async function createPostgresDb(url: string, poolSize: number, statementTimeoutMs?: number): Promise<Db> {
  const pg = await import("pg");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  // Counts, numerics and bigints come back as JS numbers: the API serves them as JSON numbers.
  pg.types.setTypeParser(20, (v) => Number(v));
  pg.types.setTypeParser(1700, (v) => Number(v));
  // Calendar dates stay strings: a Date would shift by the process time zone.
  pg.types.setTypeParser(1082, (v) => v);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // pgvector's search settings on every connection (inert placeholders where the extension is absent).
    options: hnswStartupOptions(),
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  const stats = { statements: 0 };
  pool.on("connect", (client) => {
    countPgStatements(client, stats);
    // A connection the server ends while it is checked out (a restart or failover sends FATAL 57P01 to every session)
    // emits 'error' with none of the pool's listeners attached: that crashed the process (kill -9 of the API by its own
    // database). The holder's next statement fails instead (answered 503), and the pool drops the client on release.
    client.on("error", (error) => logger.warn("database connection lost", { error: error.message }));
  });
  // An idle connection the server closes (restart, failover, pg_terminate_backend) must not crash the
  // process: the pool drops it and the next query opens a new one.
  pool.on("error", (error) => logger.warn("idle database connection lost", { error: error.message }));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: PRISMA_ERROR_FORMAT });
  await pool.query("CREATE EXTENSION IF NOT EXISTS pg_trgm").catch(() => undefined);
  const hasVector = await pool
    .query("CREATE EXTENSION IF NOT EXISTS vector")
    .then(() => true)
    .catch(() => false);
  // Only the extension's owner may; another role keeps pgvector's own estimate.
  if (hasVector) await pool.query(VECTOR_PLANNER_SQL).catch(() => undefined);

  const queryable = (target: Pool | PoolClient): Queryable => ({
    // `options` (a generic plan) is left to the server: named statements would stay prepared on every pooled connection.
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await target.query(sql, params as unknown[])).rows as T[];
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });
  const root = queryable(pool);
  const db: Db = {
    kind: "postgres",
    prisma,
    hasVector,
    query: root.query,
    exec: root.exec,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(queryable(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    stats,
    driver: { kind: "postgres", pool, url },
    get unbounded() {
      return db;
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
  return db;
}

type GenericRun = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/**
 * PGlite's query and exec (the instance, a transaction's, or raw ones in a turn) as a Queryable; `generic` runs the
 * statements that ask for a generic plan (none inside a transaction: they run as the others there).
 */
export function queryable(target: Pick<PGlite, "query" | "exec">, generic?: GenericRun): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      if (generic && options?.plan === "generic") return generic<T>(sql, params);
      return (await target.query<T>(sql, params as unknown[])).rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

/**
 * Every statement and transaction of the instance takes its turn (src/db/turns.ts: one at a time, in order,
 * the next started from the event loop) and is counted in `stats`, those inside a transaction too; whoever
 * holds the instance (Prisma's adapter, pg-boss) goes through both. Returns a query in turn that is not counted,
 * and `inTurn` (Db.driver).
 */
function takeTurnsAndCount(
  pglite: PGlite,
  stats: { statements: number },
  wire: Wire,
): { root: Queryable; uncounted: Queryable["query"]; inTurn: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T> } {
  const turns = new Turns();
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  const transaction = pglite.transaction.bind(pglite);
  const generic = genericStatements(pglite, wire);
  const counted = <F extends (...args: never[]) => unknown>(fn: F): F =>
    function (this: unknown, ...args: Parameters<F>) {
      stats.statements += 1;
      return fn.apply(this, args);
    } as F;
  const target = pglite as unknown as Record<string, unknown>;
  target.query = counted(((...args: Parameters<PGlite["query"]>) => turns.run(() => query(...args))) as PGlite["query"]);
  target.exec = counted(((...args: Parameters<PGlite["exec"]>) => turns.run(() => exec(...args))) as PGlite["exec"]);
  // The transaction is one turn; its statements run on its own connection state (tx), counted.
  target.transaction = (fn: (tx: Parameters<Parameters<PGlite["transaction"]>[0]>[0]) => Promise<unknown>) =>
    turns.run(() =>
      transaction((tx) => {
        const t = tx as unknown as Record<string, unknown>;
        t.query = counted(tx.query.bind(tx));
        t.exec = counted(tx.exec.bind(tx));
        return fn(tx);
      }),
    );
  // Inside a turn the statements go straight to PGlite: another turn would wait for this one to end.
  const inTurnQueryable = queryable({ query: counted(query), exec: counted(exec) }, counted<GenericRun>(generic));
  return {
    root: queryable(
      pglite,
      counted<GenericRun>((sql, params) => turns.run(() => generic(sql, params))),
    ),
    uncounted: async <T>(sql: string, params: readonly unknown[] = []) => (await turns.run(() => query<T>(sql, params as unknown[]))).rows,
    inTurn: (fn) => turns.run(() => fn(inTurnQueryable)),
  };
}

/** PGlite's wire protocol messages and result parsing (its module, loaded with it). */
type Wire = Pick<typeof import("@electric-sql/pglite"), "protocol" | "parse">;
type BackendMessage = messages.BackendMessage;

/** Prepared statements kept per embedded instance (least recently used closed first). */
const GENERIC_STATEMENTS = 64;

/**
 * Runs statements as named prepared statements of the PGlite instance, each planned once with a generic plan
 * (QueryOptions `generic`), through PGlite's wire protocol: its `query` prepares an unnamed statement, planned anew
 * each time. Parameters are serialized and rows parsed by the instance's own serializers and parsers, as its `query`
 * does. The caller holds the instance (a turn).
 */
function genericStatements(pglite: PGlite, { protocol, parse }: Wire): GenericRun {
  const { serialize } = protocol;
  const prepared = new Map<string, { name: string; types: number[] }>();
  let next = 0;
  const send = async (message: Uint8Array, into: BackendMessage[]) =>
    void into.push(...(await pglite.execProtocol(message, { syncToFs: false })).messages);
  return async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
    let statement = prepared.get(sql);
    if (statement) {
      prepared.delete(sql);
      prepared.set(sql, statement);
    } else {
      const name = `edm_generic_${next++}`;
      const described: BackendMessage[] = [];
      try {
        await send(serialize.parse({ name, text: sql }), described);
        await send(serialize.describe({ type: "S", name }), described);
      } finally {
        await send(serialize.sync(), described);
      }
      const parameters = described.find((m): m is messages.ParameterDescriptionMessage => m.name === "parameterDescription");
      statement = { name, types: parameters?.dataTypeIDs ?? [] };
      prepared.set(sql, statement);
      if (prepared.size > GENERIC_STATEMENTS) {
        const [oldest, evicted] = prepared.entries().next().value!;
        prepared.delete(oldest);
        await send(serialize.close({ type: "S", name: evicted.name }), []);
        await send(serialize.sync(), []);
      }
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[statement.types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages: BackendMessage[] = [];
    // The plan is chosen at Bind: the setting only around it, so no other prepared plan (a trigger's) is affected.
    await pglite.execProtocol(serialize.query("SET plan_cache_mode = force_generic_plan"), { syncToFs: false });
    try {
      await send(serialize.bind({ statement: statement.name, values }), messages);
      await send(serialize.describe({ type: "P" }), messages);
      await send(serialize.execute({}), messages);
    } finally {
      await send(serialize.sync(), messages);
      await pglite.execProtocol(serialize.query("RESET plan_cache_mode"), { syncToFs: false });
    }
    await pglite.syncToFs(); // as PGlite's own query does after a statement outside a transaction
    return (parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as T[];
  };
}

function countPgStatements(client: PoolClient, stats: { statements: number }): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
    stats.statements += 1;
    return original(...args);
  };
}

/**
 * The `edmarket` CLI. Administration commands print exactly one JSON object on stdout (contract
 * section 3); errors print `{ "error": ... }` on stderr and exit non-zero.
 */
import "reflect-metadata";
import { loadEnv } from "../config/env";
import type { RestAdapterFactory } from "../graphql/execution";
import { migrate } from "../db/migrate";
import { rekeyLegacyExtractionIds } from "../features/research/extraction/extraction.rekey";
import { createApiKey, revokeApiKeys } from "../features/account/organizations/api-keys.service";
import { createOrganization, createProject, grantCredits } from "../features/account/organizations/organization.service";
import { MAX_CREDIT_GRANT } from "../features/account/credits/credits.service";
import { AppError } from "../graphql/errors";
import { openDatabase } from "../db/open";
import { StartupError } from "../startup-error";
import { flag, parseArgs, UsageError, type ParsedArgs } from "./args";

const USAGE = `usage: edmarket <command>
  serve [--role api|worker|all]
  db migrate
  seed demo
  ingest <source> <file>          (edmarket ingest --help lists the sources)
  ingest news-feed <url-or-file> [--refetch]  (one news feed ingested once: items, new, updated, unchanged, failed, signals,
                                  seconds; --refetch reads pages already stored again, to catch edits)
  news feed add <url> | list | remove <id-or-url>   (feeds the worker polls every NEWS_POLL_MINUTES)
  org create --name N --plan free|pro|enterprise|internal [--credits C] [--entitlement signals]
  key create --org ID
  key revoke --key-prefix P
  project create --org ID --name N
  credits grant --org ID --amount N
  extract --entity district|school:<uuid> [--url <site root>]
  mcp [--key sk_live_...]         (MCP server on stdio; the key may come from EDMARKET_API_KEY)`;

type Command = (args: ParsedArgs) => Promise<unknown>;

/** What closing the job queue and the database may take after the drain (src/server.ts drainMs). */
const SHUTDOWN_MARGIN_MS = 10_000;

type Migrated = Awaited<ReturnType<typeof migrate>>;

const withDb =
  (fn: (db: Awaited<ReturnType<typeof openDatabase>>, args: ParsedArgs, migrated: Migrated) => Promise<unknown>): Command =>
  async (args) => {
    const db = await openDatabase(loadEnv());
    try {
      const migrated = await migrate(db);
      await rekeyLegacyExtractionIds(db);
      return await fn(db, args, migrated);
    } finally {
      await db.close();
    }
  };

/**
 * A whole number of credits from `min` to MAX_CREDIT_GRANT (issue 20 point 10): digits only, so 1.5, 1e20, 0x10,
 * -3 or an empty value are refused here rather than read as some other number.
 */
const credits = (args: ParsedArgs, name: string, min: number, required = true): number | undefined => {
  const raw = flag(args, name, required);
  if (raw === undefined) return undefined;
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw);
  if (!/^[0-9]+$/.test(raw)) throw new UsageError(`--${name} must be a whole number of credits (digits only), got ${shown}`);
  const value = Number(raw);
  if (value < min || value > MAX_CREDIT_GRANT) throw new UsageError(`--${name} must be from ${min} to ${MAX_CREDIT_GRANT}, got ${shown}`);
  return value;
};

const COMMANDS: Record<string, Command> = {
  // Every command migrates first, so `db migrate` reports that run (a second migrate would always say none).
  "db migrate": withDb(async (_db, _args, migrated) => ({ applied: migrated.applied, already_applied: migrated.alreadyApplied })),
  "seed demo": withDb(async (db) => {
    const { seedDemo } = await import("../seed");
    const result = await seedDemo(db, { progress: process.stderr.isTTY });
    return { demo_keys: result.demo_keys, organizations: result.organizations, ingest: result.ingest, demo: result.demo };
  }),
  "org create": async (args) => {
    const initial = credits(args, "credits", 0, false); // refused before the database is opened
    return withDb(async (db) => {
      const { organizationId } = await createOrganization(db, {
        name: flag(args, "name")!,
        plan: flag(args, "plan")!,
        credits: initial,
        entitlements: args.flags.get("entitlement") ?? [],
      });
      return { organization_id: organizationId };
    })(args);
  },
  "key create": withDb(async (db, args) => ({ api_key: (await createApiKey(db, flag(args, "org")!)).apiKey })),
  "key revoke": withDb(async (db, args) => ({ revoked: await revokeApiKeys(db, flag(args, "key-prefix")!) })),
  "project create": withDb(async (db, args) => ({
    project_id: (await createProject(db, flag(args, "org")!, flag(args, "name")!)).projectId,
  })),
  "credits grant": async (args) => {
    const amount = credits(args, "amount", 1)!; // refused before the database is opened
    return withDb((db) => grantCredits(db, flag(args, "org")!, amount))(args);
  },
  extract: withDb(async (db, args) => {
    const { extractCommand, ExtractUsageError } = await import("../features/research/extraction/extraction.cli");
    // As in the worker (src/compose-jobs.ts): a district site's news pages become articles.
    const { useSiteNewsSink } = await import("../features/research/extraction/site-news");
    const { storeSiteNews } = await import("../features/research/news/ingest/site-news");
    useSiteNewsSink(storeSiteNews);
    try {
      return await extractCommand(db, loadEnv(), flag(args, "entity")!, flag(args, "url", false));
    } catch (error) {
      throw error instanceof ExtractUsageError ? new UsageError(error.message) : error;
    }
  }),
  "ingest news-feed": async (args) => {
    const { ingestNewsFeedCommand, checkIngestNewsFeedArgs, NewsUsageError } = await import("../features/research/news/ingest/news.cli");
    const usage = (error: unknown) => (error instanceof NewsUsageError ? new UsageError(error.message) : error);
    const source = args.positional[2];
    const options = { refetch: flag(args, "refetch", false) };
    try {
      checkIngestNewsFeedArgs(source, options); // refused before the database is opened
    } catch (error) {
      throw usage(error);
    }
    return withDb(async (db) => {
      try {
        return await ingestNewsFeedCommand(db, loadEnv(), source, options);
      } catch (error) {
        throw usage(error);
      }
    })(args);
  },
  "news feed": async (args) => {
    const { newsFeedCommand, checkNewsFeedArgs, NewsUsageError } = await import("../features/research/news/ingest/news.cli");
    const usage = (error: unknown) => (error instanceof NewsUsageError ? new UsageError(error.message) : error);
    const [, , action, argument] = args.positional;
    try {
      checkNewsFeedArgs(action, argument); // refused before the database is opened
    } catch (error) {
      throw usage(error);
    }
    return withDb(async (db) => {
      try {
        return await newsFeedCommand(db, action, argument);
      } catch (error) {
        throw usage(error);
      }
    })(args);
  },
  ingest: async (args) => {
    const { INGEST_SOURCES, runIngest } = await import("../ingest");
    // The sources, their files and tables: answered without opening the database.
    if (args.flags.has("help")) return { sources: INGEST_SOURCES };
    const [, source, file] = args.positional;
    if (!source || !file) throw new UsageError("usage: edmarket ingest <source> <file> (edmarket ingest --help lists the sources)");
    if (!(source in INGEST_SOURCES)) throw new UsageError(`unknown source ${source}; one of ${Object.keys(INGEST_SOURCES).join(", ")}`);
    return withDb((db) => runIngest(db, source, file, { progress: process.stderr.isTTY }))(args);
  },
};

/** What the composition root (bin/cli.ts) wires in from outside src/: the REST adapter. */
export interface Composition {
  rest?: RestAdapterFactory;
}

async function main(argv: string[], composition: Composition): Promise<void> {
  const args = parseArgs(argv);
  const [first, second] = args.positional;
  // Asking for help never opens the database (it once started the service: no command means serve).
  if (first === "help" || (args.flags.has("help") && first !== "ingest") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (first === "serve" || first === undefined) {
    const role = (flag(args, "role", false) ?? "all") as "api" | "worker" | "all";
    if (!["api", "worker", "all"].includes(role)) throw new UsageError("--role must be api, worker or all");
    const { serve, drainMs } = await import("../server");
    const { logger } = await import("../logger");
    const env = loadEnv();
    const started = await serve({ role, env, rest: composition.rest });
    // The drain is bounded (src/server.ts); closing the queue and the database after it gets a margin, then the
    // process exits regardless: a transaction still open is rolled back by the database.
    const boundMs = drainMs(env) + SHUTDOWN_MARGIN_MS;
    const shutdown = () => {
      setTimeout(() => {
        logger.error("shutdown did not finish in time; exiting", { bound_ms: boundMs });
        process.exit(1);
      }, boundMs).unref();
      void started.stop().then(
        () => process.exit(0),
        (error: Error) => {
          logger.error("shutdown failed", { error: error.message });
          process.exit(1);
        },
      );
    };
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
    return;
  }
  if (first === "mcp") {
    // Stdout belongs to the MCP protocol: nothing else is printed there, and the command ends when the client closes stdin.
    const { runMcpStdio } = await import("../mcp/stdio");
    const session = await runMcpStdio({ env: loadEnv(), apiKey: flag(args, "key", false) ?? process.env.EDMARKET_API_KEY });
    const shutdown = () => void session.stop();
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
    await session.closed;
    process.exit(0);
  }
  const command = COMMANDS[`${first} ${second}`] ?? COMMANDS[first];
  if (!command) throw new UsageError(USAGE);
  const result = await command(args);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs one CLI command; errors print one JSON line on stderr and set the exit code. */
export function runCli(argv: string[], composition: Composition): void {
  main(argv, composition).catch(reportAndExit);
}

function reportAndExit(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error instanceof UsageError
      ? "usage"
      : error instanceof AppError
        ? error.code.toLowerCase()
        : error instanceof StartupError
          ? error.code
          : "error";
  process.stderr.write(`${JSON.stringify({ error: code, message })}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
}

/**
 * Issue 20 point 5: fragments that spread the next fragment twice (`fragment F0 on X { id ...F1 ...F1 }`,
 * 40 levels: 2^40 expansions of the last one) through every root list field of the schema, sent to a
 * real `edmarket serve` process over HTTP. Each must answer (data or a client error) instead of pinning
 * the process: the server runs in its own process so a request that never ends fails this test at its
 * deadline (2^40 steps cannot end within it) instead of blocking the test runner's own event loop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
} from "graphql";
import type { Db } from "../../src/db/client";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { getSchema } from "../../src/graphql/schema";
import { createTestDb, openTestDataDir, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";

const LEVELS = 40;
/** A request's deadline: ample for any answer, and 2^40 walk steps cannot finish within it. */
const ANSWER_MS = 15_000;
const root = path.resolve(__dirname, "../..");

/** The item type a root field lists: `[X]` directly, or a page's `data: [X]`. */
function listedItem(field: GraphQLField<unknown, unknown>): { path: string[]; item: GraphQLNamedType } | undefined {
  const type = getNullableType(field.type);
  if (isListType(type)) return { path: [], item: getNamedType(type) };
  if (isObjectType(type)) {
    const data = type.getFields().data;
    if (data && isListType(getNullableType(data.type))) return { path: ["data"], item: getNamedType(data.type) };
  }
  return undefined;
}

/** A literal for a required argument (an id nobody has, an enum's first value ...): any answer is fine. */
function literal(type: GraphQLInputType): string {
  const inner = getNullableType(type);
  if (isListType(inner)) return `[${literal(inner.ofType)}]`;
  if (isEnumType(inner)) return inner.getValues()[0].name;
  switch ((inner as GraphQLNamedType).name) {
    case "Int":
    case "Float":
      return "1";
    case "Boolean":
      return "true";
    case "UUID":
      return JSON.stringify(randomUUID());
    default:
      return '"x"';
  }
}

/** Every root query field returning a list or a page of an object type, derived from the schema. */
function rootListFields(): { name: string; query: string }[] {
  const out: { name: string; query: string }[] = [];
  for (const field of Object.values(getSchema().getQueryType()!.getFields())) {
    const listed = listedItem(field);
    if (!listed || !isCompositeType(listed.item)) continue;
    const item = listed.item;
    const scalar =
      "getFields" in item
        ? Object.values(item.getFields()).find((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)))
        : undefined;
    const leaf = scalar?.name ?? "__typename";
    const args = field.args.filter((a) => isNonNullType(a.type)).map((a) => `${a.name}: ${literal(a.type)}`);
    const call = args.length ? `${field.name}(${args.join(", ")})` : field.name;
    const fragments = Array.from({ length: LEVELS }, (_, i) =>
      i === LEVELS - 1
        ? `fragment F${i} on ${item.name} { ${leaf} }`
        : `fragment F${i} on ${item.name} { ${leaf} ...F${i + 1} ...F${i + 1} }`,
    );
    const selection = listed.path.reduceRight((inner, key) => `${key} { ${inner} }`, "...F0");
    out.push({ name: field.name, query: `query Fanout { ${call} { ${selection} } } ${fragments.join(" ")}` });
  }
  return out;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const fields = rootListFields();

describe("a 40-level doubling fragment fan-out through every root list field (issue 20 point 5)", () => {
  let pg: TestDb | undefined;
  let dataDir: string | undefined;
  let child: ChildProcess | undefined;
  let stderr = "";
  let base: string;
  let apiKey: string;

  beforeAll(async () => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    delete inherited.DATABASE_URL;
    let env: Record<string, string>;
    let db: Db;
    if (process.env.DATABASE_URL) {
      db = pg = await createTestDb();
      env = { ...inherited, DATABASE_URL: pg.url! };
    } else {
      // The embedded directory is prepared here and closed before `serve` opens it (one process per directory).
      ({ dataDir, db } = await openTestDataDir("edm-fanout-"));
      env = { ...inherited, DATA_DIR: dataDir, SEED_ON_EMPTY: "false" };
    }
    const { organizationId } = await createOrganization(db, { name: "Fanout", plan: "enterprise", credits: 10, entitlements: ["signals"] });
    apiKey = (await createApiKey(db, organizationId)).apiKey;
    const districtId = await insertDistrict(db, { name: "Fanout District", state: "NE" });
    await insertSchool(db, { name: "Fanout School", state: "NE", district_id: districtId });
    if (!pg) await db.close();

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["scripts/run-ts.js", "bin/cli.ts", "serve", "--role", "api"], {
      cwd: root,
      env: { ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "error", API_KEY_CACHE_SECONDS: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; ; i += 1) {
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (child.exitCode !== null || i > 600) throw new Error(`serve did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      // SIGKILL: a process stuck in a synchronous walk never runs a SIGTERM handler.
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    await pg?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("derives the root list fields from the schema", () => {
    // districts, schools, contacts, operators ... and plain lists such as projects: none may be missed.
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(["districts", "schools", "projects"]));
    expect(fields.length).toBeGreaterThanOrEqual(8);
  });

  it.each(fields.map((f) => [f.name, f.query]))(
    "%s: answered with data or a client error before its deadline",
    async (_name, query) => {
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query }),
        signal: AbortSignal.timeout(ANSWER_MS),
      });
      const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
      expect(response.status).toBeLessThan(500);
      if (response.status >= 400) {
        // Refused before anything expands the fragments: the selection limit names the count.
        expect(body.errors?.[0].message).toMatch(/fields once its fragments are expanded; at most \d+ are allowed/);
      } else {
        expect(body.data).toBeDefined();
      }
    },
    ANSWER_MS + 5_000,
  );
});

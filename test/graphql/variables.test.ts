/**
 * Issue 20 point 9: GraphQL variables. A variable's default applies when the client sends no value (graphql-jit
 * alone refused a non-null variable with a default as "not provided"), and a value of the wrong type answers
 * BAD_USER_INPUT naming the variable, never INTERNAL_SERVER_ERROR, never 5xx, nothing logged as an internal
 * error: on /graphql and through the MCP tools, whose arguments are the variables of their operations.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

/** Log lines written to stderr while `fn` runs (LOG_LEVEL error: only errors). */
async function errorLogs(fn: () => Promise<void>): Promise<string[]> {
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "error";
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
    process.env.LOG_LEVEL = previous;
  }
  return lines.join("").split("\n").filter(Boolean);
}

const LONG = `NE${"x".repeat(5000)}`;
const PAGE = (vars: string, args: string) => `query Q(${vars}) { districts(${args}) { data { id name } } }`;

describe("GraphQL variables (issue 20 point 9)", () => {
  let t: TestApp;
  let ne: string;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp();
    ne = await insertDistrict(t.db, { name: "Variables District", state: "NE" });
    await insertDistrict(t.db, { name: "Other District", state: "VT" });
    const port = (t.server.address() as { port: number }).port;
    client = new Client({ name: "variables-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.enterprise}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await t?.close();
  });

  it("runs with a variable's default when no variables are sent (non-null and nullable, scalar, enum, input object)", async () => {
    const cases: [string, Record<string, unknown> | undefined][] = [
      [PAGE(`$s: String! = "NE"`, `filter: { state: $s }, limit: 1`), undefined],
      [PAGE(`$s: String! = "NE"`, `filter: { state: $s }, limit: 1`), {}],
      [PAGE(`$s: String = "NE", $l: Int! = 5`, `filter: { state: $s }, limit: $l`), {}],
      [PAGE(`$f: DistrictFilter! = { state: "NE" }, $o: DistrictOrderField! = name`, `filter: $f, orderBy: $o, limit: 5`), {}],
    ];
    for (const [query, variables] of cases) {
      const res = await t.post("/graphql", variables === undefined ? { query } : { query, variables });
      expect([query, res.status, res.body.errors, res.body.data]).toEqual([
        query,
        200,
        undefined,
        { districts: { data: [{ id: ne, name: "Variables District" }] } },
      ]);
    }
    // A sent value still wins over the default.
    const sent = await t.graphql(PAGE(`$s: String! = "VT"`, `filter: { state: $s }, limit: 1`), { s: "NE" });
    expect(sent).toMatchObject({ data: { districts: { data: [{ id: ne }] } } });
  });

  it("a hostile variable value answers 400 BAD_USER_INPUT naming the variable on /graphql, nothing logged as internal", async () => {
    const table: [label: string, query: string, variables: Record<string, unknown>, variable: string, message: RegExp][] = [
      ["Int as a string", PAGE("$l: Int", "limit: $l"), { l: "200" }, "l", /must be an integer.*; got "200"$/],
      ["Int 1e308", PAGE("$l: Int", "limit: $l"), { l: 1e308 }, "l", /must be an integer/],
      ["Int 2^31", PAGE("$l: Int", "limit: $l"), { l: 2 ** 31 }, "l", /must be an integer/],
      ["Int 1.5", PAGE("$l: Int", "limit: $l"), { l: 1.5 }, "l", /must be an integer/],
      ["String as a list", PAGE("$s: String", "filter: { state: $s }"), { s: ["NE"] }, "s", /must be a string; got \["NE"\]$/],
      ["String as an object", PAGE("$s: String", "filter: { state: $s }"), { s: { a: 1 } }, "s", /must be a string/],
      ["non-null as null", PAGE("$s: String!", "filter: { state: $s }"), { s: null }, "s", /must not be null$/],
      ["non-null missing", PAGE("$s: String!", "filter: { state: $s }"), {}, "s", /is required$/],
      ["Float 1e308 as Int", PAGE("$l: Int!", "limit: $l"), { l: 1e308 }, "l", /must be an integer/],
      ["Float as a string", PAGE("$r: Float", "filter: { minStudentTeacherRatio: $r }"), { r: "x" }, "r", /must be a finite number/],
      ["Boolean as a string", PAGE("$a: Boolean", "orderAscending: $a"), { a: "yes" }, "a", /must be true or false/],
      [
        "DateTime of month 13",
        PAGE("$u: DateTimeISO", "filter: { updatedSince: $u }"),
        { u: "2024-13-01T00:00:00Z" },
        "u",
        /must be an ISO 8601 date-time/,
      ],
      [
        "unknown enum value",
        PAGE("$o: DistrictOrderField", "orderBy: $o"),
        { o: "moon" },
        "o",
        /must be one of name, state, .*; got "moon"$/,
      ],
      ["enum as a number", PAGE("$o: DistrictOrderField", "orderBy: $o"), { o: 3 }, "o", /must be one of name/],
      ["UUID", `query Q($id: UUID!) { district(id: $id) { id } }`, { id: "not-a-uuid" }, "id", /must be a UUID; got "not-a-uuid"$/],
      [
        "input field of the wrong type",
        PAGE("$f: DistrictFilter", "filter: $f"),
        { f: { state: 5 } },
        "f",
        /at "f\.state" must be a string; got 5$/,
      ],
      ["unknown input field", PAGE("$f: DistrictFilter", "filter: $f"), { f: { colour: "red" } }, "f", /at "f\.colour" is not a field of/],
      ["input object as a string", PAGE("$f: DistrictFilter", "filter: $f"), { f: "NE" }, "f", /must be an object; got "NE"$/],
      [
        "list item",
        `query Q($ids: [String!]) { districts(filter: { fedIds: $ids }) { data { id } } }`,
        { ids: ["1", 2] },
        "ids",
        /at "ids\.1" must be a string/,
      ],
      ["long value, clipped", PAGE("$l: Int", "limit: $l"), { l: LONG }, "l", /; got "NEx{77}… \(5004 characters\)$/],
    ];
    const answers: unknown[] = [];
    const logged = await errorLogs(async () => {
      for (const [label, query, variables, variable, message] of table) {
        const res = await t.post("/graphql", { query, variables });
        const error = res.body.errors?.[0];
        answers.push([
          label,
          res.status,
          error?.extensions?.code,
          error?.message?.startsWith(`Variable "$${variable}"`),
          message.test(error?.message),
        ]);
        if (!message.test(error?.message)) answers.push([label, error?.message]);
      }
    });
    expect(answers).toEqual(table.map(([label]) => [label, 400, "BAD_USER_INPUT", true, true]));
    expect(logged).toEqual([]);
  });

  it("GraphQL's own validation messages quote the client's names and literals clipped", async () => {
    const long = "z".repeat(3000);
    const queries = [
      `{ districts(limit: "${long}") { data { id } } }`,
      `{ ${long} }`,
      `{ districts(filter: { ${long}: 1 }) { data { id } } }`,
    ];
    const answers: unknown[] = [];
    for (const query of queries) {
      const res = await t.post("/graphql", { query });
      const message: string = res.body.errors?.[0]?.message ?? "";
      // Booleans and a short prefix, so a failure does not diff 3,000-character strings.
      answers.push([
        res.status,
        res.body.errors?.[0]?.extensions?.code,
        message.includes(long),
        message.includes(`${"z".repeat(80)}… (3000 characters)`),
        message.length < 400,
      ]);
    }
    expect(answers).toEqual(queries.map(() => [400, "GRAPHQL_VALIDATION_FAILED", false, true, true]));
  });

  it("the same values through MCP tools answer bad_request naming the tool's argument, nothing logged as internal", async () => {
    const table: [label: string, tool: string, args: Record<string, unknown>, message: RegExp][] = [
      ["limit as a string", "search", { entity: "districts", limit: "200" }, /^search: limit must be an integer.*; got "200"$/],
      ["limit 1e308", "search", { entity: "districts", limit: 1e308 }, /^search: limit must be an integer/],
      ["offset as a list", "search", { entity: "districts", offset: [1] }, /^search: offset must be an integer/],
      ["filter String as a list", "search", { entity: "districts", filter: { state: ["NE"] } }, /^search: filter\.state must be a string/],
      [
        "filter DateTime of month 13",
        "search",
        { entity: "schools", filter: { updatedSince: "2024-13-01T00:00:00Z" } },
        /^search: filter\.updatedSince must be an ISO 8601 date-time/,
      ],
      ["unknown order_by", "search", { entity: "districts", order_by: "moon" }, /^search: order_by must be one of name, .*; got "moon"$/],
      [
        "order_ascending as a string",
        "search",
        { entity: "contacts", order_ascending: "no" },
        /^search: order_ascending must be true or false/,
      ],
      ["unknown filter field", "search", { entity: "districts", filter: { colour: "red" } }, /^search: filter\.colour is not a field of/],
      ["details id", "details", { entity: "district", id: "not-a-uuid" }, /^details: id must be a UUID; got "not-a-uuid"$/],
      ["unlock entity_id", "unlock", { entity_type: "district", entity_id: 5 }, /^unlock: entity_id must be a UUID; got 5$/],
      [
        "metric_query limit",
        "metric_query",
        { entity: "districts", metric_query: "{}", limit: 1.5 },
        /^metric_query: limit must be an integer/,
      ],
      [
        "get_brief long id, clipped",
        "get_brief",
        { brief_id: LONG },
        /^get_brief: brief_id must be a UUID; got "NEx{77}… \(5004 characters\)$/,
      ],
    ];
    const answers: unknown[] = [];
    const logged = await errorLogs(async () => {
      for (const [label, tool, args, message] of table) {
        const result = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[] };
        const body = JSON.parse(result.content[0]!.text);
        answers.push([label, result.isError, body.error, body.statusCode, message.test(body.message)]);
        if (!message.test(body.message)) answers.push([label, body.message]);
      }
    });
    expect(answers).toEqual(table.map(([label]) => [label, true, "bad_request", 400, true]));
    expect(logged).toEqual([]);
  });
});

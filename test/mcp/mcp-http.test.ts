/**
 * The MCP server over streamable HTTP at /mcp, driven by the official SDK client against a real app and
 * database: tools list, search, details, metric_query, unlock (channel mcp), errors as REST's bodies.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { print } from "graphql";
import { camel } from "../../src/graphql/naming";
import { districtRecords } from "../../src/features/catalogue/districts/district.mcp";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any; _meta?: any };

describe("MCP over streamable HTTP (/mcp)", () => {
  let t: TestApp;
  let url: URL;
  const clients: Client[] = [];
  let completed: string;
  let pending: string;

  const connect = async (key: string): Promise<Client> => {
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const body = (result: Result) => JSON.parse(result.content[0].text);
  let pro: Client;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    const port = (t.server.address() as { port: number }).port;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
    completed = await insertDistrict(t.db, {
      name: "Mcp Completed District",
      state: "WY",
      status: "completed",
      ai_summary: "secret summary",
      student_count: 1200,
    });
    pending = await insertDistrict(t.db, { name: "Mcp Pending District", state: "WY", status: "pending", student_count: 300 });
    await insertDistrictStats(t.db, completed, 2022, { total_enrollment: 1150, school_age_poverty_pct: 31.5 });
    await insertDistrictStats(t.db, completed, 2023, { total_enrollment: 1200, school_age_poverty_pct: 28.25 });
    await insertDistrictStats(t.db, pending, 2023, { total_enrollment: 300, school_age_poverty_pct: 12 });
    pro = await connect(t.keys.pro);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
  });

  it("lists the tools with input schemas built from the GraphQL schema and its descriptions", async () => {
    const { tools } = await pro.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "create_project",
      "create_webhook",
      "delete_webhook",
      "details",
      "file_bid",
      "get_brief",
      "list_email_templates",
      "list_opportunities",
      "list_projects",
      "list_webhooks",
      "metric_query",
      "metrics",
      "news_article",
      "news_feed",
      "opportunity_verification",
      "outreach_email",
      "refresh_opportunity",
      "request_brief",
      "search",
      "semantic_search",
      "signals_feed",
      "summarize",
      "unlock",
      "webhook_deliveries",
    ]);
    const search = tools.find((tool) => tool.name === "search")!;
    const filters = (search.inputSchema.properties as any).filter.anyOf;
    expect(filters.map((f: any) => f.title)).toEqual(["DistrictFilter", "SchoolFilter", "ContactFilter"]);
    const district = filters[0].properties;
    // The JSON Schema of the OpenAPI document (src/graphql/json-schema.ts), inline, with GraphQL's field names.
    expect(district.minEnrollment).toEqual({
      type: ["integer", "null"],
      format: "int32",
      description: expect.stringMatching(/Enrolled students/),
    });
    expect(district.locale).toMatchObject({ type: ["string", "null"], enum: ["city", "suburban", "town", "rural", null] });
    expect(district.locale["x-enum-descriptions"].rural).toMatch(/rural/);
    expect(pro.getInstructions()).toMatch(/school years by their fall year/);
  });

  it("a tool's filter schema is the OpenAPI document's schema of each filter parameter, with GraphQL's names (one mapping)", async () => {
    const { tools } = await pro.listTools();
    const filters = (tools.find((tool) => tool.name === "search")!.inputSchema.properties as any).filter.anyOf;
    const document = (await t.get("/api/v1/openapi.json").expect(200)).body;
    for (const [i, path] of ["/districts", "/schools", "/contacts"].entries()) {
      const properties = filters[i].properties;
      const parameters = document.paths[path].get.parameters.filter((p: any) => p.in === "query" && properties[camel(p.name)]);
      expect(parameters.length).toBeGreaterThan(5);
      for (const { name, description, schema } of parameters) {
        // Named types are components there and inline here; a filter's field may be null (no filter).
        const inline = (x: any): any =>
          Array.isArray(x)
            ? x.map(inline)
            : x && typeof x === "object"
              ? x.$ref
                ? inline(document.components.schemas[x.$ref.split("/").at(-1)])
                : Object.fromEntries(Object.entries(x).map(([k, v]) => [k, inline(v)]))
              : x;
        const own = inline(schema);
        const expected = { ...own, type: [own.type, "null"], ...(own.enum ? { enum: [...own.enum, null] } : {}), description };
        expect([path, name, properties[camel(name)]]).toEqual([path, name, expected]);
      }
    }
  });

  it("search answers what GET /api/v1/districts answers for the same filters, with the cost in _meta", async () => {
    const result = await call(pro, "search", { entity: "districts", filter: { state: "WY", minEnrollment: 1000 }, order_by: "name" });
    expect(result.isError).toBeFalsy();
    const page = body(result);
    expect(page.pagination).toEqual({ total: 1, limit: 50, offset: 0, has_more: false });
    expect(page.data).toHaveLength(1);
    const rest = await t.get("/api/v1/districts?state=WY&min_enrollment=1000&order_by=name", "pro").expect(200);
    expect(page.data.map((d: any) => d.id)).toEqual(rest.body.data.map((d: any) => d.id));
    for (const key of ["id", "fed_id", "name", "state", "student_count", "status", "_access"])
      expect(page.data[0][key]).toEqual(rest.body.data[0][key]);
    expect(page.data[0]._access).toMatchObject({ is_unlocked: false, unlock_cost: 6 });
    expect(result.structuredContent).toEqual(page);
    expect(result._meta.cost).toEqual({ requested: expect.any(Number), limit: t.engine.maxCost });
  });

  it("search refuses what REST refuses, with REST's error body", async () => {
    const zero = await call(pro, "search", { entity: "districts", limit: 0 });
    expect(zero.isError).toBe(true);
    const rest = await t.get("/api/v1/districts?limit=0", "pro").expect(400);
    expect(body(zero)).toEqual(rest.body);

    // The same operation sent to /graphql meets the same admission (cost, limits) and the same message.
    const tooMany = await call(pro, "search", { entity: "districts", limit: 500 });
    const graphql = await t.graphql(print(districtRecords.search), { limit: 500 }, "pro");
    expect(graphql.errors?.[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(body(tooMany)).toEqual({ error: "bad_request", statusCode: 400, message: graphql.errors?.[0].message });

    const badEnum = await call(pro, "search", { entity: "schools", filter: { locale: "moon" } });
    expect(body(badEnum)).toMatchObject({ error: "bad_request", statusCode: 400, message: expect.stringMatching(/moon/) });

    const unknownArg = await call(pro, "search", { entity: "districts", sate: "NE" });
    expect(body(unknownArg)).toMatchObject({ error: "bad_request", message: expect.stringMatching(/unknown argument "sate"/) });
    const badEntity = await call(pro, "search", { entity: "planets" });
    expect(body(badEntity)).toMatchObject({ error: "bad_request", message: expect.stringMatching(/entity must be one of/) });
  });

  it("details reads one record, gated fields null while locked; an unknown id is not_found", async () => {
    const result = await call(pro, "details", { entity: "district", id: completed });
    expect(result.isError).toBeFalsy();
    const record = body(result).data;
    expect(record).toMatchObject({ id: completed, name: "Mcp Completed District", ai_summary: null, pain_points: null });
    expect(record.annual_statistics.latest).toMatchObject({
      school_year_start: 2023,
      total_enrollment: 1200,
      school_age_poverty_pct: 28.25,
    });
    expect(record.annual_statistics.history_years_available).toBe(2);

    const missing = await call(pro, "details", { entity: "school", id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.isError).toBe(true);
    expect(body(missing)).toMatchObject({ error: "not_found", statusCode: 404 });
    const malformed = await call(pro, "details", { entity: "district", id: "nope" });
    expect(body(malformed)).toMatchObject({ error: "bad_request", statusCode: 400 });
  });

  it("metrics and metric_query rank districts by statistics", async () => {
    const catalogue = body(await call(pro, "metrics", { entity: "districts" })).data;
    expect(catalogue).toContainEqual(expect.objectContaining({ metric: "school_age_poverty_pct", years: [2022, 2023] }));
    const result = await call(pro, "metric_query", {
      entity: "districts",
      metric_query: {
        select: [{ metric: "school_age_poverty_pct", as: "poverty" }],
        filters: [{ metric: "total_enrollment", op: "gt", value: 100 }],
        sort: { metric: "school_age_poverty_pct", direction: "desc" },
      },
      filter: { state: "WY" },
    });
    expect(result.isError).toBeFalsy();
    expect(body(result).data.map((d: any) => [d.id, d.metric_values])).toEqual([
      [completed, { poverty: 28.25 }],
      [pending, { poverty: 12 }],
    ]);
    // The free plan gets the same latest values (issue 20 point 3: it answered 500 on PostgreSQL).
    const free = await connect(t.keys.free);
    const freeResult = await call(free, "metric_query", {
      entity: "districts",
      metric_query: {
        select: [{ metric: "school_age_poverty_pct", as: "poverty" }],
        filters: [{ metric: "total_enrollment", op: "gt", value: 100 }],
        sort: { metric: "school_age_poverty_pct", direction: "desc" },
      },
      filter: { state: "WY" },
    });
    expect(freeResult.isError).toBeFalsy();
    expect(body(freeResult).data.map((d: any) => [d.id, d.metric_values])).toEqual(
      body(result).data.map((d: any) => [d.id, d.metric_values]),
    );
    const bad = await call(pro, "metric_query", { entity: "districts", metric_query: { select: [{ metric: "no_such_metric" }] } });
    expect(body(bad)).toMatchObject({ error: "bad_request", message: expect.stringMatching(/no_such_metric/) });
  });

  it("unlock through MCP records channel mcp, charges like POST /unlock and opens the gated fields", async () => {
    const enterprise = await connect(t.keys.enterprise);
    const result = await call(enterprise, "unlock", { entity_type: "district", entity_id: completed });
    expect(result.isError).toBeFalsy();
    expect(body(result)).toMatchObject({
      status_code: 200,
      entity_type: "district",
      entity_id: completed,
      outcome: "unlocked",
      credits_charged: 6,
      credits_remaining: 94,
    });
    const [row] = await t.db.query<{ channel: string; state: string }>(
      `SELECT channel, state FROM unlocks WHERE organization_id = $1 AND entity_id = $2`,
      [t.orgs.enterprise, completed],
    );
    expect(row).toEqual({ channel: "mcp", state: "unlocked" });
    const record = body(await call(enterprise, "details", { entity: "district", id: completed })).data;
    expect(record).toMatchObject({ ai_summary: "secret summary", _access: { is_unlocked: true, credits_spent: 6 } });

    const again = body(await call(enterprise, "unlock", { entity_type: "district", entity_id: completed }));
    expect(again).toMatchObject({ outcome: "idempotent", credits_charged: 0 });
    const waiting = body(await call(enterprise, "unlock", { entity_type: "district", entity_id: pending }));
    expect(waiting).toMatchObject({ status_code: 202, outcome: "unlock_pending", credits_held: 6 });
  });

  it("an unlock the caller cannot pay is REST's 402 body, and nothing is recorded", async () => {
    const { organizationId } = await createOrganization(t.db, { name: "Mcp Broke", plan: "pro", credits: 0 });
    const broke = await connect((await createApiKey(t.db, organizationId)).apiKey);
    const result = await call(broke, "unlock", { entity_type: "district", entity_id: completed });
    expect(result.isError).toBe(true);
    expect(body(result)).toMatchObject({ error: "insufficient_credits", statusCode: 402, balance: 0, required: 6 });
    const rows = await t.db.query(`SELECT 1 FROM unlocks WHERE organization_id = $1`, [organizationId]);
    expect(rows).toHaveLength(0);
  });

  it("list_projects and create_project answer what GET and POST /projects answer, for the key's organization (issue 20 point 14)", async () => {
    const internal = await connect(t.keys.internal);
    expect(body(await call(internal, "list_projects", {}))).toEqual({ data: [] });
    const created = await call(internal, "create_project", { name: "  Agent project  ", icp: { states: ["WY"] } });
    expect(created.isError).toBeFalsy();
    const project = body(created).data;
    expect(project).toMatchObject({
      id: expect.any(String),
      name: "Agent project",
      icp: { states: ["WY"] },
      created_at: expect.any(String),
    });
    const rest = await t.get("/api/v1/projects", "internal").expect(200);
    expect(body(await call(internal, "list_projects", {}))).toEqual(rest.body);
    expect(rest.body.data).toEqual([project]);
    // Another organization sees none of it; its own project is usable by request_brief right away.
    expect(body(await call(pro, "list_projects", {})).data.map((p: { id: string }) => p.id)).not.toContain(project.id);
    const brief = body(await call(internal, "request_brief", { project_id: project.id, entity_type: "district", entity_id: completed }));
    expect(brief).toMatchObject({ status: "building", started: true });
    // Argument errors are REST's 400 bodies.
    const bad = await call(internal, "create_project", { name: "" });
    expect(bad.isError).toBe(true);
    expect(body(bad)).toMatchObject({ error: "bad_request", statusCode: 400 });
    expect(body(await call(internal, "create_project", { title: "x" }))).toMatchObject({ error: "bad_request", statusCode: 400 });
  });

  it("request_brief and get_brief answer what POST /briefs and GET /briefs answer, scoped to the key's organization", async () => {
    const enterprise = await connect(t.keys.enterprise);
    const project = (await t.post("/api/v1/projects", { name: "Mcp briefs" }, "enterprise").expect(201)).body.data.id;
    const pair = { project_id: project, entity_type: "district", entity_id: completed };
    expect(body(await call(enterprise, "get_brief", pair))).toEqual({ brief: null });

    const started = await call(enterprise, "request_brief", pair);
    expect(started.isError).toBeFalsy();
    const { brief_id } = body(started);
    expect(body(started)).toEqual({ brief_id, status: "building", started: true, poll: `/api/v1/briefs/${brief_id}` });
    expect(body(await call(enterprise, "request_brief", pair))).toMatchObject({ brief_id, started: false });

    const byId = body(await call(enterprise, "get_brief", { brief_id }));
    const rest = await t.get(`/api/v1/briefs/${brief_id}`, "enterprise").expect(200);
    expect(byId).toEqual(rest.body);
    expect(byId.brief).toMatchObject({ brief_id, project_id: project, entity_id: completed, status: "building", dossier: null });
    expect(body(await call(enterprise, "get_brief", pair))).toEqual(rest.body);

    // Another organization's key: the brief does not exist for it, nor the project.
    const elsewhere = await call(pro, "get_brief", { brief_id });
    expect(elsewhere.isError).toBe(true);
    expect(body(elsewhere)).toMatchObject({ error: "not_found", statusCode: 404 });
    expect(body(await call(pro, "request_brief", pair))).toMatchObject({ error: "not_found", statusCode: 404 });

    // The plan rule: pro must follow first, with REST's 403 body.
    const proProject = (await t.post("/api/v1/projects", { name: "Mcp pro briefs" }, "pro").expect(201)).body.data.id;
    const proPair = { ...pair, project_id: proProject };
    const refused = await call(pro, "request_brief", proPair);
    expect(refused.isError).toBe(true);
    expect(body(refused)).toEqual((await t.post("/api/v1/briefs", proPair, "pro").expect(403)).body);

    const mixed = await call(enterprise, "get_brief", { brief_id, project_id: project });
    expect(body(mixed)).toMatchObject({ error: "bad_request", message: expect.stringMatching(/not both/) });
    const partial = await call(enterprise, "get_brief", { project_id: project });
    expect(body(partial)).toMatchObject({ error: "bad_request", statusCode: 400 });
    const badType = await call(enterprise, "request_brief", { ...pair, entity_type: "contact" });
    expect(body(badType)).toMatchObject({
      error: "bad_request",
      message: expect.stringMatching(/entity_type must be one of district, school/),
    });
    // A value the types reject names the tool's argument (not the operation's $briefId) and is not echoed whole.
    const huge = body(await call(enterprise, "get_brief", { brief_id: "x".repeat(100_000) }));
    expect(huge).toMatchObject({
      error: "bad_request",
      statusCode: 400,
      message: expect.stringMatching(/^get_brief: brief_id must be a UUID; got "x{79}… \(100002 characters\)$/),
    });
    expect(huge.message).toMatch(/100002 characters/);
    expect(huge.message.length).toBeLessThan(1_000);
    expect(huge.message).not.toMatch(/\$briefId/);
  });

  it("refuses a missing or bad key with 401 before any MCP exchange", async () => {
    for (const key of ["sk_live_" + "0".repeat(40), "not-a-key"]) {
      const client = new Client({ name: "edmarket-test", version: "1.0.0" });
      await expect(
        client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } })),
      ).rejects.toThrow(/401|unauthorized|API key/i);
    }
    const raw = await t.http.post("/mcp").send({ jsonrpc: "2.0", id: 1, method: "tools/list" }).expect(401);
    expect(raw.body).toMatchObject({ error: "unauthorized", statusCode: 401 });
    expect(raw.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("answers 405 with Allow: POST for GET and DELETE (stateless server)", async () => {
    const res = await t.http
      .get("/mcp")
      .set("Authorization", `Bearer ${t.keys.pro as string}`)
      .expect(405);
    expect(res.headers.allow).toBe("POST");
  });
});

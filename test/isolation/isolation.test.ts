/**
 * Isolation of every private resource (issue 26): organization A (enterprise) owns one of each; B, other
 * organizations (another enterprise organization, and the pro and free plans' where the plan matters), never
 * read or change it through REST, GraphQL or MCP, even with A's ids. Table-driven: one declaration per resource
 * (how A's item is read back, B's lists, B's calls by id), from which every check runs. A call by id with A's id
 * must answer exactly what the same call with a random uuid answers (404 not_found, the id masked): anything
 * else, a 403 included, would confirm that the id exists.
 */
import crypto from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertIntelligence, insertUnlock } from "../support/block-factories";
import { insert, insertDistrict } from "../support/factories";
import { insertArticle } from "../news/support/articles";

/** `gatedFor`: the callers refused by their plan before the id is read (the same 403 for any id, so no existence is confirmed). */
type Call = { gatedFor?: readonly string[] } & (
  | { rest: { method: "get" | "post" | "patch" | "put" | "delete"; path: (id: string) => string; body?: (id: string) => unknown } }
  | { graphql: { query: string; variables: (id: string) => Record<string, unknown> } }
  | { mcp: { tool: string; args: (id: string) => Record<string, unknown> } }
);

interface PrivateResource {
  name: string;
  /** A's item's id (set in beforeAll). */
  id: () => string;
  /** B's lists: A's id must never appear in them. */
  lists: Call[];
  /** B's calls by A's id: each must answer as the same call with a random uuid does (a 404). */
  byId: Call[];
  /** A's item, read as A: the same before and after B's calls. */
  readBack: () => Promise<unknown>;
}

describe("isolation of every private resource (issue 26)", () => {
  let t: TestApp;
  let url: URL;
  const clients: Client[] = [];
  /** B: another enterprise organization (same plan, signals module) and the pro and free plans' organizations. */
  const OTHERS = ["another enterprise organization", "the pro plan's organization", "the free plan's organization"] as const;
  /** Outreach e-mails are for enterprise and internal plans (docs/outreach.md): a 403 naming the plan, for any template id. */
  const OUTREACH_REFUSED = ["the pro plan's organization", "the free plan's organization"];
  const others = {} as Record<(typeof OTHERS)[number], { key: string; mcp?: Client }>;
  const a = {} as Record<
    "project" | "follow" | "list" | "listItem" | "webhook" | "brief" | "personKey" | "opportunity" | "template" | "bid" | "district",
    string
  >;
  let aMcp: Client;
  let article: string;
  let unlockedDistrict: string;
  let contact: string;

  const mcpUrl = () => url;
  const connect = async (key: string): Promise<Client> => {
    const client = new Client({ name: "isolation-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  };
  const rest = (key: string, method: "get" | "post" | "patch" | "put" | "delete", path: string, body?: unknown) => {
    const req = t.http[method](`/api/v1${path}`).set("Authorization", `Bearer ${key}`);
    return body === undefined ? req : req.send(body as object);
  };
  const gql = async (key: string, query: string, variables: Record<string, unknown>) =>
    (await t.http.post("/graphql").set("Authorization", `Bearer ${key}`).send({ query, variables })).body;

  /** One call's answer with the id masked and the parts that differ per request (cost, request id) left out. */
  const run = async (call: Call, key: string, client: Client | undefined, id: string): Promise<unknown> => {
    const mask = (value: unknown) => JSON.parse(JSON.stringify(value ?? null).split(id).join("<id>"));
    if ("rest" in call) {
      const res = await rest(key, call.rest.method, call.rest.path(id), call.rest.body?.(id));
      return mask({ status: res.status, body: res.body });
    }
    if ("graphql" in call) {
      const { data, errors } = await gql(key, call.graphql.query, call.graphql.variables(id));
      return mask({ data, errors: errors?.map((e: any) => ({ message: e.message, code: e.extensions?.code })) });
    }
    const result = await client!.callTool({ name: call.mcp.tool, arguments: call.mcp.args(id) });
    return mask({ isError: result.isError, content: result.content });
  };
  /** A REST 404 not_found; a GraphQL NOT_FOUND error or a null read (the schema's "not found"); an MCP not_found result. */
  const notFound = (answer: any): boolean => {
    if ("status" in answer) return answer.status === 404 && answer.body?.error === "not_found";
    if ("data" in answer)
      return answer.errors
        ? answer.errors.every((e: any) => e.code === "NOT_FOUND")
        : Object.values(answer.data ?? {}).every((v) => v === null);
    return answer.isError === true && JSON.parse(answer.content[0].text).error === "not_found";
  };
  const refusedByPlan = (answer: any): boolean =>
    !JSON.stringify(answer).includes("<id>") && /"status":403|"FORBIDDEN"|\\"forbidden\\"/.test(JSON.stringify(answer));
  const label = (call: Call) =>
    "rest" in call ? `${call.rest.method.toUpperCase()} ${call.rest.path(":id")}` : "graphql" in call ? call.graphql.query.slice(0, 60) : `mcp ${call.mcp.tool}`;

  const aKey = () => t.keys.enterprise;

  const RESOURCES: PrivateResource[] = [
    {
      name: "projects",
      id: () => a.project,
      lists: [
        { rest: { method: "get", path: () => "/projects" } },
        { graphql: { query: "{ projects { id name } }", variables: () => ({}) } },
        { mcp: { tool: "list_projects", args: () => ({}) } },
      ],
      byId: [
        { rest: { method: "patch", path: (id) => `/projects/${id}`, body: () => ({ name: "Taken over" }) } },
        { rest: { method: "get", path: (id) => `/projects/${id}/follows` } },
        {
          graphql: {
            query: `mutation($id: UUID!) { updateProject(id: $id, input: { name: "Taken over" }) { id name } }`,
            variables: (id) => ({ id }),
          },
        },
        // Using A's project in B's own requests is the same as an unknown project.
        { rest: { method: "post", path: () => "/follows", body: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }) } },
        { rest: { method: "post", path: () => "/briefs", body: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }) } },
        { rest: { method: "get", path: (id) => `/briefs?project_id=${id}&entity_type=district&entity_id=${a.district}` } },
        { rest: { method: "get", path: (id) => `/opportunities?project_id=${id}` } },
        { mcp: { tool: "get_brief", args: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", "/projects").expect(200)).body,
    },
    {
      name: "follows",
      id: () => a.follow,
      lists: [
        { rest: { method: "get", path: () => "/projects" } },
        { graphql: { query: "{ projects { id follows { id } } }", variables: () => ({}) } },
      ],
      byId: [
        { rest: { method: "delete", path: (id) => `/follows/${id}` } },
        { graphql: { query: `mutation($id: UUID!) { unfollow(id: $id) { id } }`, variables: (id) => ({ id }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", `/projects/${a.project}/follows`).expect(200)).body,
    },
    {
      name: "lists and their items",
      id: () => a.list,
      lists: [
        { rest: { method: "get", path: () => "/lists" } },
        { graphql: { query: "{ lists { id name } }", variables: () => ({}) } },
      ],
      byId: [
        { rest: { method: "post", path: (id) => `/lists/${id}/items`, body: () => ({ entity_ids: [a.district] }) } },
        { rest: { method: "delete", path: (id) => `/lists/${id}/items/${a.listItem}` } },
        {
          graphql: {
            query: `mutation($id: UUID!, $e: UUID!) { addListItems(listId: $id, input: { entityIds: [$e] }) { id } }`,
            variables: (id) => ({ id, e: a.district }),
          },
        },
        {
          graphql: {
            query: `mutation($id: UUID!, $e: UUID!) { removeListItem(listId: $id, entityId: $e) { id } }`,
            variables: (id) => ({ id, e: a.listItem }),
          },
        },
      ],
      readBack: async () => (await rest(aKey(), "get", "/lists").expect(200)).body,
    },
    {
      name: "webhooks and their deliveries",
      id: () => a.webhook,
      lists: [
        { rest: { method: "get", path: () => "/webhooks" } },
        { graphql: { query: "{ webhooks { id url } }", variables: () => ({}) } },
      ],
      byId: [
        { rest: { method: "get", path: (id) => `/webhooks/${id}/deliveries` } },
        { rest: { method: "delete", path: (id) => `/webhooks/${id}` } },
        { graphql: { query: `mutation($id: UUID!) { deleteWebhook(webhookId: $id) { id } }`, variables: (id) => ({ id }) } },
      ],
      readBack: async () => ({
        webhooks: (await rest(aKey(), "get", "/webhooks").expect(200)).body,
        deliveries: (await rest(aKey(), "get", `/webhooks/${a.webhook}/deliveries`).expect(200)).body,
      }),
    },
    {
      name: "briefs and promoted contacts",
      id: () => a.brief,
      lists: [],
      byId: [
        { rest: { method: "get", path: (id) => `/briefs/${id}` } },
        { rest: { method: "post", path: (id) => `/briefs/${id}/people/${a.personKey}/promote` } },
        { graphql: { query: `query($id: UUID!) { briefById(briefId: $id) { briefId status } }`, variables: (id) => ({ id }) } },
        {
          graphql: {
            query: `mutation($id: UUID!, $p: String!) { promoteBriefPerson(briefId: $id, personKey: $p) { created } }`,
            variables: (id) => ({ id, p: a.personKey }),
          },
        },
        { mcp: { tool: "get_brief", args: (id) => ({ brief_id: id }) } },
      ],
      readBack: async () => ({
        brief: (await rest(aKey(), "get", `/briefs/${a.brief}`).expect(200)).body,
        promoted: await t.db.query(`SELECT organization_id::text, name, updated_at FROM promoted_contacts ORDER BY id`),
      }),
    },
    {
      name: "opportunities",
      id: () => a.opportunity,
      lists: [
        { rest: { method: "get", path: () => "/opportunities" } },
        { graphql: { query: "{ opportunities { data { id } } }", variables: () => ({}) } },
        { mcp: { tool: "list_opportunities", args: () => ({}) } },
      ],
      byId: [
        { rest: { method: "get", path: (id) => `/opportunities/${id}` } },
        { rest: { method: "get", path: (id) => `/opportunities/${id}/verification` } },
        { rest: { method: "post", path: (id) => `/opportunities/${id}/refresh` } },
        { graphql: { query: `mutation($id: UUID!) { refreshOpportunity(id: $id) { started } }`, variables: (id) => ({ id }) } },
        { mcp: { tool: "opportunity_verification", args: (id) => ({ id }) } },
        { mcp: { tool: "refresh_opportunity", args: (id) => ({ id }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", `/opportunities/${a.opportunity}`).expect(200)).body,
    },
    {
      name: "e-mail templates (and outreach e-mails written from them)",
      id: () => a.template,
      lists: [
        { rest: { method: "get", path: () => "/org/email-templates" } },
        { mcp: { tool: "list_email_templates", args: () => ({}) } },
      ],
      byId: [
        {
          gatedFor: OUTREACH_REFUSED,
          rest: { method: "post", path: () => `/contacts/${contact}/outreach-email`, body: (id) => ({ template_id: id }) },
        },
        {
          gatedFor: OUTREACH_REFUSED,
          graphql: {
            query: `mutation($c: UUID!, $id: UUID) { outreachEmail(contactId: $c, templateId: $id) { subject templateId } }`,
            variables: (id) => ({ c: contact, id }),
          },
        },
        { gatedFor: OUTREACH_REFUSED, mcp: { tool: "outreach_email", args: (id) => ({ contact_id: contact, template_id: id }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", "/org/email-templates").expect(200)).body,
    },
    {
      name: "news scope (A's follows and unlocks)",
      id: () => article,
      lists: [
        { rest: { method: "get", path: () => "/news" } },
        { graphql: { query: "{ news { data { id } } }", variables: () => ({}) } },
        { mcp: { tool: "news_feed", args: () => ({}) } },
      ],
      byId: [
        { rest: { method: "get", path: (id) => `/news/${id}` } },
        { graphql: { query: `query($id: UUID!) { newsArticle(id: $id) { id } }`, variables: (id) => ({ id }) } },
        { mcp: { tool: "news_article", args: (id) => ({ id }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", `/news/${article}`).expect(200)).body,
    },
  ];

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    url = new URL(`http://127.0.0.1:${(t.server.address() as { port: number }).port}/mcp`);
    const { organizationId } = await createOrganization(t.db, { name: "Other enterprise", plan: "enterprise", credits: 100, entitlements: ["signals"] });
    others["another enterprise organization"] = { key: (await createApiKey(t.db, organizationId)).apiKey };
    others["the pro plan's organization"] = { key: t.keys.pro };
    others["the free plan's organization"] = { key: t.keys.free };
    for (const other of Object.values(others)) other.mcp = await connect(other.key);
    aMcp = await connect(aKey());

    a.district = await insertDistrict(t.db, { name: "Isolation District", state: "NE", status: "completed" });
    a.listItem = await insertDistrict(t.db, { name: "Isolation Listed District", state: "NE", status: "completed" });
    unlockedDistrict = await insertDistrict(t.db, { name: "Isolation Unlocked District", state: "NE", status: "completed" });
    contact = await insert(t.db, "contacts", {
      data_source: "test",
      source: "test",
      state: "NE",
      name: "Pat Example",
      title: "Superintendent",
      district_id: a.district,
      is_district_contact: true,
    });
    // Every B may write to the contact (the unlocked contact rule), so only the template decides.
    for (const key of Object.values(t.orgs)) await insertUnlock(t.db, key, "contact", contact);
    const [otherOrg] = await t.db.query<{ id: string }>(`SELECT id::text FROM organizations WHERE name = 'Other enterprise'`);
    await insertUnlock(t.db, otherOrg.id, "contact", contact);

    const post = (path: string, body: unknown) => rest(aKey(), "post", path, body);
    a.project = (await post("/projects", { name: "A's secret project" }).expect(201)).body.data.id;
    a.follow = (await post("/follows", { project_id: a.project, entity_type: "district", entity_id: a.district }).expect(201)).body.data.id;
    a.list = (await post("/lists", { name: "A's secret list", entity_type: "district" }).expect(201)).body.data.id;
    await post(`/lists/${a.list}/items`, { entity_ids: [a.listItem] }).expect(200);
    a.webhook = (await post("/webhooks", { url: "https://hooks.a.example/edmarket", events: ["unlock.completed"] }).expect(201)).body.data.id;
    await insert(t.db, "webhook_deliveries", {
      webhook_id: a.webhook,
      organization_id: t.orgs.enterprise,
      event_type: "unlock.completed",
      payload: { secret: "A's delivery" },
    });
    a.brief = (await post("/briefs", { project_id: a.project, entity_type: "district", entity_id: a.district }).expect(202)).body.brief_id;
    a.personKey = `p_${"a".repeat(24)}`;
    await t.db.query(`UPDATE briefs SET status = 'ready', finished_at = now(), dossier = $2::jsonb WHERE id = $1::uuid`, [
      a.brief,
      JSON.stringify({ people: [{ person_key: a.personKey, name: "Pat Example", title: "Superintendent", roles: [], contact_id: null, source_urls: [], data_source: [] }] }),
    ]);
    await post(`/briefs/${a.brief}/people/${a.personKey}/promote`, undefined).expect(201);
    a.opportunity = await insert(t.db, "opportunities", {
      organization_id: t.orgs.enterprise,
      project_id: a.project,
      entity_type: "district",
      district_id: a.district,
      title: "A's secret opportunity",
      source_urls: ["https://news.a.example/story"],
      signal_ids: [],
      suggested_prompts: [],
      data_source: "test",
      dedupe_key: `district:${a.district}:profile`,
    });
    a.template = ((await rest(aKey(), "get", "/org/email-templates").expect(200)).body.data as { id: string }[])[0].id;
    // The news scope: an article about a district A follows (a.district) and one A unlocked.
    await insertUnlock(t.db, t.orgs.enterprise, "district", unlockedDistrict);
    article = await insertArticle(t, { title: "A's district news", published_at: "2026-11-01T00:00:00Z", ingested_at: "2026-11-02T00:00:00Z" }, [
      { district_id: unlockedDistrict, signal_type: "facility_bond", buying_intent: "medium" },
    ]);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
  });

  it("A reads each of its items (the checks below compare against a real item)", async () => {
    for (const resource of RESOURCES) {
      expect(resource.id()).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(await resource.readBack())).toContain(resource.id());
    }
  });

  describe.each(RESOURCES.map((r) => [r.name, r] as const))("%s", (_name, resource) => {
    it.each(OTHERS)("as %s: no list holds A's item, every call by A's id answers as a random uuid's (404), A's item is unchanged", async (who) => {
      const before = await resource.readBack();
      const { key, mcp } = others[who];
      for (const call of resource.lists) {
        const answer = await run(call, key, mcp, resource.id());
        expect([label(call), JSON.stringify(answer)]).toEqual([label(call), expect.not.stringContaining("<id>")]);
      }
      for (const call of resource.byId) {
        const withA = await run(call, key, mcp, resource.id());
        const withRandom = await run(call, key, mcp, crypto.randomUUID());
        expect([label(call), withA]).toEqual([label(call), withRandom]);
        // The random uuid's answer is the not-found one, so A's is too (never a 403 or a 5xx).
        const expected = call.gatedFor?.includes(who) ? refusedByPlan(withA) : notFound(withA);
        expect([label(call), expected, withA]).toEqual([label(call), true, withA]);
      }
      expect(await resource.readBack()).toEqual(before);
    });
  });

  it("the same calls as A do reach A's items (the probes are not 404 for every caller)", async () => {
    expect((await rest(aKey(), "get", `/webhooks/${a.webhook}/deliveries`).expect(200)).body.data).toHaveLength(1);
    expect((await rest(aKey(), "get", `/opportunities/${a.opportunity}`).expect(200)).body.data.id).toBe(a.opportunity);
    const mail = await rest(aKey(), "post", `/contacts/${contact}/outreach-email`, { template_id: a.template }).expect(200);
    expect(JSON.stringify(mail.body)).toContain(a.template);
    const brief = (await aMcp.callTool({ name: "get_brief", arguments: { brief_id: a.brief } })) as any;
    expect(brief.isError).toBeFalsy();
  });
});

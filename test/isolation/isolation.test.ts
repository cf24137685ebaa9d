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
  /** A district only A unlocked (its bid is filed by A), one A and "another enterprise organization" unlocked. */
  let filingDistrict: string;
  let sharedDistrict: string;
  let sharedBid: string;
  let otherEnterpriseOrg: string;
  /** Unlocked by A only, and its never-unlocked twin (same columns): B must see both alike. */
  let lockedTwin: string;
  let secretContact: string;
  let twinContact: string;
  let contact: string;

  const connect = async (key: string): Promise<Client> => {
    const client = new Client({ name: "isolation-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  };
  const rest = (key: string, method: "get" | "post" | "patch" | "put" | "delete", path: string, body?: unknown) => {
    const req = t.http[method](`/api/v1${path}`).set("Authorization", `Bearer ${key}`);
    return body === undefined ? req : req.send(body as object);
  };
  const gql = async (key: string, query: string, variables: Record<string, unknown>) =>
    (await t.http.post("/graphql").set("Authorization", `Bearer ${key}`).send({ query, variables })).body;

  /** One call's answer, the id masked; GraphQL's extensions (cost) and error locations left out. */
  const run = async (call: Call, key: string, client: Client | undefined, id: string): Promise<unknown> => {
    const mask = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value ?? null)
          .split(id)
          .join("<id>"),
      );
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
  /** The plan's 403 (REST), FORBIDDEN (GraphQL) or forbidden result (MCP). */
  const refusedByPlan = (answer: any): boolean => /"status":403|"FORBIDDEN"|\\"forbidden\\"/.test(JSON.stringify(answer));
  const label = (call: Call) =>
    "rest" in call
      ? `${call.rest.method.toUpperCase()} ${call.rest.path(":id")}`
      : "graphql" in call
        ? call.graphql.query.slice(0, 60)
        : `mcp ${call.mcp.tool}`;

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
        { graphql: { query: `query($id: UUID!) { projectFollows(projectId: $id) { data { id } } }`, variables: (id) => ({ id }) } },
        {
          graphql: {
            query: `query($id: UUID!, $e: UUID!) { brief(projectId: $id, entityType: district, entityId: $e) { briefId } }`,
            variables: (id) => ({ id, e: a.district }),
          },
        },
        {
          graphql: {
            query: `query($id: UUID!) { opportunities(filter: { projectId: $id }) { data { id } } }`,
            variables: (id) => ({ id }),
          },
        },
        {
          graphql: {
            query: `mutation($id: UUID!) { updateProject(id: $id, input: { name: "Taken over" }) { id name } }`,
            variables: (id) => ({ id }),
          },
        },
        // Using A's project in B's own requests is the same as an unknown project.
        {
          rest: {
            method: "post",
            path: () => "/follows",
            body: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }),
          },
        },
        {
          rest: {
            method: "post",
            path: () => "/briefs",
            body: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }),
          },
        },
        { rest: { method: "get", path: (id) => `/briefs?project_id=${id}&entity_type=district&entity_id=${a.district}` } },
        { rest: { method: "get", path: (id) => `/opportunities?project_id=${id}` } },
        { mcp: { tool: "get_brief", args: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }) } },
        { mcp: { tool: "request_brief", args: (id) => ({ project_id: id, entity_type: "district", entity_id: a.district }) } },
        { mcp: { tool: "list_opportunities", args: (id) => ({ filter: { projectId: id } }) } },
        {
          graphql: {
            query: `mutation($id: UUID!, $e: UUID!) { requestBrief(input: { projectId: $id, entityType: district, entityId: $e }) { briefId } }`,
            variables: (id) => ({ id, e: a.district }),
          },
        },
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
      lists: [{ rest: { method: "get", path: () => "/lists" } }, { graphql: { query: "{ lists { id name } }", variables: () => ({}) } }],
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
        // A list as a filter of B's reads: A's district list in every entity's filter (a contacts filter of a
        // district list is a 400 for its owner, so only the ownership check first keeps it a 404 for B).
        { rest: { method: "get", path: (id) => `/districts?list_id=${id}` } },
        { rest: { method: "get", path: (id) => `/schools?list_id=${id}` } },
        { rest: { method: "get", path: (id) => `/contacts?list_id=${id}` } },
        { graphql: { query: `query($id: UUID!) { districts(filter: { listId: $id }) { data { id } } }`, variables: (id) => ({ id }) } },
        { graphql: { query: `query($id: UUID!) { contacts(filter: { listId: $id }) { data { id } } }`, variables: (id) => ({ id }) } },
        { mcp: { tool: "search", args: (id) => ({ entity: "districts", filter: { listId: id } }) } },
        { mcp: { tool: "search", args: (id) => ({ entity: "contacts", filter: { listId: id } }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", "/lists").expect(200)).body,
    },
    {
      name: "webhooks and their deliveries",
      id: () => a.webhook,
      lists: [
        { rest: { method: "get", path: () => "/webhooks" } },
        { graphql: { query: "{ webhooks { id url } }", variables: () => ({}) } },
        { mcp: { tool: "list_webhooks", args: () => ({}) } },
      ],
      byId: [
        { rest: { method: "get", path: (id) => `/webhooks/${id}/deliveries` } },
        { graphql: { query: `query($id: UUID!) { webhookDeliveries(webhookId: $id) { id } }`, variables: (id) => ({ id }) } },
        { mcp: { tool: "webhook_deliveries", args: (id) => ({ webhook_id: id }) } },
        { rest: { method: "delete", path: (id) => `/webhooks/${id}` } },
        { graphql: { query: `mutation($id: UUID!) { deleteWebhook(webhookId: $id) { id } }`, variables: (id) => ({ id }) } },
        { mcp: { tool: "delete_webhook", args: (id) => ({ webhook_id: id }) } },
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
        { graphql: { query: `query($id: UUID!) { opportunity(id: $id) { id title } }`, variables: (id) => ({ id }) } },
        {
          graphql: { query: `query($id: UUID!) { opportunityVerification(id: $id) { verificationStatus } }`, variables: (id) => ({ id }) },
        },
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
      lists: [{ rest: { method: "get", path: () => "/org/email-templates" } }, { mcp: { tool: "list_email_templates", args: () => ({}) } }],
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
      name: "bid filings",
      id: () => a.bid,
      lists: [
        { rest: { method: "get", path: () => `/districts/${filingDistrict}` } },
        {
          graphql: {
            query: `query($d: UUID!) { district(id: $d) { bids { id filing { action } } } }`,
            variables: () => ({ d: filingDistrict }),
          },
        },
      ],
      byId: [
        { rest: { method: "put", path: (id) => `/bids/${id}/filing`, body: () => ({ action: "not_useful", reason_code: "other" }) } },
        {
          graphql: {
            query: `mutation($id: UUID!) { fileBid(bidId: $id, input: { action: set_aside }) { action } }`,
            variables: (id) => ({ id }),
          },
        },
        { mcp: { tool: "file_bid", args: (id) => ({ bid_id: id, action: "set_aside" }) } },
      ],
      readBack: async () => (await rest(aKey(), "get", `/districts/${filingDistrict}`).expect(200)).body.data.bids,
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
    // The internal plan's tight limit is for the rate-limit counters' test; no other test uses an internal key.
    t = await createTestApp({ RATE_LIMIT_INTERNAL: "rate=0.001 burst=5 concurrency=50", RATE_LIMIT_HOLD_MS: "0" }, { jobs: "send" });
    url = new URL(`http://127.0.0.1:${(t.server.address() as { port: number }).port}/mcp`);
    otherEnterpriseOrg = (
      await createOrganization(t.db, { name: "Other enterprise", plan: "enterprise", credits: 100, entitlements: ["signals"] })
    ).organizationId;
    others["another enterprise organization"] = { key: (await createApiKey(t.db, otherEnterpriseOrg)).apiKey };
    others["the pro plan's organization"] = { key: t.keys.pro };
    others["the free plan's organization"] = { key: t.keys.free };
    for (const other of Object.values(others)) other.mcp = await connect(other.key);
    aMcp = await connect(aKey());

    a.district = await insertDistrict(t.db, { name: "Isolation District", state: "NE", status: "completed" });
    a.listItem = await insertDistrict(t.db, { name: "Isolation Listed District", state: "NE", status: "completed" });
    unlockedDistrict = await insertDistrict(t.db, {
      name: "Isolation Unlocked District",
      state: "NE",
      status: "completed",
      ai_summary: "A's secret",
    });
    lockedTwin = await insertDistrict(t.db, {
      name: "Isolation Twin District",
      state: "NE",
      status: "completed",
      ai_summary: "A's secret",
    });
    filingDistrict = await insertDistrict(t.db, { name: "Isolation Filing District", state: "KS", status: "completed" });
    sharedDistrict = await insertDistrict(t.db, { name: "Isolation Shared District", state: "KS", status: "completed" });
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
    await insertUnlock(t.db, otherEnterpriseOrg, "contact", contact);

    const person = (name: string, district: string) =>
      insert(t.db, "contacts", {
        data_source: "test",
        source: "test",
        state: "NE",
        name,
        title: "Principal",
        email: `${name.split(" ")[0].toLowerCase()}@a.example`,
        district_id: district,
        is_district_contact: true,
      });
    secretContact = await person("Sky Secret", unlockedDistrict);
    twinContact = await person("Tal Twin", lockedTwin);
    await insertUnlock(t.db, t.orgs.enterprise, "contact", secretContact);
    for (const [owner, org] of [
      [filingDistrict, [t.orgs.enterprise]],
      [sharedDistrict, [t.orgs.enterprise, otherEnterpriseOrg]],
    ] as const)
      for (const id of org) await insertUnlock(t.db, id, "district", owner);
    a.bid = (await insertIntelligence(t.db, { district_id: filingDistrict }, "f")).openBidId;
    sharedBid = (await insertIntelligence(t.db, { district_id: sharedDistrict }, "s")).openBidId;
    await t.http.put(`/api/v1/bids/${a.bid}/filing`).set("Authorization", `Bearer ${aKey()}`).send({ action: "save" }).expect(200);
    await t.http.put(`/api/v1/bids/${sharedBid}/filing`).set("Authorization", `Bearer ${aKey()}`).send({ action: "save" }).expect(200);
    const post = (path: string, body: unknown) => rest(aKey(), "post", path, body);
    a.project = (await post("/projects", { name: "A's secret project" }).expect(201)).body.data.id;
    a.follow = (await post("/follows", { project_id: a.project, entity_type: "district", entity_id: a.district }).expect(201)).body.data.id;
    a.list = (await post("/lists", { name: "A's secret list", entity_type: "district" }).expect(201)).body.data.id;
    await post(`/lists/${a.list}/items`, { entity_ids: [a.listItem] }).expect(200);
    a.webhook = (
      await post("/webhooks", { url: "https://hooks.a.example/edmarket", events: ["unlock.completed"] }).expect(201)
    ).body.data.id;
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
      JSON.stringify({
        people: [
          {
            person_key: a.personKey,
            name: "Pat Example",
            title: "Superintendent",
            roles: [],
            contact_id: null,
            source_urls: [],
            data_source: [],
          },
        ],
      }),
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
    article = await insertArticle(
      t,
      { title: "A's district news", published_at: "2026-11-01T00:00:00Z", ingested_at: "2026-11-02T00:00:00Z" },
      [{ district_id: unlockedDistrict, signal_type: "facility_bond", buying_intent: "medium" }],
    );
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
    it.each(OTHERS)(
      "as %s: no list holds A's item, every call by A's id answers as a random uuid's (404), A's item is unchanged",
      async (who) => {
        const before = await resource.readBack();
        const { key, mcp } = others[who];
        for (const call of resource.lists) {
          const answer: any = await run(call, key, mcp, resource.id());
          // An answered list (an error would hold no id and prove nothing), without A's id.
          const ok = "status" in answer ? answer.status === 200 : "data" in answer ? !answer.errors : !answer.isError;
          expect([label(call), ok, JSON.stringify(answer)]).toEqual([label(call), true, expect.not.stringContaining("<id>")]);
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
      },
    );
  });

  describe.each(OTHERS)("as %s", (who) => {
    it("unlocks: A's unlocked district and contact read as their never-unlocked twins (REST, GraphQL, MCP, unlock status)", async () => {
      const { key, mcp } = others[who];
      const views = async (district: string, contactId: string) => {
        const record = (await rest(key, "get", `/districts/${district}`).expect(200)).body.data;
        const graph = await gql(
          key,
          `query($id: UUID!) { district(id: $id) { aiSummary _access { isUnlocked isUnlocking creditsSpent unlockedAt } } }`,
          {
            id: district,
          },
        );
        const details = JSON.parse(
          ((await mcp!.callTool({ name: "details", arguments: { entity: "district", id: district } })) as any).content[0].text,
        );
        const status = (await rest(key, "get", `/unlock-status/district/${district}`).expect(200)).body;
        const person = (await rest(key, "get", `/contacts/${contactId}`).expect(200)).body.data;
        // An outreach e-mail to A's unlocked contact is refused to B as to a contact nobody unlocked.
        const mail = await rest(key, "post", `/contacts/${contactId}/outreach-email`, {});
        return {
          rest: [record.ai_summary, record._access],
          graphql: graph,
          mcp: [details.data?.ai_summary ?? details.ai_summary, details.data?._access ?? details._access],
          status: { ...status, entity_id: undefined },
          contact: [person.email, person._access],
          outreach: [mail.status, JSON.stringify(mail.body).split(contactId).join("<id>")],
        };
      };
      const ofA = await views(unlockedDistrict, secretContact);
      expect(ofA).toEqual(await views(lockedTwin, twinContact));
      expect(ofA.rest[0]).toBeNull();
      expect(ofA.status.state).toBe("locked");
      // As A, the same reads are unlocked (the twins are not both locked for everyone).
      expect((await rest(aKey(), "get", `/districts/${unlockedDistrict}`).expect(200)).body.data.ai_summary).toBe("A's secret");
      expect((await rest(aKey(), "get", `/contacts/${secretContact}`).expect(200)).body.data.email).toBe("sky@a.example");
    });

    it("idempotency keys: A's Idempotency-Key reused by B does not replay A's response nor conflict with A's body", async () => {
      const { key, mcp } = others[who];
      const districts = await Promise.all(
        [1, 2, 3, 4].map((n) => insertDistrict(t.db, { name: `Idem ${n} ${who}`, state: "NE", status: "completed" })),
      );
      const keys = [1, 2, 3].map((n) => `shared-${n}-${crypto.randomUUID()}`);
      const unlockAs = (k: string, entity: string, idem: string) =>
        rest(k, "post", "/unlock", { entity_type: "district", entity_id: entity }).set("Idempotency-Key", idem);
      const state = async (entity: string) => (await rest(key, "get", `/unlock-status/district/${entity}`).expect(200)).body.state;
      // A uses three keys; B then reuses each of them.
      const ofA = (await unlockAs(aKey(), districts[0], keys[0]).expect(200)).body;
      await unlockAs(aKey(), districts[1], keys[1]).expect(200);
      await unlockAs(aKey(), districts[3], keys[2]).expect(200);

      // Same key, same body over REST: B's own unlock (a replay of A's response would unlock nothing for B).
      const sameBody = (await unlockAs(key, districts[0], keys[0]).expect(200)).body;
      expect(sameBody).toMatchObject({ outcome: "unlocked", credits_charged: 6, operation_key: keys[0] });
      expect(await state(districts[0])).toBe("unlocked");
      // Same key, another body over GraphQL: no 409 (A's body is not B's).
      const graph = await gql(
        key,
        `mutation($e: UUID!, $k: String) { unlock(input: { entityType: district, entityId: $e }, idempotencyKey: $k) { statusCode result { outcome } } }`,
        { e: districts[2], k: keys[1] },
      );
      expect(graph.data).toEqual({ unlock: { statusCode: 200, result: { outcome: "unlocked" } } });
      expect(await state(districts[2])).toBe("unlocked");
      // Same key, same body over MCP: B's own unlock too.
      const viaMcp = (await mcp!.callTool({
        name: "unlock",
        arguments: { entity_type: "district", entity_id: districts[3], idempotency_key: keys[2] },
      })) as any;
      expect(viaMcp.isError).toBeFalsy();
      expect(await state(districts[3])).toBe("unlocked");
      // A's key still replays A's own first response, untouched by B, and still refuses another body of A's.
      expect((await unlockAs(aKey(), districts[0], keys[0]).expect(200)).body).toEqual(ofA);
      await unlockAs(aKey(), districts[2], keys[0]).expect(409);
    });

    it("idempotency keys of every mutation: A's key reused by B creates B's own project, on every face, never A's", async () => {
      const { key, mcp } = others[who];
      const idem = `project-${crypto.randomUUID()}`;
      const name = `Keyed project ${who}`;
      const create = (k: string) => rest(k, "post", "/projects", { name }).set("Idempotency-Key", idem);
      const ofA = (await create(aKey()).expect(201)).body.data;
      const ofB = (await create(key).expect(201)).body.data;
      expect(ofB.id).not.toBe(ofA.id);
      const mutation = `mutation($n: String!, $k: String) { createProject(input: { name: $n }, idempotencyKey: $k) { id } }`;
      const viaGraphQL = (await gql(aKey(), mutation, { n: name, k: `g-${idem}` })).data.createProject.id;
      const graphOfB = await gql(key, mutation, { n: name, k: `g-${idem}` });
      expect(graphOfB.errors).toBeUndefined();
      expect(graphOfB.data.createProject.id).not.toBe(viaGraphQL);
      const viaMcp = async (client: Client) =>
        JSON.parse(
          ((await client.callTool({ name: "create_project", arguments: { name, idempotency_key: `m-${idem}` } })) as any).content[0].text,
        ).data.id;
      expect(await viaMcp(mcp!)).not.toBe(await viaMcp(aMcp));
      const projectsOf = async (k: string) =>
        ((await rest(k, "get", "/projects").expect(200)).body.data as { id: string; name: string }[]).filter((p) => p.name === name);
      expect((await projectsOf(key)).length).toBe(3);
      expect((await projectsOf(aKey())).map((p) => p.id)).not.toContain(ofB.id);
      expect((await create(aKey()).expect(201)).body.data).toEqual(ofA);
    });
  });

  it("bid filings of a district both unlocked: B sees no filing of A's, and B's filing leaves A's as it was", async () => {
    const filingOf = async (key: string) =>
      ((await rest(key, "get", `/districts/${sharedDistrict}`).expect(200)).body.data.bids as { id: string; filing: unknown }[]).find(
        (b) => b.id === sharedBid,
      )!.filing;
    const b = others["another enterprise organization"].key;
    const before = await filingOf(aKey());
    expect(before).toMatchObject({ action: "save" });
    expect(await filingOf(b)).toBeNull();
    await t.http.put(`/api/v1/bids/${sharedBid}/filing`).set("Authorization", `Bearer ${b}`).send({ action: "set_aside" }).expect(200);
    expect(await filingOf(b)).toMatchObject({ action: "set_aside" });
    expect(await filingOf(aKey())).toEqual(before);
  });

  it("webhook events: A's unlock is delivered to A's webhook only, never to another organization's subscribed one", async () => {
    const b = others["another enterprise organization"].key;
    const bHook = (
      await rest(b, "post", "/webhooks", { url: "https://hooks.b.example/edmarket", events: ["unlock.completed"] }).expect(201)
    ).body.data.id;
    const district = await insertDistrict(t.db, { name: "Isolation Event District", state: "NE", status: "completed" });
    await rest(aKey(), "post", "/unlock", { entity_type: "district", entity_id: district }).expect(200);
    const deliveriesOf = (webhook: string) =>
      t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1::uuid AND payload::text LIKE $2`, [
        webhook,
        `%${district}%`,
      ]);
    expect([await deliveriesOf(a.webhook), await deliveriesOf(bHook)]).toEqual([[{ n: 1 }], [{ n: 0 }]]);
  });

  it("A's organization counters (credits, follow slots) are not spent by B's follows and unlocks of the same entities", async () => {
    const b = others["another enterprise organization"].key;
    const before = (await rest(aKey(), "get", "/org").expect(200)).body;
    const bProject = (await rest(b, "post", "/projects", { name: "B's project" }).expect(201)).body.data.id;
    await rest(b, "post", "/follows", { project_id: bProject, entity_type: "district", entity_id: a.district }).expect(201);
    const district = await insertDistrict(t.db, { name: "Isolation Counter District", state: "NE", status: "completed" });
    await rest(b, "post", "/unlock", { entity_type: "district", entity_id: district }).expect(200);
    expect((await rest(aKey(), "get", "/org").expect(200)).body).toEqual(before);
    expect((await rest(aKey(), "get", `/unlock-status/district/${district}`).expect(200)).body.state).toBe("locked");
  });

  it("rate-limit counters: B's requests, refused ones included, do not spend A's budget (internal plan: burst 5 here)", async () => {
    const { organizationId } = await createOrganization(t.db, { name: "Other internal", plan: "internal", credits: 0 });
    const b = (await createApiKey(t.db, organizationId)).apiKey;
    const remaining = (res: { headers: Record<string, string> }) => Number(/"default";r=(\d+)/.exec(res.headers["ratelimit"])![1]);
    const aFirst = await rest(t.keys.internal, "get", "/org").expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await rest(b, "get", "/org")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const aNext = await rest(t.keys.internal, "get", "/org").expect(200);
    expect([remaining(aFirst), remaining(aNext)]).toEqual([4, 3]);
  });

  it("the same calls as A do reach A's items (the probes are not 404 for every caller)", async () => {
    // The inserted delivery, and those of A's own unlocks since (the outbox writes them for A's webhook).
    expect((await rest(aKey(), "get", `/webhooks/${a.webhook}/deliveries`).expect(200)).body.data.length).toBeGreaterThanOrEqual(1);
    expect((await rest(aKey(), "get", `/opportunities/${a.opportunity}`).expect(200)).body.data.id).toBe(a.opportunity);
    const mail = await rest(aKey(), "post", `/contacts/${contact}/outreach-email`, { template_id: a.template }).expect(200);
    expect(JSON.stringify(mail.body)).toContain(a.template);
    const brief = (await aMcp.callTool({ name: "get_brief", arguments: { brief_id: a.brief } })) as any;
    expect(brief.isError).toBeFalsy();
  });
});

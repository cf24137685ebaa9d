/**
 * Idempotency-Key on every state-changing operation (issue 26; src/graphql/idempotency.ts), on a real database.
 *
 * Table-driven from the route table: every route whose operation is a mutation must have a case in CASES (a new
 * one without a case fails here), and each case runs the same checks: the same key and request answer the first
 * status and body byte for byte without running the operation again (the composition root's test seam counts the
 * operations the kit runs) and without a second effect (rows, ledger entries, timestamps read back); the same key
 * with another request is 409; a second request while the first with the key still runs is 409, and afterwards the
 * key answers the first response; another organization's request with the same key is its own. The first request
 * is held open deterministically: the seam (`reserved`) awaits a promise the test resolves, after the reservation
 * is committed and before the operation runs; nothing waits on time.
 *
 * Then the rule's details on one route (key format, a failed first request, stale and expired reservations, a
 * race of one key), and the GraphQL and MCP faces.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { getOperationAST } from "graphql";
import { routes } from "../../rest-adapter/routes";
import { createApiKey } from "../../src/features/account/organizations/api-keys.service";
import { createOrganization } from "../../src/features/account/organizations/organization.service";
import type { IdempotencyHooks } from "../../src/graphql/idempotency";
import { createTestApp, type TestApp } from "../support/app";
import { insertIntelligence, insertUnlock } from "../support/block-factories";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";

type Method = "post" | "put" | "patch" | "delete";
interface Req {
  path: string;
  body?: unknown;
}
interface Org {
  id: string;
  key: string;
}
interface Prepared {
  request: Req;
  /** The same route with another body or path: refused under the first request's key. */
  other: Req;
  /** What the request changes, read back: a replay leaves it as the first request left it. */
  effect(): Promise<unknown>;
}
interface Case {
  /** The plan the route needs (PATCH /schools: internal); enterprise otherwise. */
  plan?: "internal";
  /** Whether the first request changes `effect` (so that the check of the replay's effect can fail). */
  changes: boolean;
  /** A fresh resource of `org` and the request on it. */
  prepare(org: Org): Promise<Prepared>;
}

const uuid = () => crypto.randomUUID();
const STATE_CHANGING = routes.filter((r) => r.idempotent).map((r) => `${r.method} ${r.path}`);

describe("Idempotency-Key on every state-changing operation", () => {
  let t: TestApp;
  let embeddings: http.Server;
  let mcpUrl: URL;
  const clients: Client[] = [];
  /** A (the routes' caller) and B (another organization of the same plan), by plan. */
  const orgs = {} as Record<"a" | "b", Record<"enterprise" | "internal", Org>>;

  /** Every operation the kit ran (its reservation taken), as "organization key"; the keys to hold open. */
  const executions: string[] = [];
  const holds = new Map<string, { entered: () => void; released: Promise<void> }>();
  const hooks: IdempotencyHooks = {
    async reserved({ organizationId, key }) {
      executions.push(`${organizationId} ${key}`);
      const hold = holds.get(key);
      if (hold) {
        hold.entered();
        await hold.released;
      }
    },
  };
  const ran = (org: Org, key: string) => executions.filter((e) => e === `${org.id} ${key}`).length;
  /** Holds the next request with `key` after its reservation: `inside` resolves once it is held, `release` lets it go. */
  const hold = (key: string) => {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    holds.set(key, { entered, released });
    return {
      inside,
      release: () => {
        holds.delete(key);
        release();
      },
    };
  };

  const send = (org: Org, method: Method, req: Req, key?: string) => {
    let call = t.http[method](`/api/v1${req.path}`).set("Authorization", `Bearer ${org.key}`);
    if (key !== undefined) call = call.set("Idempotency-Key", key);
    return req.body === undefined ? call : call.send(req.body as object);
  };
  /** What the caller gets: the status and the body's exact text. */
  const answer = (res: { status: number; text: string }) => ({ status: res.status, text: res.text });
  const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(sql, params))[0]!.n;
  const one = async (sql: string, params: unknown[]) => Object.values((await t.db.query(sql, params))[0] ?? {})[0] ?? null;

  const project = async (org: Org) => insert(t.db, "projects", { organization_id: org.id, name: `Project ${uuid()}` });
  const district = (values: Record<string, unknown> = {}) => insertDistrict(t.db, { state: "NE", status: "completed", ...values });
  const ledgerRows = (org: Org) => () => count(`SELECT count(*)::int AS n FROM credit_ledger WHERE organization_id = $1`, [org.id]);
  const list = async (org: Org, items: string[] = []) => {
    const id = await insert(t.db, "lists", { organization_id: org.id, name: `List ${uuid()}`, entity_type: "district" });
    for (const entity of items) await insert(t.db, "list_items", { list_id: id, entity_id: entity });
    return id;
  };
  const webhook = async (org: Org) =>
    (await send(org, "post", { path: "/webhooks", body: { url: "https://hooks.example/a", events: ["unlock.completed"] } }).expect(201))
      .body.data.id as string;
  const readyBrief = async (org: Org) => {
    const entity = await district();
    const personKey = `p_${"b".repeat(24)}`;
    const person = (key: string, name: string) => ({
      person_key: key,
      name,
      title: "Principal",
      roles: [],
      contact_id: null,
      source_urls: [],
      data_source: [],
    });
    const brief = await insert(t.db, "briefs", {
      organization_id: org.id,
      project_id: await project(org),
      entity_type: "district",
      entity_id: entity,
      status: "ready",
      finished_at: new Date(),
      dossier: { people: [person(personKey, "Pat Example"), person(`p_${"c".repeat(24)}`, "Kim Other")], events: [] },
    });
    return { brief, personKey, otherKey: `p_${"c".repeat(24)}` };
  };
  const unlockedContact = async (org: Org) => {
    const id = await insert(t.db, "contacts", {
      data_source: "test",
      source: "test",
      state: "NE",
      name: `Pat ${uuid().slice(0, 8)}`,
      title: "Superintendent",
      district_id: await district(),
      is_district_contact: true,
    });
    await insertUnlock(t.db, org.id, "contact", id);
    return id;
  };

  /** One case per state-changing route of the route table (`METHOD /path`). */
  const CASES: Record<string, Case> = {
    "POST /projects": {
      changes: true,
      prepare: async (org) => ({
        request: { path: "/projects", body: { name: "Idempotent project" } },
        other: { path: "/projects", body: { name: "Another project" } },
        effect: () => count(`SELECT count(*)::int AS n FROM projects WHERE organization_id = $1`, [org.id]),
      }),
    },
    "PATCH /projects/:id": {
      changes: true,
      prepare: async (org) => {
        const id = await project(org);
        return {
          request: { path: `/projects/${id}`, body: { name: "Renamed" } },
          other: { path: `/projects/${id}`, body: { name: "Renamed again" } },
          effect: () => one(`SELECT updated_at FROM projects WHERE id = $1`, [id]),
        };
      },
    },
    "POST /follows": {
      changes: true,
      prepare: async (org) => {
        const [projectId, entity, another] = [await project(org), await district(), await district()];
        return {
          request: { path: "/follows", body: { project_id: projectId, entity_type: "district", entity_id: entity } },
          other: { path: "/follows", body: { project_id: projectId, entity_type: "district", entity_id: another } },
          effect: () => count(`SELECT count(*)::int AS n FROM follows WHERE project_id = $1`, [projectId]),
        };
      },
    },
    "DELETE /follows/:id": {
      changes: true,
      prepare: async (org) => {
        const projectId = await project(org);
        const follow = async () =>
          insert(t.db, "follows", { organization_id: org.id, project_id: projectId, entity_type: "district", entity_id: await district() });
        const [id, another] = [await follow(), await follow()];
        return {
          request: { path: `/follows/${id}` },
          other: { path: `/follows/${another}` },
          effect: () => one(`SELECT unfollowed_at FROM follows WHERE id = $1`, [id]),
        };
      },
    },
    "POST /lists": {
      changes: true,
      prepare: async (org) => ({
        request: { path: "/lists", body: { name: "Idempotent list", entity_type: "district" } },
        other: { path: "/lists", body: { name: "Idempotent list", entity_type: "school" } },
        effect: () => count(`SELECT count(*)::int AS n FROM lists WHERE organization_id = $1`, [org.id]),
      }),
    },
    "POST /lists/:id/items": {
      changes: true,
      prepare: async (org) => {
        const [id, entity, another] = [await list(org), await district(), await district()];
        return {
          request: { path: `/lists/${id}/items`, body: { entity_ids: [entity] } },
          other: { path: `/lists/${id}/items`, body: { entity_ids: [another] } },
          effect: () => count(`SELECT count(*)::int AS n FROM list_items WHERE list_id = $1`, [id]),
        };
      },
    },
    "DELETE /lists/:id/items/:entity_id": {
      changes: true,
      prepare: async (org) => {
        const [entity, another] = [await district(), await district()];
        const id = await list(org, [entity, another]);
        return {
          request: { path: `/lists/${id}/items/${entity}` },
          other: { path: `/lists/${id}/items/${another}` },
          effect: () => count(`SELECT count(*)::int AS n FROM list_items WHERE list_id = $1`, [id]),
        };
      },
    },
    "POST /webhooks": {
      changes: true,
      prepare: async (org) => ({
        request: { path: "/webhooks", body: { url: "https://hooks.example/idempotent", events: ["unlock.completed"] } },
        other: { path: "/webhooks", body: { url: "https://hooks.example/idempotent", events: ["brief.ready"] } },
        effect: () => count(`SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1`, [org.id]),
      }),
    },
    "DELETE /webhooks/:id": {
      changes: true,
      prepare: async (org) => {
        const [id, another] = [await webhook(org), await webhook(org)];
        return {
          request: { path: `/webhooks/${id}` },
          other: { path: `/webhooks/${another}` },
          effect: () => count(`SELECT count(*)::int AS n FROM webhooks WHERE id = $1`, [id]),
        };
      },
    },
    "PUT /bids/:id/filing": {
      changes: true,
      prepare: async (org) => {
        const entity = await district();
        await insertUnlock(t.db, org.id, "district", entity);
        const bid = (await insertIntelligence(t.db, { district_id: entity }, uuid().slice(0, 6))).openBidId;
        return {
          request: { path: `/bids/${bid}/filing`, body: { action: "save" } },
          other: { path: `/bids/${bid}/filing`, body: { action: "set_aside" } },
          effect: () => one(`SELECT filed_at FROM bid_filings WHERE bid_id = $1 AND organization_id = $2`, [bid, org.id]),
        };
      },
    },
    "POST /briefs": {
      changes: true,
      prepare: async (org) => {
        const [projectId, entity, another] = [await project(org), await district(), await district()];
        return {
          request: { path: "/briefs", body: { project_id: projectId, entity_type: "district", entity_id: entity } },
          other: { path: "/briefs", body: { project_id: projectId, entity_type: "district", entity_id: another } },
          effect: () => count(`SELECT count(*)::int AS n FROM briefs WHERE project_id = $1`, [projectId]),
        };
      },
    },
    "POST /briefs/:brief_id/people/:person_key/promote": {
      changes: true,
      prepare: async (org) => {
        const { brief, personKey, otherKey } = await readyBrief(org);
        return {
          request: { path: `/briefs/${brief}/people/${personKey}/promote` },
          other: { path: `/briefs/${brief}/people/${otherKey}/promote` },
          effect: () => count(`SELECT count(*)::int AS n FROM promoted_contacts WHERE brief_id = $1`, [brief]),
        };
      },
    },
    "POST /contacts/:id/outreach-email": {
      // Writes nothing: the replay is the first draft, not a new one.
      changes: false,
      prepare: async (org) => {
        const contact = await unlockedContact(org);
        return {
          request: { path: `/contacts/${contact}/outreach-email`, body: {} },
          other: { path: `/contacts/${await unlockedContact(org)}/outreach-email`, body: {} },
          effect: async () => null,
        };
      },
    },
    "POST /opportunities/:id/refresh": {
      changes: true,
      prepare: async (org) => {
        const projectId = await project(org);
        const opportunity = async () =>
          insert(t.db, "opportunities", {
            organization_id: org.id,
            project_id: projectId,
            entity_type: "district",
            district_id: await district(),
            title: "An opportunity",
            source_urls: ["https://news.example/story"],
            signal_ids: [],
            suggested_prompts: [],
            data_source: "test",
            dedupe_key: `district:${uuid()}:profile`,
          });
        const [id, another] = [await opportunity(), await opportunity()];
        return {
          request: { path: `/opportunities/${id}/refresh` },
          other: { path: `/opportunities/${another}/refresh` },
          effect: () => one(`SELECT verification_job_id FROM opportunities WHERE id = $1`, [id]),
        };
      },
    },
    "PATCH /schools/:id": {
      plan: "internal",
      changes: true,
      prepare: async () => {
        const school = await insertSchool(t.db);
        return {
          request: { path: `/schools/${school}`, body: { name: "Renamed School" } },
          other: { path: `/schools/${school}`, body: { name: "Renamed School", phone: "402-555-0100" } },
          effect: () => one(`SELECT last_updated_at FROM schools WHERE id = $1`, [school]),
        };
      },
    },
    "POST /semantic-search": {
      changes: true,
      prepare: async (org) => ({
        request: { path: "/semantic-search", body: { query: "rural reading programs", entity_type: "district" } },
        other: { path: "/semantic-search", body: { query: "rural reading programs", entity_type: "school" } },
        effect: ledgerRows(org),
      }),
    },
    "POST /unlock": {
      changes: true,
      prepare: async (org) => {
        const [entity, another] = [await district(), await district()];
        return {
          request: { path: "/unlock", body: { entity_type: "district", entity_id: entity } },
          other: { path: "/unlock", body: { entity_type: "district", entity_id: another } },
          effect: ledgerRows(org),
        };
      },
    },
  };

  beforeAll(async () => {
    // An OpenAI-compatible embeddings endpoint for POST /semantic-search (the offline model is the semantic-search tests').
    embeddings = http.createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        const input = (JSON.parse(text) as { input: string[] }).input;
        const vector = (s: string) => [...crypto.createHash("sha256").update(s).digest().subarray(0, 8)].map((b) => b - 127.5);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ data: input.map((s, index) => ({ index, embedding: vector(s) })) }));
      });
    });
    await new Promise<void>((resolve) => embeddings.listen(0, "127.0.0.1", resolve));
    t = await createTestApp(
      { EMBEDDINGS_BASE_URL: `http://127.0.0.1:${(embeddings.address() as AddressInfo).port}`, IDEMPOTENCY_STALE_SECONDS: "300" },
      { jobs: "send", idempotency: hooks },
    );
    mcpUrl = new URL(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`);
    const other = async (plan: "enterprise" | "internal"): Promise<Org> => {
      const { organizationId } = await createOrganization(t.db, { name: `Other ${plan}`, plan, credits: 100, entitlements: ["signals"] });
      return { id: organizationId, key: (await createApiKey(t.db, organizationId)).apiKey };
    };
    orgs.a = {
      enterprise: { id: t.orgs.enterprise, key: t.keys.enterprise },
      internal: { id: t.orgs.internal, key: t.keys.internal },
    };
    orgs.b = { enterprise: await other("enterprise"), internal: await other("internal") };
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t?.close();
    await new Promise((resolve) => embeddings?.close(resolve));
  });

  it("has a case for every route of the route table whose operation is a mutation, and such routes take the header", async () => {
    expect(STATE_CHANGING.length).toBeGreaterThan(10);
    expect(Object.keys(CASES).sort()).toEqual([...STATE_CHANGING].sort());
    for (const route of routes) {
      const kind = getOperationAST(route.document)!.operation;
      // A route that is no GET either changes state, or is a list's POST twin (the GET's query with a body).
      if (route.method !== "GET" && kind !== "mutation")
        expect([route.method, route.input, kind]).toEqual(["POST", "string-body", "query"]);
      expect([route.path, route.idempotent === true]).toEqual([route.path, kind === "mutation"]);
      if (kind === "mutation") expect(route.headers).toMatchObject({ "Idempotency-Key": "idempotencyKey" });
    }
    // The OpenAPI document describes the header and the 409 on each of them, from the same route rows.
    const document = (await t.http.get("/api/v1/openapi.json").expect(200)).body;
    for (const label of STATE_CHANGING) {
      const [method, path] = label.split(" ");
      const operation = document.paths[path.replace(/:(\w+)/g, "{$1}")][method.toLowerCase()];
      const header = operation.parameters.find((p: { name: string; in: string }) => p.in === "header" && p.name === "Idempotency-Key");
      expect([label, header?.required, header?.description]).toEqual([
        label,
        false,
        expect.stringMatching(/same key with the same request/),
      ]);
      expect([label, Object.keys(operation.responses)]).toEqual([label, expect.arrayContaining(["409"])]);
    }
  });

  describe.each(STATE_CHANGING)("%s", (label) => {
    const method = label.split(" ")[0].toLowerCase() as Method;
    const theCase = () => {
      const found = CASES[label];
      if (!found) throw new Error(`${label} changes state but has no case in CASES: add one`);
      return found;
    };
    const a = () => orgs.a[theCase().plan ?? "enterprise"];
    const b = () => orgs.b[theCase().plan ?? "enterprise"];

    it("same key, same request: the first status and body again, the operation not run again, no second effect", async () => {
      const c = theCase();
      const p = await c.prepare(a());
      const key = `same-${uuid()}`;
      const before = await p.effect();
      const first = await send(a(), method, p.request, key);
      expect([label, first.status]).toEqual([label, expect.any(Number)]);
      expect(first.status).toBeLessThan(300);
      const after = await p.effect();
      if (c.changes) expect(after).not.toEqual(before);
      const replay = await send(a(), method, p.request, key);
      expect(answer(replay)).toEqual(answer(first));
      expect(await p.effect()).toEqual(after);
      expect(ran(a(), key)).toBe(1);
    });

    it("same key, another request: 409 conflict with the generic body, nothing run; the key still answers the first", async () => {
      const p = await theCase().prepare(a());
      const key = `other-${uuid()}`;
      const first = await send(a(), method, p.request, key);
      expect(first.status).toBeLessThan(300);
      const after = await p.effect();
      const conflict = await send(a(), method, p.other, key);
      expect([conflict.status, conflict.body]).toEqual([
        409,
        { error: "conflict", statusCode: 409, message: "this Idempotency-Key was used with a different request" },
      ]);
      expect(await p.effect()).toEqual(after);
      expect(ran(a(), key)).toBe(1);
      expect(answer(await send(a(), method, p.request, key))).toEqual(answer(first));
    });

    it("409 while the first request with the key still runs; afterwards the key answers the first response", async () => {
      const p = await theCase().prepare(a());
      const key = `running-${uuid()}`;
      const held = hold(key);
      const first = send(a(), method, p.request, key).then((res) => res);
      await held.inside;
      const second = await send(a(), method, p.request, key);
      expect([second.status, second.body]).toEqual([
        409,
        { error: "conflict", statusCode: 409, message: "a request with this Idempotency-Key is still in progress" },
      ]);
      held.release();
      const done = await first;
      expect(done.status).toBeLessThan(300);
      expect(answer(await send(a(), method, p.request, key))).toEqual(answer(done));
      expect(ran(a(), key)).toBe(1);
    });

    it("another organization's request with the same key is its own: run for it, neither A's response nor a 409", async () => {
      const p = await theCase().prepare(a());
      const key = `shared-${uuid()}`;
      const ofA = await send(a(), method, p.request, key);
      expect(ofA.status).toBeLessThan(300);
      const ofB = await send(b(), method, p.request, key);
      expect(ofB.status).not.toBe(409);
      expect(ran(b(), key)).toBe(1);
      expect(answer(await send(a(), method, p.request, key))).toEqual(answer(ofA));
      expect(ran(a(), key)).toBe(1);
    });
  });

  describe("the rule, on POST /projects", () => {
    const create = (name: string, key?: string) => send(orgs.a.enterprise, "post", { path: "/projects", body: { name } }, key);
    const projectsNamed = (name: string) =>
      count(`SELECT count(*)::int AS n FROM projects WHERE organization_id = $1 AND name = $2`, [orgs.a.enterprise.id, name]);
    const reservation = (key: string, values: Record<string, unknown>) =>
      insert(t.db, "idempotency_keys", {
        organization_id: orgs.a.enterprise.id,
        key,
        request_hash: "another request",
        response: "",
        ...values,
      });

    it.each([
      ["empty", ""],
      ["256 characters", "k".repeat(256)],
      ["a space", "my key"],
      ["a character beyond ASCII", "clé"],
    ])("refuses a key that is %s: 400 with the generic body, nothing run", async (_what, key) => {
      const name = `Refused ${uuid()}`;
      const res = await create(name, key);
      expect([res.status, res.body]).toEqual([
        400,
        {
          error: "bad_request",
          statusCode: 400,
          message: "Idempotency-Key must be 1-255 visible ASCII characters (letters, digits, punctuation; no spaces)",
        },
      ]);
      expect(await projectsNamed(name)).toBe(0);
    });

    it("takes 255 visible ASCII characters", async () => {
      const key = `${uuid()}!~`.padEnd(255, "#");
      const name = `Long key ${uuid()}`;
      const first = await create(name, key).expect(201);
      expect(answer(await create(name, key))).toEqual(answer(first));
      expect(await projectsNamed(name)).toBe(1);
    });

    it("a failed first request (400) stores nothing: the key runs the next request, whatever its body", async () => {
      const key = `failed-${uuid()}`;
      expect((await create(" ", key).expect(400)).body.error).toBe("bad_request");
      expect(ran(orgs.a.enterprise, key)).toBe(1);
      const name = `After a failure ${uuid()}`;
      const ok = await create(name, key).expect(201);
      expect(answer(await create(name, key))).toEqual(answer(ok));
      expect(ran(orgs.a.enterprise, key)).toBe(2);
      expect(await projectsNamed(name)).toBe(1);
    });

    it("a reservation whose request never finished is taken over once stale (IDEMPOTENCY_STALE_SECONDS), not before", async () => {
      const fresh = `crashed-recently-${uuid()}`;
      await reservation(fresh, { created_at: new Date(Date.now() - 60_000) });
      expect((await create("Blocked", fresh).expect(409)).body.error).toBe("conflict");
      const stale = `crashed-${uuid()}`;
      await reservation(stale, { created_at: new Date(Date.now() - 301_000) });
      const name = `After a crash ${uuid()}`;
      const ok = await create(name, stale).expect(201);
      expect(answer(await create(name, stale))).toEqual(answer(ok));
      expect(await projectsNamed(name)).toBe(1);
    });

    it("a finished key is replayed for 24 hours, then runs a request again", async () => {
      const key = `old-${uuid()}`;
      await reservation(key, { created_at: new Date(Date.now() - 25 * 3600_000), finished_at: new Date(Date.now() - 25 * 3600_000) });
      const name = `A day later ${uuid()}`;
      await create(name, key).expect(201);
      expect(await projectsNamed(name)).toBe(1);
      const recent = `recent-${uuid()}`;
      await reservation(recent, { created_at: new Date(Date.now() - 23 * 3600_000), finished_at: new Date(Date.now() - 23 * 3600_000) });
      expect((await create(`Within the day ${uuid()}`, recent).expect(409)).body.message).toBe(
        "this Idempotency-Key was used with a different request",
      );
    });

    it("20 concurrent requests with one key run once: the others answer the first response or 409", async () => {
      const key = `race-${uuid()}`;
      const name = `Race ${uuid()}`;
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(name, key)));
      expect(await projectsNamed(name)).toBe(1);
      expect(ran(orgs.a.enterprise, key)).toBe(1);
      const created = answers.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.text)).size).toBe(1);
      expect(answers.filter((r) => r.status !== 201).map((r) => r.status)).toEqual(answers.filter((r) => r.status !== 201).map(() => 409));
    });

    it("without a key nothing is reserved: each request runs", async () => {
      const name = `No key ${uuid()}`;
      await create(name).expect(201);
      await create(name).expect(201);
      expect(await projectsNamed(name)).toBe(2);
    });
  });

  describe("GraphQL: every mutation takes idempotencyKey", () => {
    const gql = async (query: string, variables: Record<string, unknown>, org = orgs.a.enterprise) =>
      (await t.http.post("/graphql").set("Authorization", `Bearer ${org.key}`).send({ query, variables })).body;
    const CREATE = `mutation($name: String!, $k: String) { createProject(input: { name: $name }, idempotencyKey: $k) { id name } }`;

    it("the schema gives every mutation the argument, with the dictionary's description", async () => {
      const { data } = await gql(`{ __type(name: "Mutation") { fields { name args { name type { name } description } } } }`, {});
      const fields = data.__type.fields as { name: string; args: { name: string; type: { name: string }; description: string }[] }[];
      expect(fields.length).toBeGreaterThan(10);
      for (const field of fields)
        expect([field.name, field.args.find((a) => a.name === "idempotencyKey")]).toEqual([
          field.name,
          { name: "idempotencyKey", type: { name: "String" }, description: expect.stringMatching(/^Idempotency-Key: 1-255/) },
        ]);
    });

    it("replays the first data, refuses another request (CONFLICT) and a bad key (BAD_USER_INPUT)", async () => {
      const key = `graphql-${uuid()}`;
      const name = `GraphQL ${uuid()}`;
      const first = await gql(CREATE, { name, k: key });
      expect(first.data.createProject.name).toBe(name);
      expect((await gql(CREATE, { name, k: key })).data).toEqual(first.data);
      // The key as a literal is the same key; the request differs (the document), so it is refused.
      const literal = await gql(`mutation { createProject(input: { name: "${name}" }, idempotencyKey: "${key}") { id name } }`, {});
      expect(literal.errors.map((e: any) => e.extensions.code)).toEqual(["CONFLICT"]);
      const other = await gql(CREATE, { name: "Another", k: key });
      expect(other.errors.map((e: any) => [e.extensions.code, e.message])).toEqual([
        ["CONFLICT", "this Idempotency-Key was used with a different request"],
      ]);
      const bad = await gql(CREATE, { name, k: "" });
      expect(bad.errors.map((e: any) => e.extensions.code)).toEqual(["BAD_USER_INPUT"]);
      expect(ran(orgs.a.enterprise, key)).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM projects WHERE name = $1`, [name])).toBe(1);
    });

    it("CONFLICT while the first request with the key runs, then its data", async () => {
      const key = `graphql-running-${uuid()}`;
      const held = hold(key);
      const first = gql(CREATE, { name: "Held", k: key });
      await held.inside;
      const second = await gql(CREATE, { name: "Held", k: key });
      expect(second.errors.map((e: any) => [e.extensions.code, e.message])).toEqual([
        ["CONFLICT", "a request with this Idempotency-Key is still in progress"],
      ]);
      held.release();
      const done = await first;
      expect((await gql(CREATE, { name: "Held", k: key })).data).toEqual(done.data);
    });

    it("a key names one request: refused on an operation of two root fields", async () => {
      const res = await gql(
        `mutation($k: String) { a: createProject(input: { name: "One" }, idempotencyKey: $k) { id } b: createProject(input: { name: "Two" }) { id } }`,
        { k: `two-${uuid()}` },
      );
      expect(res.errors.map((e: any) => e.extensions.code)).toEqual(["BAD_USER_INPUT"]);
      expect(res.errors[0].message).toMatch(/one root field/);
    });

    it("REST and GraphQL are different requests: the same key on the other face is a 409", async () => {
      const key = `faces-${uuid()}`;
      const name = `Faces ${uuid()}`;
      await send(orgs.a.enterprise, "post", { path: "/projects", body: { name } }, key).expect(201);
      expect((await gql(CREATE, { name, k: key })).errors[0].extensions.code).toBe("CONFLICT");
    });
  });

  describe("MCP: every tool that changes state takes idempotency_key", () => {
    const connect = async (org: Org) => {
      const client = new Client({ name: "idempotency-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: `Bearer ${org.key}` } } }));
      clients.push(client);
      return client;
    };

    it("lists idempotency_key on the tools that are not read-only, and only there", async () => {
      const { tools } = await (await connect(orgs.a.enterprise)).listTools();
      const keyed = tools.filter((tool) => "idempotency_key" in ((tool.inputSchema.properties ?? {}) as object)).map((tool) => tool.name);
      expect(keyed.sort()).toEqual(
        tools
          .filter((tool) => tool.annotations?.readOnlyHint === false)
          .map((tool) => tool.name)
          .sort(),
      );
      expect(keyed).toEqual(expect.arrayContaining(["create_project", "unlock", "create_webhook", "file_bid"]));
    });

    it("create_project: the same key answers the first result; another request is a conflict result", async () => {
      const client = await connect(orgs.a.enterprise);
      const key = `mcp-${uuid()}`;
      const name = `MCP ${uuid()}`;
      const call = (args: Record<string, unknown>) =>
        client.callTool({ name: "create_project", arguments: { ...args, idempotency_key: key } });
      const first = (await call({ name })) as any;
      expect(first.isError).toBeFalsy();
      expect(((await call({ name })) as any).content).toEqual(first.content);
      const other = (await call({ name: "Another" })) as any;
      expect([other.isError, JSON.parse(other.content[0].text).error]).toEqual([true, "conflict"]);
      expect(ran(orgs.a.enterprise, key)).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM projects WHERE name = $1`, [name])).toBe(1);
    });
  });
});

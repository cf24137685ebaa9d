/**
 * E-mail templates and outreach e-mails (docs/outreach.md; spec "Authentication" 4; contract sections 2, 3, 7)
 * through REST, GraphQL and MCP on a real database: every organization's own built-in templates (written by
 * createOrganization, and by the migration for organizations older than it), the rules in their order (plan,
 * listed contact, unlocked contact, the organization's template), the facts the e-mail is grounded in, and the
 * two providers: the template provider (default, no language model) and an OpenAI-compatible one (a local
 * HTTP server standing in for the API), with the fallback when it fails.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { packageRoot } from "../../src/db/package-root";
import { BUILTIN_TEMPLATES } from "../../src/features/account/email-templates/email-template.builtins";
import { PLACEHOLDERS } from "../../src/features/account/email-templates/email-template.placeholders";
import { useOutreachTextGenerator } from "../../src/features/research/outreach/outreach.service";
import { OpenAiCompatibleTextGenerator } from "../../src/features/research/text-generation/openai.provider";
import { placeholdersOf } from "../../src/features/research/text-generation/template.provider";
import { textGeneratorFromEnv } from "../../src/features/research/text-generation/text-generation";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertUnlock } from "../support/block-factories";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { insertArticle } from "../news/support/articles";

const MIGRATION = path.join(packageRoot, "prisma/migrations/20261215000000_outreach_templates/migration.sql");
const builtinsSql = (): string => {
  const sql = fs.readFileSync(MIGRATION, "utf8");
  return sql.slice(sql.indexOf("-- BUILTINS BEGIN"), sql.indexOf("-- BUILTINS END"));
};

describe("email templates and outreach e-mails", () => {
  let t: TestApp;
  let district: string;
  let school: string;
  /** Listed contacts: Ada (district level, unlocked by enterprise and internal), Sam (school, unlocked by enterprise), Lou (locked). */
  const c = {} as Record<"ada" | "sam" | "lou" | "hidden", string>;
  let otherDistrict: string;

  const templates = async (plan: PlanKey) => (await t.get("/api/v1/org/email-templates", plan).expect(200)).body.data as any[];
  const outreach = (contactId: string, body: Record<string, unknown> = {}, plan: PlanKey = "enterprise") =>
    t.post(`/api/v1/contacts/${contactId}/outreach-email`, body, plan);

  beforeAll(async () => {
    t = await createTestApp();
    district = await insertDistrict(t.db, {
      name: "Prairie Creek Public Schools",
      state: "NE",
      status: "completed",
      physical_city: "Kearney",
      student_count: 12345,
    });
    school = await insertSchool(t.db, {
      name: "Bluestem Middle School",
      district_id: district,
      state: "NE",
      status: "completed",
      student_count: 640,
    });
    otherDistrict = await insertDistrict(t.db, { name: "Unlisted District", state: "NE", status: "pending" });
    const contact = (values: Record<string, unknown>) =>
      insert(t.db, "contacts", { data_source: "test", source: "test", state: "NE", ...values });
    c.ada = await contact({
      name: "Dr. Ada Lovelace",
      title: "Chief Technology Officer",
      district_id: district,
      is_district_contact: true,
    });
    c.sam = await contact({ name: "Sam Carter", title: null, district_id: district, school_id: school });
    c.lou = await contact({ name: "Lou Reed", title: "Principal", district_id: district, school_id: school });
    c.hidden = await contact({ name: "Never Listed", title: "Clerk", district_id: otherDistrict, is_district_contact: true });
    for (const plan of ["free", "pro", "enterprise", "internal"] as const) await insertUnlock(t.db, t.orgs[plan], "contact", c.ada);
    await insertUnlock(t.db, t.orgs.enterprise, "contact", c.sam);
    await insertUnlock(t.db, t.orgs.enterprise, "contact", c.hidden);
    await insertUnlock(t.db, t.orgs.enterprise, "district", district);
  });
  afterAll(async () => {
    useOutreachTextGenerator(undefined);
    await t?.close();
  });

  describe("GET /org/email-templates", () => {
    it("lists the organization's own copies of the built-in templates, in their order, with every documented placeholder only", async () => {
      const listed = await templates("enterprise");
      expect(listed).toEqual(
        BUILTIN_TEMPLATES.map((b) => ({
          id: expect.any(String),
          name: b.name,
          purpose: b.purpose,
          subject: b.subject,
          body: b.body,
          builtin: true,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        })),
      );
      expect(listed.map((x) => x.purpose)).toEqual(["introduction", "bid_follow_up", "congratulations", "check_in"]);
      const documented = new Set(PLACEHOLDERS.map((p) => p.name));
      for (const template of listed)
        for (const name of placeholdersOf(`${template.subject}\n${template.body}`)) expect(documented).toContain(name);
    });

    it("each organization has its own rows: no id is shared, and the free plan lists its templates too", async () => {
      const ids = await Promise.all(
        (["free", "pro", "enterprise", "internal"] as const).map(async (plan) => (await templates(plan)).map((x) => x.id)),
      );
      expect(new Set(ids.flat()).size).toBe(4 * BUILTIN_TEMPLATES.length);
      const rows = await t.db.query<{ organization_id: string; n: number }>(
        `SELECT organization_id::text, count(*)::int AS n FROM email_templates WHERE organization_id = ANY($1::uuid[]) GROUP BY 1`,
        [Object.values(t.orgs)],
      );
      expect(rows.map((r) => r.n)).toEqual([4, 4, 4, 4].map(() => BUILTIN_TEMPLATES.length));
    });

    it("an unknown query parameter is a 400; no key is a 401", async () => {
      const res = await t.get("/api/v1/org/email-templates?purpose=introduction").expect(400);
      expect(res.body).toEqual({ error: "bad_request", message: expect.stringMatching(/purpose/), statusCode: 400 });
      await t.http.get("/api/v1/org/email-templates").expect(401);
    });

    it("GraphQL emailTemplates answers the same rows", async () => {
      const { data, errors } = await t.graphql("{ emailTemplates { id name purpose builtin } }", {}, "pro");
      expect(errors).toBeUndefined();
      expect(data.emailTemplates).toEqual(
        (await templates("pro")).map(({ id, name, purpose, builtin }) => ({ id, name, purpose, builtin })),
      );
    });

    it("the migration gives an organization created before it the same built-ins, once (its INSERT is the builtins file's)", async () => {
      const [old] = await t.db.query<{ id: string }>(
        `INSERT INTO organizations (name, plan, entitlements) VALUES ('Older org', 'enterprise', '{}') RETURNING id::text`,
      );
      await t.db.exec(builtinsSql());
      await t.db.exec(builtinsSql()); // ON CONFLICT: a second run adds nothing
      const rows = await t.db.query<Record<string, string>>(
        `SELECT builtin_key, name, purpose, subject, body FROM email_templates WHERE organization_id = $1::uuid ORDER BY created_at, id`,
        [old.id],
      );
      expect(rows).toEqual(
        BUILTIN_TEMPLATES.map((b) => ({ builtin_key: b.key, name: b.name, purpose: b.purpose, subject: b.subject, body: b.body })),
      );
      // The organizations that had them already got no second copy.
      expect((await templates("enterprise")).length).toBe(BUILTIN_TEMPLATES.length);
    });
  });

  describe("POST /contacts/{id}/outreach-email: the rules in their order", () => {
    it("free and pro plans: 403 forbidden naming the plan rule (before anything else: even for an unknown contact)", async () => {
      for (const plan of ["free", "pro"] as const) {
        const res = await outreach(c.ada, {}, plan).expect(403);
        expect(res.body).toEqual({
          error: "forbidden",
          message: expect.stringMatching(/enterprise and internal plans only/),
          statusCode: 403,
        });
        await outreach("00000000-0000-4000-8000-000000000000", {}, plan).expect(403);
      }
    });

    it("an unknown contact and a contact that is not listed are 404 not_found", async () => {
      const res = await outreach("00000000-0000-4000-8000-000000000000").expect(404);
      expect(res.body).toEqual({ error: "not_found", message: expect.stringMatching(/contact/), statusCode: 404 });
      await outreach(c.hidden).expect(404); // unlocked once, but its district was never extracted: not listed
    });

    it("a listed contact the organization has not unlocked is 403 forbidden saying to unlock it first", async () => {
      const res = await outreach(c.lou).expect(403);
      expect(res.body).toEqual({
        error: "forbidden",
        message: expect.stringMatching(/must be unlocked first.*POST \/api\/v1\/unlock/),
        statusCode: 403,
      });
      // Internal unlocked Ada only: Sam is locked for it.
      await outreach(c.sam, {}, "internal").expect(403);
    });

    it("template_id of another organization, or an unknown one, is 404; a malformed one or an unknown body property is 400", async () => {
      const internalIntro = (await templates("internal"))[0].id;
      const res = await outreach(c.ada, { template_id: internalIntro }).expect(404);
      expect(res.body).toEqual({ error: "not_found", message: expect.stringMatching(/email template/), statusCode: 404 });
      await outreach(c.ada, { template_id: "00000000-0000-4000-8000-000000000000" }).expect(404);
      const bad = await outreach(c.ada, { template_id: "intro" }).expect(400);
      expect(bad.body).toEqual({ error: "bad_request", message: expect.stringMatching(/template_id/), statusCode: 400 });
      const unknown = await outreach(c.ada, { template: "x" }).expect(400);
      expect(unknown.body).toEqual({ error: "bad_request", message: expect.stringMatching(/template/), statusCode: 400 });
      await outreach(c.ada, { template_id: 5 }).expect(400);
    });

    it("enterprise and internal: 200 with the default built-in introduction, filled without a language model", async () => {
      for (const plan of ["enterprise", "internal"] as const) {
        const intro = (await templates(plan)).find((x) => x.purpose === "introduction");
        const res = await outreach(c.ada, {}, plan).expect(200);
        expect(res.body).toEqual({
          subject: `Prairie Creek Public Schools and Test ${plan}`,
          body: expect.any(String),
          template_id: intro.id,
          generator: "template",
          model: null,
          language_model_used: false,
          missing_placeholders: expect.any(Array),
          note: expect.stringMatching(/no language model was used/),
        });
      }
      // No body at all is the same as {}.
      const bare = await t.http
        .post(`/api/v1/contacts/${c.ada}/outreach-email`)
        .set("Authorization", `Bearer ${t.keys.enterprise}`)
        .expect(200);
      expect(bare.body).toEqual((await outreach(c.ada).expect(200)).body);
    });
  });

  describe("the e-mail's facts", () => {
    it("names the contact (first name, title) and the entity (name, state, enrollment); a missing signal leaves its line out", async () => {
      const { body } = (await outreach(c.ada).expect(200)).body;
      expect(body).toMatch(/^Hi Ada,/); // "Dr." is not a first name
      expect(body).toContain("As Chief Technology Officer at Prairie Creek Public Schools");
      expect(body).toContain("districts in NE");
      expect(body).toContain("With 12,345 students to serve");
      expect(body).toMatch(/Test enterprise$/);
      expect(body).not.toMatch(/\{\{|I noticed a recent update/);
      expect(body).not.toMatch(/\n\n\n/);
      const res = await outreach(c.ada).expect(200);
      expect(res.body.missing_placeholders).toEqual(["signal.summary", "opportunity.why_now"]); // in the order the template uses them
    });

    it("includes the latest signal other than noise of the contact's entity, and the organization's own latest opportunity", async () => {
      await insertArticle(
        t,
        { title: "Board approves devices", published_at: "2026-10-02T00:00:00.000Z", ingested_at: "2026-10-02T00:00:00.000Z" },
        [
          {
            district_id: district,
            signal_type: "board_decision",
            summary: "The board approved a 1:1 device program for grades 6-12.",
            signal_date: "2026-10-01",
          },
          { district_id: district, signal_type: "noise", summary: "A bake sale raised money.", signal_date: "2026-10-20" },
        ],
      );
      await insertArticle(t, { title: "Older news", published_at: "2026-01-02T00:00:00.000Z", ingested_at: "2026-01-02T00:00:00.000Z" }, [
        { district_id: district, signal_type: "leadership_change", summary: "An older signal.", signal_date: "2026-01-01" },
      ]);
      const project = (await t.post("/api/v1/projects", { name: "Outreach" }).expect(201)).body.data.id;
      const opportunity = (org: string, project: string, why: string, created: string) =>
        insert(t.db, "opportunities", {
          organization_id: org,
          project_id: project,
          entity_type: "district",
          district_id: district,
          title: `Opportunity ${why}`,
          dedupe_key: `test:${why}`,
          why_now: why,
          data_source: "test",
          created_at: new Date(created),
        });
      await opportunity(t.orgs.enterprise, project, "Devices arrive in January; training is unplanned.", "2026-11-01T00:00:00Z");
      await opportunity(t.orgs.enterprise, project, "An older reason.", "2026-10-01T00:00:00Z");
      const internalProject = (await t.post("/api/v1/projects", { name: "Internal outreach" }, "internal").expect(201)).body.data.id;
      await opportunity(t.orgs.internal, internalProject, "Internal's own reason.", "2026-11-20T00:00:00Z");

      const res = await outreach(c.ada).expect(200);
      expect(res.body.body).toContain("I noticed a recent update: The board approved a 1:1 device program for grades 6-12.");
      expect(res.body.body).toContain("Devices arrive in January; training is unplanned.");
      expect(res.body.body).not.toMatch(/bake sale|Internal's own reason|An older/);
      expect(res.body.missing_placeholders).toEqual([]);
      // Internal sees its own opportunity, never enterprise's.
      const internal = await outreach(c.ada, {}, "internal").expect(200);
      expect(internal.body.body).toContain("Internal's own reason.");
      expect(internal.body.body).not.toContain("training is unplanned");
    });

    it("a school contact is grounded in the school: its name, no title line, the school's own signals only", async () => {
      const res = await outreach(c.sam).expect(200);
      expect(res.body.subject).toBe("Bluestem Middle School and Test enterprise");
      expect(res.body.body).toMatch(/^Hi Sam,/);
      expect(res.body.body).not.toMatch(/As .* at Bluestem/); // no title: the line is left out
      expect(res.body.body).toContain("With 640 students to serve");
      expect(res.body.body).not.toContain("device program"); // the district's signal, not the school's
      expect(res.body.missing_placeholders).toEqual(expect.arrayContaining(["contact.title", "signal.summary"]));
    });

    it("template_id picks one of the organization's templates: the bid follow-up names the open bid while the district is unlocked", async () => {
      const bidId = await insert(t.db, "bids", {
        entity_type: "district",
        district_id: district,
        title: "Instructional Technology Services RFP",
        status: "open",
        posted_on: "2026-11-01",
        deadline_at: new Date("2030-12-01T17:00:00Z"),
        data_source: "test",
      });
      const followUp = (await templates("enterprise")).find((x) => x.purpose === "bid_follow_up");
      const res = await outreach(c.ada, { template_id: followUp.id }).expect(200);
      expect(res.body.template_id).toBe(followUp.id);
      expect(res.body.subject).toBe("Prairie Creek Public Schools solicitation: a question from Test enterprise");
      expect(res.body.body).toContain(
        'the open solicitation "Instructional Technology Services RFP" posted by Prairie Creek Public Schools',
      );
      expect(res.body.body).toContain("Responses are due December 1, 2030");
      // A bid the organization marked not useful is not followed up.
      await t.http
        .put(`/api/v1/bids/${bidId}/filing`)
        .set("Authorization", `Bearer ${t.keys.enterprise}`)
        .send({ action: "not_useful", reason_code: "too_small" })
        .expect(200);
      const after = await outreach(c.ada, { template_id: followUp.id }).expect(200);
      expect(after.body.body).not.toContain("Instructional Technology Services RFP");
      expect(after.body.missing_placeholders).toEqual(expect.arrayContaining(["bid.deadline", "bid.title"]));
      // Internal has not unlocked the district: bids are gated, so none is named.
      const internalFollowUp = (await templates("internal")).find((x) => x.purpose === "bid_follow_up");
      const internal = await outreach(c.ada, { template_id: internalFollowUp.id }, "internal").expect(200);
      expect(internal.body.body).not.toContain("Instructional Technology Services RFP");
    });

    it("is deterministic with the template provider: the same request gives the same e-mail", async () => {
      const a = (await outreach(c.ada).expect(200)).body;
      const b = (await outreach(c.ada).expect(200)).body;
      expect(b).toEqual(a);
    });
  });

  describe("GraphQL outreachEmail", () => {
    const MUTATION = `mutation($contactId: UUID!, $templateId: UUID) {
      outreachEmail(contactId: $contactId, templateId: $templateId) { subject body templateId generator languageModelUsed note }
    }`;
    it("answers as REST does, and carries the same error codes", async () => {
      const { data, errors } = await t.graphql(MUTATION, { contactId: c.ada });
      expect(errors).toBeUndefined();
      const rest = (await outreach(c.ada).expect(200)).body;
      expect(data.outreachEmail).toEqual({
        subject: rest.subject,
        body: rest.body,
        templateId: rest.template_id,
        generator: "template",
        languageModelUsed: false,
        note: rest.note,
      });
      const code = async (variables: Record<string, unknown>, plan: PlanKey) =>
        (await t.graphql(MUTATION, variables, plan)).errors?.[0]?.extensions?.code;
      expect(await code({ contactId: c.ada }, "pro")).toBe("FORBIDDEN");
      expect(await code({ contactId: c.lou }, "enterprise")).toBe("FORBIDDEN");
      expect(await code({ contactId: "00000000-0000-4000-8000-000000000000" }, "enterprise")).toBe("NOT_FOUND");
      expect(await code({ contactId: c.ada, templateId: (await templates("pro"))[0].id }, "enterprise")).toBe("NOT_FOUND");
    });
  });

  describe("the OpenAI-compatible provider", () => {
    let server: http.Server;
    let baseUrl: string;
    const received: any[] = [];
    let fail = false;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let raw = "";
        req.on("data", (chunk) => (raw += chunk));
        req.on("end", () => {
          received.push({ url: req.url, body: JSON.parse(raw) });
          if (fail) return void res.writeHead(503).end("down");
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              model: "stand-in-model",
              choices: [
                {
                  message: { content: "Subject: A note for Ada\n\nDear Ada,\n\nCongratulations on the device program.\n\nTest enterprise" },
                },
              ],
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    });
    afterAll(async () => {
      useOutreachTextGenerator(undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("TEXT_GENERATION_BASE_URL selects it; the default is the extractive provider (which hands templates to the template provider)", () => {
      expect(
        textGeneratorFromEnv({ TEXT_GENERATION_BASE_URL: baseUrl, TEXT_GENERATION_MODEL: "m", TEXT_GENERATION_TIMEOUT_MS: 1000 }).name,
      ).toBe("openai-compatible");
      expect(textGeneratorFromEnv({ TEXT_GENERATION_MODEL: "m", TEXT_GENERATION_TIMEOUT_MS: 1000 }).name).toBe("extractive");
    });

    it("writes subject and body from the template and the same facts, and says a language model wrote it", async () => {
      useOutreachTextGenerator(new OpenAiCompatibleTextGenerator({ baseUrl, model: "stand-in-model", timeoutMs: 5000 }));
      const congratulations = (await templates("enterprise")).find((x) => x.purpose === "congratulations");
      const res = await outreach(c.ada, { template_id: congratulations.id }).expect(200);
      expect(res.body).toEqual({
        subject: "A note for Ada",
        body: "Dear Ada,\n\nCongratulations on the device program.\n\nTest enterprise",
        template_id: congratulations.id,
        generator: "openai-compatible",
        model: "stand-in-model",
        language_model_used: true,
        missing_placeholders: expect.any(Array),
        note: expect.stringMatching(/Written by a language model \(openai-compatible, stand-in-model\)/),
      });
      const sent = received.at(-1);
      expect(sent.url).toBe("/v1/chat/completions");
      const [system, user] = sent.body.messages.map((m: { content: string }) => m.content);
      expect(system).toMatch(/outreach e-mail/);
      expect(system).toMatch(/'Subject: '/);
      expect(user).toContain("contact.name: Dr. Ada Lovelace");
      expect(user).toContain("contact.title: Chief Technology Officer");
      expect(user).toContain("entity.name: Prairie Creek Public Schools");
      expect(user).toContain("signal.summary: The board approved a 1:1 device program for grades 6-12.");
      expect(user).toContain("opportunity.why_now: Devices arrive in January; training is unplanned.");
      expect(user).toContain(congratulations.body);
      expect(user).not.toContain("Internal's own reason");
    });

    it("when the provider fails, the template is filled instead and the answer says no language model was used", async () => {
      fail = true;
      try {
        const res = await outreach(c.ada).expect(200);
        expect(res.body).toMatchObject({ generator: "template", model: null, language_model_used: false });
        expect(res.body.note).toMatch(/provider failed.*no language model was used/);
        expect(res.body.body).toMatch(/^Hi Ada,/);
      } finally {
        fail = false;
      }
    });
  });

  describe("MCP tools", () => {
    let client: Client;
    beforeAll(async () => {
      useOutreachTextGenerator(undefined);
      const port = (t.server.address() as { port: number }).port;
      client = new Client({ name: "edmarket-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${t.keys.enterprise}` } },
        }),
      );
    });
    afterAll(() => client?.close());
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };

    it("list_email_templates and outreach_email answer as REST does", async () => {
      const listed = JSON.parse((await call("list_email_templates", {})).content[0].text);
      expect(listed).toEqual({ data: await templates("enterprise") });
      const email = JSON.parse((await call("outreach_email", { contact_id: c.ada, template_id: listed.data[3].id })).content[0].text);
      expect(email).toEqual((await outreach(c.ada, { template_id: listed.data[3].id }).expect(200)).body);
      const locked = await call("outreach_email", { contact_id: c.lou });
      expect(locked.isError).toBe(true);
      expect(JSON.parse(locked.content[0].text)).toMatchObject({ error: "forbidden", statusCode: 403 });
    });
  });
});

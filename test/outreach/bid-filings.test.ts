/**
 * Bid filings (PUT /bids/{id}/filing; contract sections 2, 4 and 7; docs/outreach.md) through REST, GraphQL and
 * MCP on a real database: the three actions, the reason rules (400 naming the property), idempotent re-filing and
 * replacement, the gate (a bid of a district or school the organization has not unlocked is 404 like an unknown
 * one), and the filing in bids[].filing for the filing organization only. And the route in the OpenAPI document.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type PlanKey, type TestApp } from "../support/app";
import { insertIntelligence, insertUnlock } from "../support/block-factories";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";

describe("bid filings", () => {
  let t: TestApp;
  let district: string;
  let school: string;
  let lockedDistrict: string;
  const bids = {} as Record<"open" | "lapsed" | "school" | "locked", string>;

  const file = (bidId: string, body: unknown, plan: PlanKey = "enterprise") =>
    t.http
      .put(`/api/v1/bids/${bidId}/filing`)
      .set("Authorization", `Bearer ${t.keys[plan]}`)
      .send(body as object);
  const filingsOf = async (districtId: string, plan: PlanKey) => {
    const res = await t.get(`/api/v1/districts/${districtId}`, plan).expect(200);
    return Object.fromEntries((res.body.data.bids as { id: string; filing: unknown }[]).map((b) => [b.id, b.filing]));
  };
  const rows = (bidId: string) =>
    t.db.query(`SELECT organization_id::text, action FROM bid_filings WHERE bid_id = $1::uuid ORDER BY 1`, [bidId]);

  beforeAll(async () => {
    t = await createTestApp();
    district = await insertDistrict(t.db, { name: "Filing District", state: "KS", status: "completed" });
    school = await insertSchool(t.db, { name: "Filing School", district_id: district, state: "KS", status: "completed" });
    lockedDistrict = await insertDistrict(t.db, { name: "Locked District", state: "KS", status: "completed" });
    const d = await insertIntelligence(t.db, { district_id: district }, "d");
    const s = await insertIntelligence(t.db, { school_id: school }, "s");
    const l = await insertIntelligence(t.db, { district_id: lockedDistrict }, "l");
    Object.assign(bids, { open: d.openBidId, lapsed: d.lapsedBidId, school: s.openBidId, locked: l.openBidId });
    for (const plan of ["enterprise", "pro", "free"] as const) await insertUnlock(t.db, t.orgs[plan], "district", district);
    await insertUnlock(t.db, t.orgs.enterprise, "school", school);
    await insertUnlock(t.db, t.orgs.internal, "district", lockedDistrict, "unlock_pending"); // pending: still locked
  });
  afterAll(() => t?.close());

  it("save: 200 { data: { bid_id, action, reason_code, reason_note, filed_at } }, shown in the district's bids[].filing", async () => {
    const res = await file(bids.open, { action: "save" }).expect(200);
    expect(res.body).toEqual({
      data: {
        bid_id: bids.open,
        action: "save",
        reason_code: null,
        reason_note: null,
        filed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    const filings = await filingsOf(district, "enterprise");
    expect(filings[bids.open]).toEqual({ action: "save", reason_code: null, reason_note: null, filed_at: res.body.data.filed_at });
    expect(filings[bids.lapsed]).toBeNull();
  });

  it("the filing is the filing organization's only: another organization that unlocked the district sees null", async () => {
    expect((await filingsOf(district, "pro"))[bids.open]).toBeNull();
    expect((await filingsOf(district, "free"))[bids.open]).toBeNull();
  });

  it("filing the same way again is idempotent (same filed_at, one row); a different action replaces it", async () => {
    const first = (await file(bids.lapsed, { action: "set_aside" }).expect(200)).body.data;
    expect(first).toMatchObject({ action: "set_aside", reason_code: null, reason_note: null });
    const again = (await file(bids.lapsed, { action: "set_aside" }).expect(200)).body.data;
    expect(again).toEqual(first);
    const replaced = (
      await file(bids.lapsed, { action: "not_useful", reason_code: "deadline_too_soon", reason_note: "  Due in two days.  " }).expect(200)
    ).body.data;
    expect(replaced).toEqual({
      bid_id: bids.lapsed,
      action: "not_useful",
      reason_code: "deadline_too_soon",
      reason_note: "Due in two days.",
      filed_at: expect.any(String),
    });
    expect(Date.parse(replaced.filed_at)).toBeGreaterThanOrEqual(Date.parse(first.filed_at));
    expect(await rows(bids.lapsed)).toEqual([{ organization_id: t.orgs.enterprise, action: "not_useful" }]);
    // Back to save: the reason goes with the old filing.
    const saved = (await file(bids.lapsed, { action: "save" }).expect(200)).body.data;
    expect(saved).toMatchObject({ action: "save", reason_code: null, reason_note: null });
    expect((await filingsOf(district, "enterprise"))[bids.lapsed]).toMatchObject({ action: "save", reason_code: null });
  });

  it("each organization files on its own: pro's filing of the same bid is a second row, enterprise's is unchanged", async () => {
    await file(bids.open, { action: "not_useful", reason_code: "wrong_region" }, "pro").expect(200);
    expect((await filingsOf(district, "pro"))[bids.open]).toMatchObject({ action: "not_useful", reason_code: "wrong_region" });
    expect((await filingsOf(district, "enterprise"))[bids.open]).toMatchObject({ action: "save" });
    expect((await rows(bids.open)).length).toBe(2);
  });

  it("a school's bid, with the school unlocked", async () => {
    const res = await file(bids.school, { action: "not_useful", reason_code: "other", reason_note: "We sell to districts only." }).expect(
      200,
    );
    expect(res.body.data).toMatchObject({ bid_id: bids.school, action: "not_useful", reason_code: "other" });
    const schoolBids = (await t.get(`/api/v1/schools/${school}`).expect(200)).body.data.bids;
    expect(schoolBids.find((b: { id: string }) => b.id === bids.school).filing).toMatchObject({
      reason_note: "We sell to districts only.",
    });
  });

  it("a bid of a district the organization has not unlocked (none, or pending) is 404 like an unknown bid, and nothing is written", async () => {
    for (const [bid, plan] of [
      [bids.locked, "enterprise"],
      [bids.locked, "internal"], // pending unlock
      [bids.school, "pro"], // pro unlocked the district, not the school
      ["00000000-0000-4000-8000-000000000000", "enterprise"],
    ] as const) {
      const res = await file(bid, { action: "save" }, plan).expect(404);
      expect(res.body).toEqual({ error: "not_found", message: `bid ${bid} not found`, statusCode: 404 });
    }
    expect(await rows(bids.locked)).toEqual([]);
  });

  it("400s: reason with save or set_aside names it; bad action and reason_code list the allowed values; long note; unknown property", async () => {
    const bad = async (body: unknown, pattern: RegExp) => {
      const res = await file(bids.open, body).expect(400);
      expect(res.body).toEqual({ error: "bad_request", message: expect.stringMatching(pattern), statusCode: 400 });
    };
    await bad({ action: "save", reason_code: "too_small" }, /reason_code is accepted only with action not_useful/);
    await bad({ action: "set_aside", reason_note: "later" }, /reason_note is accepted only with action not_useful/);
    await bad(
      { action: "save", reason_code: "too_small", reason_note: "x" },
      /reason_code and reason_note are accepted only with action not_useful/,
    );
    await bad({ action: "archive" }, /action.*save, set_aside, not_useful/);
    await bad(
      { action: "not_useful", reason_code: "too_expensive" },
      /reason_code.*not_relevant, wrong_region, too_small, too_large, already_served, deadline_too_soon, other/,
    );
    await bad({ action: "not_useful", reason_note: "x".repeat(1001) }, /reason_note must be at most 1000 characters/);
    await bad({}, /action/);
    await bad({ action: "save", note: "x" }, /note/);
    await file("not-a-uuid", { action: "save" }).expect(400);
    // A note of exactly 1,000 characters is accepted.
    await file(bids.open, { action: "not_useful", reason_note: "y".repeat(1000) }).expect(200);
    await file(bids.open, { action: "save" }).expect(200);
  });

  it("PUT only: another method on the path is 405 with Allow", async () => {
    const res = await t.post(`/api/v1/bids/${bids.open}/filing`, { action: "save" }).expect(405);
    expect(res.headers.allow).toMatch(/PUT/);
  });

  it("GraphQL fileBid files the same way and carries the same error codes", async () => {
    const MUTATION = `mutation($bidId: UUID!, $input: BidFilingInput!) { fileBid(bidId: $bidId, input: $input) { bidId action reasonCode reasonNote filedAt } }`;
    const { data, errors } = await t.graphql(MUTATION, { bidId: bids.open, input: { action: "not_useful", reasonCode: "already_served" } });
    expect(errors).toBeUndefined();
    expect(data.fileBid).toEqual({
      bidId: bids.open,
      action: "not_useful",
      reasonCode: "already_served",
      reasonNote: null,
      filedAt: expect.any(String),
    });
    const { data: read } = await t.graphql(`query($id: UUID!) { district(id: $id) { bids { id filing { action reasonCode } } } }`, {
      id: district,
    });
    expect(read.district.bids.find((b: { id: string }) => b.id === bids.open).filing).toEqual({
      action: "not_useful",
      reasonCode: "already_served",
    });
    const code = async (variables: Record<string, unknown>) => (await t.graphql(MUTATION, variables)).errors?.[0]?.extensions?.code;
    expect(await code({ bidId: bids.locked, input: { action: "save" } })).toBe("NOT_FOUND");
    expect(await code({ bidId: bids.open, input: { action: "save", reasonNote: "x" } })).toBe("BAD_USER_INPUT");
  });

  it("MCP file_bid answers as REST does", async () => {
    const port = (t.server.address() as { port: number }).port;
    const client = new Client({ name: "edmarket-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.enterprise}` } },
      }),
    );
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: "file_bid", arguments: args })) as { isError?: boolean; content: { text: string }[] };
      const ok = JSON.parse((await call({ bid_id: bids.open, action: "set_aside" })).content[0].text);
      expect(ok).toEqual({
        data: { bid_id: bids.open, action: "set_aside", reason_code: null, reason_note: null, filed_at: expect.any(String) },
      });
      expect((await filingsOf(district, "enterprise"))[bids.open]).toMatchObject({ action: "set_aside" });
      const missing = await call({ bid_id: bids.locked, action: "save" });
      expect(missing.isError).toBe(true);
      expect(JSON.parse(missing.content[0].text)).toMatchObject({ error: "not_found", statusCode: 404 });
      const bad = await call({ bid_id: bids.open, action: "keep" });
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.content[0].text).message).toMatch(/action must be one of save, set_aside, not_useful/);
    } finally {
      await client.close();
    }
  });

  it("the OpenAPI document has the PUT route with its body, and the outreach and template routes", async () => {
    const doc = (await t.http.get("/api/v1/openapi.json").expect(200)).body;
    const put = doc.paths["/bids/{id}/filing"].put;
    expect(put).toBeDefined();
    expect(put.parameters.map((p: { name: string; in: string }) => [p.in, p.name])).toEqual([
      ["path", "id"],
      ["header", "Idempotency-Key"],
    ]);
    const body = JSON.stringify(put.requestBody);
    expect(body).toMatch(/BidFilingInput|reason_code/);
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(["200", "400", "404"]));
    expect(doc.paths["/contacts/{id}/outreach-email"].post.responses["403"]).toBeDefined();
    expect(doc.paths["/org/email-templates"].get).toBeDefined();
  });
});

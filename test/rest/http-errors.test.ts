import { createApiKey, revokeApiKeys } from "../../src/features/account/organizations/api-keys.service";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { countStatements, measureStatements } from "../support/statements";

describe("HTTP error model, authentication and limits", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await insertDistrict(t.db);
  });
  afterAll(() => t.close());

  const expectGeneric = (body: Record<string, unknown>, status: number, error: string) => {
    expect(body).toMatchObject({ error, statusCode: status });
    expect(typeof body.message).toBe("string");
  };

  it("401 for a missing, malformed, unknown or revoked key, on REST and GraphQL", async () => {
    const missing = await t.http.get("/api/v1/districts").expect(401);
    expectGeneric(missing.body, 401, "unauthorized");
    expect(missing.body.message).toMatch(/missing/);
    const malformed = await t.http.get("/api/v1/districts").set("Authorization", "Token abc").expect(401);
    expect(malformed.body.message).toMatch(/malformed/);
    const unknown = await t.http
      .get("/api/v1/districts")
      .set("Authorization", `Bearer sk_live_${"x".repeat(43)}`)
      .expect(401);
    expect(unknown.body.message).toMatch(/unknown or revoked/);
    const { apiKey } = await createApiKey(t.db, t.orgs.pro);
    await t.http.get("/api/v1/districts").set("Authorization", `Bearer ${apiKey}`).expect(200);
    expect(await revokeApiKeys(t.db, apiKey.slice(0, 20))).toBe(1);
    const revoked = await t.http.get("/api/v1/districts").set("Authorization", `Bearer ${apiKey}`).expect(401);
    expectGeneric(revoked.body, 401, "unauthorized");
    const gql = await t.http.post("/graphql").send({ query: "{ districts { pagination { total } } }" }).expect(401);
    expectGeneric(gql.body, 401, "unauthorized");
  });

  it("every response carries X-Request-Id, echoing a sane inbound one", async () => {
    const own = await t.get("/api/v1/districts").set("X-Request-Id", "abc-123").expect(200);
    expect(own.headers["x-request-id"]).toBe("abc-123");
    const generated = await t.http.get("/api/v1/nope").expect(401);
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const health = await t.http.get("/healthz").expect(200);
    expect(health.headers["x-request-id"]).toBeTruthy();
  });

  it("404 with the generic body for unknown paths", async () => {
    const res = await t.get("/api/v1/no-such-thing").expect(404);
    expectGeneric(res.body, 404, "not_found");
    const outside = await t.http.get("/nowhere").expect(404);
    expectGeneric(outside.body, 404, "not_found");
    // A 10,000-character path is named clipped, not sent back whole (issue 20 point 13).
    const long = await t.http.get(`/${"p".repeat(10_000)}`).expect(404);
    expectGeneric(long.body, 404, "not_found");
    expect(long.body.message.length).toBeLessThan(200);
    expect(long.body.message).toContain("characters)");
  });

  it("400 for malformed JSON and for a body that is not an object; 413 above 1 MiB", async () => {
    const malformed = await t.http
      .post("/api/v1/districts")
      .set("Authorization", `Bearer ${t.keys.enterprise}`)
      .set("Content-Type", "application/json")
      .send('{"state": "NE",')
      .expect(400);
    expectGeneric(malformed.body, 400, "bad_request");
    expect(malformed.body.message).toMatch(/malformed JSON/);
    const array = await t.post("/api/v1/districts", ["NE"]).expect(400);
    expect(array.body.message).toMatch(/JSON object/);
    const huge = await t.post("/api/v1/districts", { search: "x".repeat(1024 * 1024 + 10) }).expect(413);
    expectGeneric(huge.body, 413, "payload_too_large");
  });

  it("accepts request lines up to 64 KiB (a 16,000-character parameter fits in a GET)", async () => {
    const res = await t.get(`/api/v1/districts?search=${"a".repeat(16_000)}`);
    expect(res.status).toBe(400); // too long for a search, but the request itself got through
    expect(res.body.message).toMatch(/search/);
  });

  it("health and readiness need no key", async () => {
    expect((await t.http.get("/healthz").expect(200)).body).toEqual({ status: "ok" });
    expect((await t.http.get("/readyz").expect(200)).body).toMatchObject({ status: "ready" });
  });

  it("GraphQL errors carry codes; unexpected errors are masked", async () => {
    const bad = await t.graphql(`{ districts(limit: 500) { pagination { total } } }`);
    expect(bad.errors?.[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(bad.errors?.[0].message).toMatch(/limit/);
    const invalid = await t.graphql(`{ districts { nope } }`);
    expect(invalid.errors?.[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("rejects queries over the depth and cost limits before running them", async () => {
    const { statements: deepStatements, result: deep } = await measureStatements(t.db, () =>
      t.graphql(`{ districts { data { annualStatistics { breakdowns { enrollmentGrade { trend { rows { category } } } } } } } }`),
    );
    expect(deep.errors).toBeUndefined();
    const heavy =
      "districts(limit: 200) { data { annualStatistics { breakdowns { enrollmentGrade { trend { rows { value } } } staffCategory { trend { rows { value } } } enrollmentRaceSex { trend { rows { value } } } ideaDisability { trend { rows { value } } } } } } }";
    const nested = `{ ${["a", "b", "c", "d"].map((alias) => `${alias}: ${heavy}`).join(" ")} }`;
    const costly = await t.graphql(nested);
    expect(costly.errors?.[0].message).toMatch(/query cost \d+ exceeds the limit/);
    // Only the API-key lookup ran (the key cache is off in tests): no resolver touched the database.
    expect(await countStatements(t.db, () => t.graphql(nested))).toBe(1);
    // Whereas the query within the limits did reach the database: more than the key lookup.
    expect(deepStatements).toBeGreaterThan(1);
  });
});

describe("GraphQL depth limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ GRAPHQL_MAX_DEPTH: "4" });
  });
  afterAll(() => t.close());

  it("refuses a query deeper than GRAPHQL_MAX_DEPTH", async () => {
    const res = await t.graphql(`{ districts { data { annualStatistics { latest { schoolYearStart } } } } }`);
    expect(res.errors?.[0].message).toMatch(/query depth 5 exceeds the limit of 4/);
    const ok = await t.graphql(`{ districts { data { annualStatistics { caveat } } } }`);
    expect(ok.errors).toBeUndefined();
  });
});

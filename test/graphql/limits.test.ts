/**
 * Issue 9: hostile GraphQL documents. Each reproduction of the probe is refused (or answered) without
 * stalling the process, with a coded client error, on both faces.
 */
import { parse, getOperationAST } from "graphql";
import { operationCost } from "../../src/graphql/limits";
import { getSchema } from "../../src/graphql/schema";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { measureStatements } from "../support/statements";

/** F0 spreads F1 twice, F1 spreads F2 twice ...: 2^levels expansions of the last fragment. */
function doublingFragments(levels: number, leaf: string): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1 ? `fragment F${i} on Query { ${leaf} }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
  );
  return `query { ...F0 } ${fragments.join(" ")}`;
}

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;

describe("cost analysis is linear in the document", () => {
  it("costs 60 doubling fragment levels (2^59 expansions) without expanding them", () => {
    const schema = getSchema();
    const document = parse(doublingFragments(60, "districts(limit: 1) { data { id } }"));
    // Before the fix this walk expanded every spread: it never returned. Now each fragment is costed once.
    const cost = operationCost(schema, document, getOperationAST(document)!);
    expect(cost).toBe(2 ** 59 * 2);
  });

  it("reads limits from variables, variable defaults and argument defaults", () => {
    const schema = getSchema();
    const doc = parse(`query($a: Int, $b: Int = 200) { districts(limit: $a) { data { id schools(limit: $b) { data { id } } } } }`);
    const op = getOperationAST(doc)!;
    const literal = parse(`{ districts(limit: 200) { data { id schools(limit: 200) { data { id } } } } }`);
    expect(operationCost(schema, doc, op, { a: 200 })).toBe(operationCost(schema, literal, getOperationAST(literal)!));
    expect(operationCost(schema, doc, op, { a: 200 })).toBe(40401);
    // $a unset: the argument's default (50); $b unset: its variable default (200).
    const fifty = parse(`{ districts(limit: 50) { data { id schools(limit: 200) { data { id } } } } }`);
    expect(operationCost(schema, doc, op, {})).toBe(operationCost(schema, fifty, getOperationAST(fifty)!));
  });
});

describe("GraphQL limits over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const districtId = await insertDistrict(t.db, { name: "Limits District", state: "NE" });
    await insertDistrictStats(t.db, districtId, 2023, { total_enrollment: 100 });
    await insertSchool(t.db, { name: "Limits School", state: "NE", district_id: districtId });
  });
  afterAll(() => t.close());

  const post = (body: unknown, plan: "free" | "enterprise" = "free") =>
    t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${t.keys[plan]}`)
      .send(body as object);

  it("refuses 25 levels of doubling fragments quickly and keeps serving", async () => {
    const res = await post({ query: doublingFragments(25, "districts(limit: 1) { data { id } }") });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/exceeds the limit of 30|query cost \d+ exceeds|fields once its fragments are expanded/);
    const health = await t.http.get("/healthz");
    expect(health.status).toBe(200);
  }, 120_000);

  it("counts a limit given by a variable like a literal one", async () => {
    // The probe's page (40,401 each) seven times: 282,807.
    const page = (a: string, b: string) => `districts(limit: ${a}) { data { id schools(limit: ${b}) { data { id } } } }`;
    const query = `query($a: Int, $b: Int) ${aliases(7, page("$a", "$b"))}`;
    const res = await post({ query, variables: { a: 200, b: 200 } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: "query cost 282807 exceeds the limit of 250000",
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(res.body.errors[0].extensions.http).toBeUndefined();
    const literal = await post({ query: aliases(7, page("200", "200")) });
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).toBe("query cost 282807 exceeds the limit of 250000");
    const small = await post({ query, variables: { a: 2, b: 2 } });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it("refuses more aliases than GRAPHQL_MAX_ALIASES, also through fragments", async () => {
    const over = await post({ query: aliases(31, "districts(limit: 1) { data { id } }") });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toBe("the operation uses 31 aliases; at most 30 are allowed");
    const metricAliases = await post({ query: aliases(200, "metrics(entityType: district) { metric }") });
    expect(metricAliases.body.errors[0].message).toBe("the operation uses 200 aliases; at most 30 are allowed");
    const viaFragment = await post({
      query: `{ ...A ...A } fragment A on Query { ${Array.from({ length: 16 }, (_, i) => `x${i}: metrics(entityType: school) { metric }`).join(" ")} }`,
    });
    expect(viaFragment.body.errors[0].message).toBe("the operation uses 32 aliases; at most 30 are allowed");
    const atLimit = await post({ query: aliases(30, "districts(limit: 1) { data { id } }") });
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.data)).toHaveLength(30);
  });

  it("refuses a 1 MiB document of 24,000 aliases at the parser's token limit", async () => {
    const query = aliases(24_000, "districts(limit: 1) { data { id } }");
    expect(query.length).toBeGreaterThan(900_000);
    const res = await post({ query });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/Document contains more that 10000 tokens/);
  });

  it("computes repeated identical root fields once", async () => {
    const { statements: oneCount, result: single } = await measureStatements(t.db, () =>
      post({ query: `{ a0: metrics(entityType: district) { metric years } }` }),
    );
    const { statements: manyCount, result: repeated } = await measureStatements(t.db, () =>
      post({ query: aliases(30, "metrics(entityType: district) { metric years }") }),
    );
    expect(single.body.errors).toBeUndefined();
    expect(repeated.body.errors).toBeUndefined();
    expect(repeated.body.data.a29).toEqual(single.body.data.a0);
    // Same statements as one alias (the API-key lookup plus the catalogue's per-table scans).
    expect(oneCount).toBe(3);
    expect(manyCount).toBe(3);
  });

  it("answers a subscription operation with a coded client error", async () => {
    const res = await post({ query: "subscription { districts { data { id } } }" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe("this API has no subscription operations");
    expect(res.body.errors[0].extensions.code).not.toBe("INTERNAL_SERVER_ERROR");
  });

  it("answers a persisted-query hash mismatch with a coded client error", async () => {
    const res = await post({
      query: "{ metrics(entityType: district) { metric } }",
      extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: "provided sha does not match query", extensions: { code: "BAD_REQUEST" } });
  });

  it("refuses a NUL character in a filter, literal or variable, without PostgreSQL's text", async () => {
    const literal = await post({ query: `{ districts(filter: { search: "a\\u0000b" }) { data { id } } }` });
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).toBe("text values may not contain the NUL character (U+0000)");
    const variable = await post({
      query: `query($f: DistrictFilter) { districts(filter: $f) { data { id } } }`,
      variables: { f: { county: "x\u0000y" } },
    });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0]).toMatchObject({
      message: "text values may not contain the NUL character (U+0000)",
      extensions: { code: "BAD_USER_INPUT" },
    });
    const rest = await t.get("/api/v1/districts?search=a%00b", "free");
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ error: "bad_request", statusCode: 400 });
    expect(rest.body.message).toMatch(/search .*NUL/);
  });
});

describe("request time budget", () => {
  let t: TestApp;
  beforeAll(async () => {
    // 1 ms: the first statement starts inside the budget, every later wave finds it spent.
    t = await createTestApp({ REQUEST_TIMEOUT_MS: "1" });
    const districtId = await insertDistrict(t.db, { name: "Budget District", state: "NE" });
    await insertDistrictStats(t.db, districtId, 2023, { total_enrollment: 100 });
    await insertSchool(t.db, { name: "Budget School", state: "NE", district_id: districtId });
  });
  afterAll(() => t.close());

  it("stops a GraphQL request at its deadline with a coded client error", async () => {
    const res = await t.graphql(
      `{ districts { data { schools { data { district { annualStatistics { latest { totalEnrollment } } } } } } } }`,
    );
    const codes = (res.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);
    expect(codes).toContain("QUERY_TIMEOUT");
    expect(codes).not.toContain("INTERNAL_SERVER_ERROR");
    expect(res.errors![codes.indexOf("QUERY_TIMEOUT")].message).toMatch(/exceeded its time budget of 1 ms/);
  });

  it("answers REST over budget with 400 and the generic body", async () => {
    const res = await t.get("/api/v1/schools?limit=5");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "bad_request",
      message: "the request exceeded its time budget of 1 ms; ask for fewer records or fields, or narrow the filters",
      statusCode: 400,
    });
  });
});

describe("request line and headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers a request line over 64 KiB with 431 and the generic body", async () => {
    const res = await t.get(`/api/v1/districts?search=${"a".repeat(70 * 1024)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      error: "request_header_fields_too_large",
      message: "the request line and headers exceed 64 KiB; send long parameters in the POST twin's body",
      statusCode: 431,
    });
  });
});

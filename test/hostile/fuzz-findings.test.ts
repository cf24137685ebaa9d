/**
 * The defects the fuzzing of issue 26 found (test/hostile/fuzz.test.ts, bench/fuzz.ts), each as the request that
 * showed it: every one answered a 5xx or a body out of shape before its fix.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertHeadStart, insertOperator } from "../support/early-childhood-factories";

describe("defects found by fuzzing", () => {
  let t: TestApp;
  const auth = () => `Bearer ${t.keys.enterprise}`;
  const graphqlBody = (body: unknown) =>
    t.http
      .post("/graphql")
      .set("Authorization", auth())
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    const operator = await insertOperator(t.db, { name: "Findings Operator" });
    await insertHeadStart(t.db, { name: "Findings Head Start", state: "NE", operator_id: operator, grant_end: "2026-06-30" });
  });
  afterAll(() => t?.close());

  describe("an operationName the document does not resolve (was: 500, and a TypeError's message)", () => {
    it("an unknown name: 400, coded, naming the operation", async () => {
      const res = await graphqlBody({ query: "query Fuzz { organization { id } }", operationName: "Other" });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ message: 'Unknown operation named "Other".', extensions: { code: expect.any(String) } }]);
      expect(res.body.errors[0].extensions.code).not.toBe("INTERNAL_SERVER_ERROR");
    });

    it("several operations and no name: 400 saying a name is needed", async () => {
      const res = await graphqlBody({ query: "query A { organization { id } } query B { organization { id } }" });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toBe("Must provide operation name if query contains multiple operations.");
    });

    it("the named operation of several still runs", async () => {
      const res = await graphqlBody({ query: "query A { organization { id } } query B { organization { plan } }", operationName: "B" });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ organization: { plan: "enterprise" } });
    });
  });

  describe("a day that does not exist (was: 500, PostgreSQL refused the date JavaScript rolled over)", () => {
    it.each(["2026-02-31", "2025-02-29", "2026-04-31", "0000-01-01"])("REST grant_end_after=%s: 400 naming the parameter", async (day) => {
      const res = await t.get(`/api/v1/head-start-programs?grant_end_after=${day}`);
      expect([res.status, res.body]).toEqual([
        400,
        { error: "bad_request", message: `grant_end_after must be a date YYYY-MM-DD; got "${day}"`, statusCode: 400 },
      ]);
    });

    it("GraphQL, as a literal and as a variable: 400 BAD_USER_INPUT", async () => {
      const literal = await graphqlBody({
        query: '{ headStartPrograms(filter: { grantEndAfter: "2026-02-31" }) { pagination { total } } }',
      });
      expect(literal.status).toBe(400);
      expect(literal.body.errors[0].extensions.code).not.toBe("INTERNAL_SERVER_ERROR");
      const variable = await graphqlBody({
        query: "query Q($f: HeadStartFilter) { headStartPrograms(filter: $f) { pagination { total } } }",
        variables: { f: { grantEndBefore: "2025-02-29" } },
      });
      expect(variable.status).toBe(400);
      expect(variable.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    });

    it("a leap day that exists filters as before", async () => {
      const res = await t.get("/api/v1/head-start-programs?grant_end_after=2024-02-29").expect(200);
      expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(["Findings Head Start"]);
    });
  });
});

/**
 * One execution engine (issue 10): /graphql runs the same compiled path as REST. Its answers equal
 * graphql-js's on the public schema, compiled operations are cached by document in a bounded LRU, a
 * page of districts with blocks is one statement on both faces, and introspection keeps GraphQL names.
 */
import { execute, parse } from "graphql";
import { createContext } from "../../src/graphql/context";
import { builtLoaderGroups, createLoaders } from "../../src/graphql/loaders";
import { getSchema } from "../../src/graphql/schema";
import { createTestApp, type TestApp } from "../support/app";
import { insertAssessmentSummary, insertIntelligence, insertSpecialEducationFinance, insertUnlock } from "../support/block-factories";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements } from "../support/statements";

const PAGE = `query Page($limit: Int, $state: String) {
  districts(limit: $limit, filter: { state: $state }) {
    pagination { total limit offset hasMore }
    data {
      __typename id name fedId state
      renamed: studentCount
      ...Blocks
      _access { isUnlocked unlockCost }
      schools(limit: 3) { data { id name district { name } } }
    }
  }
}
fragment Blocks on District {
  annualStatistics { historyGated latest { schoolYearStart totalEnrollment } trend { schoolYearStart totalEnrollment } }
  assessmentSummary { schoolYear }
  specialEducationFinance { historyGated }
  painPoints { category description }
  vendors { name }
}`;

describe("/graphql on the compiled engine", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ GRAPHQL_COMPILED_CACHE_SIZE: "2" });
    for (let i = 0; i < 3; i += 1) {
      const id = await insertDistrict(t.db, { name: `Engine ${i}`, state: "VT", student_count: 100 * i });
      await insertDistrictStats(t.db, id, 2022, { total_enrollment: 10 + i });
      await insertDistrictStats(t.db, id, 2023, { total_enrollment: 20 + i });
      await insertSchool(t.db, { name: `Engine School ${i}`, state: "VT", district_id: id });
      await insertAssessmentSummary(t.db, { district_id: id }, 2023);
      await insertSpecialEducationFinance(t.db, id, 2022);
      if (i === 1) {
        await insertIntelligence(t.db, { district_id: id }, "engine");
        await insertUnlock(t.db, t.orgs.enterprise, "district", id);
      }
    }
  });
  afterAll(() => t.close());

  it("answers exactly as graphql-js does on the public schema", async () => {
    const variables = { limit: 3, state: "VT" };
    const compiled = await t.graphql(PAGE, variables, "enterprise");
    expect(compiled.errors).toBeUndefined();
    const viewerRow = await t.db.query<{ id: string; name: string }>(`SELECT id, name FROM organizations WHERE id = $1`, [
      t.orgs.enterprise,
    ]);
    const viewer = {
      organizationId: t.orgs.enterprise,
      organizationName: viewerRow[0].name,
      plan: "enterprise" as const,
      entitlements: new Set(["signals"]),
      apiKeyId: "test",
    };
    const { loadEnv } = await import("../../src/config/env");
    const reference = await execute({
      schema: getSchema(),
      document: parse(PAGE),
      variableValues: variables,
      contextValue: createContext({ db: t.db, env: loadEnv({ LOG_LEVEL: "silent" }) }, viewer, "reference"),
    });
    expect(reference.errors).toBeUndefined();
    expect(compiled.data).toEqual(JSON.parse(JSON.stringify(reference.data)));
    expect(compiled.data.districts.data[1]).toMatchObject({
      __typename: "District",
      name: "Engine 1",
      renamed: 100,
      painPoints: [expect.objectContaining({ description: expect.any(String) })],
    });
  });

  it("runs the district page with its blocks in as many statements as REST", async () => {
    const count = (run: () => Promise<unknown>) => countStatements(t.db, run);
    const query = `{ districts(limit: 200) { data { id name annualStatistics { latest { totalEnrollment } trend { totalEnrollment } } } } }`;
    const graphql = await count(() => t.graphql(query, {}, "free"));
    const rest = await count(() => t.get("/api/v1/districts?limit=200", "free"));
    // The API-key lookup and the page statement; no statement per district or per block.
    expect(graphql).toBe(2);
    expect(rest).toBe(2);
  });

  it("compiles each document once and keeps at most GRAPHQL_COMPILED_CACHE_SIZE of them", async () => {
    const docs = [1, 2, 3].map((n) => `{ districts(limit: ${n}) { data { id } } }`);
    for (const [i, doc] of docs.entries()) {
      expect((await t.graphql(doc)).data.districts.data).toHaveLength(i + 1);
      expect(t.engine.cachedOperations).toBe(Math.min(2, i + 1 + 1));
    }
    expect(t.engine.cachedOperations).toBe(2);
    // An evicted document compiles again and answers the same.
    expect((await t.graphql(docs[0])).data.districts.data).toHaveLength(1);
  });

  it("answers introspection with GraphQL's names, not REST's", async () => {
    const res = await t.graphql(`{ __type(name: "District") { fields { name } } }`);
    const names = res.data.__type.fields.map((f: { name: string }) => f.name);
    expect(names).toContain("fedId");
    expect(names).not.toContain("fed_id");
  });

  it("keeps coded errors and error paths under the client's names", async () => {
    // (A limit beyond the maximum is refused before execution, without a path: test/rest/rest-messages.test.ts.)
    const res = await t.graphql(`{ first: districts(offset: -1) { data { id } } }`);
    expect(res.errors![0]).toMatchObject({
      message: "offset must be an integer >= 0",
      path: ["first"],
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("builds a feature's loaders only when a resolver asks for them", () => {
    const viewer = {
      organizationId: t.orgs.free,
      organizationName: "x",
      plan: "free" as const,
      entitlements: new Set<string>(),
      apiKeyId: "k",
    };
    const loaders = createLoaders(t.db, viewer);
    expect(builtLoaderGroups(loaders)).toEqual([]);
    expect(loaders.districts).toBe(loaders.districts);
    expect(builtLoaderGroups(loaders)).toEqual(["districts"]);
  });
});

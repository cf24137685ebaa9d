/**
 * The real publisher files, loaded by the real ingestors (Head Start PIR, the Nebraska licensing roster,
 * the IRS master file for Nebraska), read back through GraphQL. The expected names and numbers were
 * looked up in the files themselves (see the comments).
 */
import path from "node:path";
import { packageRoot } from "../../src/db/package-root";
import { INGEST_SOURCES, runIngest } from "../../src/ingest";
import { createTestApp, type TestApp } from "../support/app";
import { measureStatements } from "../support/statements";

type Record_ = Record<string, any>;

describe("early childhood over the real files", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const load = (source: keyof typeof INGEST_SOURCES, file: string) => runIngest(t.db, source, path.join(packageRoot, file));
    await load("hhs-head-start", INGEST_SOURCES["hhs-head-start"].files[0]!);
    await load("childcare-ne", INGEST_SOURCES["childcare-ne"].files[0]!);
    await load("irs-bmf", "data/irs_eo_bmf/eo_ne.csv");
  });
  afterAll(() => t.close());

  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await t.graphql(query, variables);
    expect(res.errors).toBeUndefined();
    return res.data;
  };

  it("Head Start: every program of the PIR extract, active ones by default, Nebraska's grants", async () => {
    const totals = await gql(`{ all: headStartPrograms(filter: { status: all }, limit: 1) { pagination { total } }
      active: headStartPrograms(limit: 1) { pagination { total } }
      ne: headStartPrograms(filter: { state: ["NE"], status: all }, limit: 1) { pagination { total } }
      neActive: headStartPrograms(filter: { state: ["NE"] }, limit: 1) { pagination { total } } }`);
    // 4,733 programs (grants + delegates) + 65 grant-level programs built from their delegates' rows;
    // 2,462 + 35 reported in 2022 (data/README.md); Nebraska rows of the CSV fold into 49 programs, 25 of
    // them in the 2022 report.
    expect(totals.all.pagination.total).toBe(4733 + 65);
    expect(totals.active.pagination.total).toBe(2462 + 35);
    expect(totals.ne.pagination.total).toBe(49);
    expect(totals.neActive.pagination.total).toBe(25);

    // Grant 07CH010901: Blue Valley Community Action's HS (000) and EHS (200) rows, 2019-2022.
    const { headStartPrograms } = await gql(`{ headStartPrograms(filter: { search: "07ch010901" }) {
        data { name grantNumber delegateNumber recipientName state programTypes status sourceVersion operator { name headStartCount } } } }`);
    expect(headStartPrograms.data).toEqual([
      {
        name: "Blue Valley Community Action, Inc",
        grantNumber: "07CH010901",
        delegateNumber: null,
        recipientName: "Blue Valley Community Action, Inc.",
        state: "NE",
        programTypes: ["head_start", "early_head_start"],
        status: "active",
        sourceVersion: "PIR 2022 (ACF pir_clean_2019_2022)",
        // its second open grant is 07HP000344 (EHS, 2021-2022); 07HP0012 (2019 only) has no open site
        operator: { name: "Blue Valley Community Action, Inc.", headStartCount: 2 },
      },
    ]);
  });

  it("childcare: the Nebraska roster, one center by license number, a county", async () => {
    const data = await gql(`{ ne: childcareCenters(filter: { state: ["NE"] }, limit: 1) { pagination { total } }
      douglas: childcareCenters(filter: { county: ["douglas"] }, limit: 1) { pagination { total } }
      one: childcareCenters(filter: { search: "CCC9578" }) { data { name capacity county physicalCity licenseType acceptsSubsidy people { name } } } }`);
    expect(data.ne.pagination.total).toBe(1102); // every row of the roster (homes already removed)
    expect(data.douglas.pagination.total).toBe(393); // rows with County "Douglas"
    expect(data.one.data).toEqual([
      {
        name: "EDUCATION EXPLORERS",
        capacity: 20,
        county: "Washington",
        physicalCity: "Arlington",
        licenseType: "center",
        acceptsSubsidy: true,
        people: [],
      },
    ]);
  });

  it("operators: a Nebraska chain with its IRS figures, found by name or EIN", async () => {
    const query = `query($search: String) { operators(filter: { search: $search, state: ["NE"] }) {
        data { name kind ein nteeCode chainKey centerCount centerSeats headStartCount programStates totalRevenue fiscalYearEnd
               latest990Form contractorMatches { name } } } }`;
    // YMCA OF GREATER OMAHA: 7 roster rows (capacity 1,060 in all); IRS EIN 470376586, TAX_PERIOD 202412,
    // REVENUE_AMT 27991806, NTEE P27Z.
    const ymca = {
      name: "YMCA OF GREATER OMAHA",
      kind: "nonprofit",
      ein: "470376586",
      nteeCode: "P27Z",
      chainKey: "ymca-of-greater-omaha",
      centerCount: 7,
      centerSeats: 1060,
      headStartCount: 0,
      programStates: ["NE"],
      totalRevenue: 27991806,
      fiscalYearEnd: "2024-12-31",
      latest990Form: null,
      contractorMatches: [],
    };
    expect((await gql(query, { search: "ymca of greater omaha" })).operators.data).toEqual([ymca]);
    expect((await gql(query, { search: "47-0376586" })).operators.data).toEqual([ymca]);
    // KIDS CAN COMMUNITY CENTER: 10 roster rows, capacity 1,582; EIN 470376597, REVENUE_AMT 5357572.
    const kidsCan = (await gql(query, { search: "kids can community" })).operators.data;
    expect(kidsCan).toMatchObject([{ ein: "470376597", centerCount: 10, centerSeats: 1582, totalRevenue: 5357572 }]);
  });

  it("operators over the whole catalogue: one statement whatever the page size", async () => {
    const query = `query($limit: Int) { operators(filter: { state: ["NE"] }, orderBy: center_count, orderAscending: false, limit: $limit) {
        data { name centerCount headStartCount contractorMatches { name } } pagination { total } } }`;
    const statements = async (limit: number) => {
      const { statements, result: data } = await measureStatements(t.db, () => gql(query, { limit }));
      return { statements, data };
    };
    const one = await statements(1);
    const many = await statements(200);
    expect(one.statements).toBe(many.statements);
    expect(many.statements).toBe(2); // the API key, the list
    // ELKHORN KIDS CAMPUS LLC holds 14 licenses, the most of any licensee in the roster.
    expect(one.data.operators.data).toEqual([
      { name: "ELKHORN KIDS CAMPUS LLC", centerCount: 14, headStartCount: 0, contractorMatches: [] },
    ]);
    const operators = many.data.operators;
    expect(operators.pagination.total).toBeGreaterThan(50);
    expect(operators.data.every((o: Record_) => o.centerCount + o.headStartCount > 0)).toBe(true);
  });
});

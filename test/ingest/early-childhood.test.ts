/**
 * Operator-side sources on one database: Head Start PIR, the Nebraska and Indiana licensing rosters and
 * the IRS BMF, after the LEA directory (school-district recipients and licensees link to districts).
 * Ends with ingestDemoFiles over the same database: everything already loaded is reported unchanged.
 */
import { ingestDemoFiles, INGEST_SOURCES, runIngest } from "../../src/ingest";
import { createTestDb, type TestDb } from "../support/db";
import { count, counts, dataFile, expectMalformedRefused } from "./helpers";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await runIngest(db, "nces-lea", dataFile(INGEST_SOURCES["nces-lea"].files[0]!));
});
afterAll(async () => {
  await db?.close();
});

const PIR = "data/hhs_head_start_pir/pir_clean_2019_2022.csv";
const NE = "data/childcare_licensing_ne/ne_dhhs_child_care_roster_2026-02-16_centers.csv";
const IN = "data/childcare_licensing_in/in_fssa_provider_profiles_2022-03-30_nonhome.csv";
const IRS = INGEST_SOURCES["irs-bmf"].files;

describe("hhs-head-start", () => {
  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "hhs-head-start", PIR, "grant_number");
  });

  it("loads one program per grant and per delegate, with operators for the recipients", async () => {
    const summary = await runIngest(db, "hhs-head-start", dataFile(PIR));
    // 10,314 PIR rows = 4,733 programs + 5,580 rows folded in (other years, the EHS half of a grant) + 1 reject.
    expect(counts(summary)).toEqual({ read: 10314, inserted: 4733, updated: 0, unchanged: 0, rejected: 1, skipped: 5580 });
    expect(summary.rejects).toEqual([{ line: 4830, reason: "program 04CH011174: service_state is empty in every year" }]);
    // 65 grants have only delegate rows: their grant-level program is built from the delegates' rows.
    expect(summary.related["head_start_programs (grant-level, from delegates)"]).toEqual({ inserted: 65, updated: 0, unchanged: 0 });
    expect(await count(db, `SELECT 1 FROM head_start_programs`)).toBe(4733 + 65);
    const operators = summary.related.operators!;
    expect(operators.inserted).toBeGreaterThan(1000);
    expect(await count(db, `SELECT 1 FROM operators`)).toBe(operators.inserted);
    // A recipient's Head Start and Early Head Start rows are one program; its delegate points to it.
    const [manchester] = await db.query(`SELECT * FROM head_start_programs WHERE source_key = '01CH010841'`);
    expect(manchester).toMatchObject({
      grant_number: "01CH010841",
      delegate_number: null,
      status: "active",
      report_year: 2022,
      state: "CT",
      operator_id: null,
    });
    expect(manchester!.district_id).not.toBeNull(); // Manchester Board of Education is a school district, not an operator
    const [enfield] = await db.query(`SELECT * FROM head_start_programs WHERE source_key = '01CH010841-001'`);
    expect(enfield).toMatchObject({
      name: "Enfield Head Start",
      delegate_number: "001",
      parent_program_id: manchester!.id,
      program_types: ["head_start"],
    });
    const [both] = await db.query<{ program_types: string[] }>(
      `SELECT program_types FROM head_start_programs WHERE delegate_number IS NULL AND program_types @> ARRAY['head_start','early_head_start'] LIMIT 1`,
    );
    expect(both).toBeDefined();
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE status = 'active'`)).toBe(2462 + 35);
    const [linked] = await db.query(
      `SELECT o.kind, o.data_source, o.slug FROM head_start_programs h JOIN operators o ON o.id = h.operator_id WHERE h.recipient_name = 'Hualapai Tribe' LIMIT 1`,
    );
    expect(linked).toMatchObject({
      kind: "tribe",
      data_source: "hhs_ohs_pir_2019_2022",
      slug: expect.stringMatching(/^hualapai-tribe-az-[0-9a-f]{8}$/),
    });
  });

  it("gives every delegate a parent: grants without a recipient row get one from the grant number and grantee_name", async () => {
    // Without the built grant-level programs 625 of the 993 delegates (267 of the 472 active) had no parent.
    const delegates = `SELECT status, parent_program_id FROM head_start_programs WHERE delegate_number IS NOT NULL`;
    expect(await count(db, delegates)).toBe(993);
    expect(await count(db, `${delegates} AND status = 'active'`)).toBe(472);
    expect(await count(db, `${delegates} AND parent_program_id IS NULL`)).toBe(0);
    // Every parent is its grant's own record.
    expect(
      await count(
        db,
        `SELECT 1 FROM head_start_programs c JOIN head_start_programs p ON p.id = c.parent_program_id
          WHERE p.source_key <> c.grant_number OR p.delegate_number IS NOT NULL`,
      ),
    ).toBe(0);
    // A school-district recipient: the NYC DOE (grant 02CH010989, 69 delegates, no row of its own) is the
    // CCD's NYC CHANCELLOR'S OFFICE (LEAID 3620580) by the documented alias, not an operator.
    const [nyc] = await db.query(
      `SELECT h.id, h.name, h.recipient_name, h.state, h.status, h.program_types, h.operator_id, h.source_version, d.fed_id
         FROM head_start_programs h LEFT JOIN districts d ON d.id = h.district_id WHERE h.source_key = '02CH010989'`,
    );
    expect(nyc).toMatchObject({
      name: "New York City Department of Education",
      recipient_name: "New York City Department of Education",
      state: "NY",
      status: "active",
      program_types: ["head_start", "early_head_start"],
      operator_id: null,
      fed_id: "3620580",
      source_version: "PIR 2022 (ACF pir_clean_2019_2022; grant-level record from its delegates' rows)",
    });
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE parent_program_id = $1`, [nyc!.id])).toBe(69);
    expect(await count(db, `SELECT 1 FROM operators WHERE normalized_name = 'new york city department of education'`)).toBe(0);
    // Exact name within the state: the Los Angeles County Office of Education is a CCD LEA of that name.
    const [lacoe] = await db.query(
      `SELECT d.fed_id FROM head_start_programs h JOIN districts d ON d.id = h.district_id WHERE h.source_key = '09CH010682'`,
    );
    expect(lacoe).toEqual({ fed_id: "0691078" });
    // A multi-state grant (Acelero 02CH3129: three NJ delegates, one PA, last reported 2019) takes the majority state.
    const [acelero] = await db.query(
      `SELECT h.state, h.status, h.report_year, o.name AS operator FROM head_start_programs h JOIN operators o ON o.id = h.operator_id
        WHERE h.source_key = '02CH3129'`,
    );
    expect(acelero).toEqual({ state: "NJ", status: "no_open_site", report_year: 2019, operator: "Acelero, Inc." });
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "hhs-head-start", dataFile(PIR));
    expect(counts(summary)).toEqual({ read: 10314, inserted: 0, updated: 0, unchanged: 4733, rejected: 1, skipped: 5580 });
    expect(summary.related.operators!.inserted).toBe(0);
    expect(summary.related["head_start_programs (grant-level, from delegates)"]).toEqual({ inserted: 0, updated: 0, unchanged: 65 });
    expect(await count(db, `SELECT 1 FROM head_start_programs WHERE delegate_number IS NOT NULL AND parent_program_id IS NULL`)).toBe(0);
  });
});

describe("childcare-ne", () => {
  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "childcare-ne", NE, "License_Number");
  });

  it("loads every center with mapped license types, chains and chain operators", async () => {
    const summary = await runIngest(db, "childcare-ne", dataFile(NE));
    expect(counts(summary)).toEqual({ read: 1102, inserted: 1102, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const types = await db.query(`SELECT license_type, count(*)::int AS n FROM childcare_centers WHERE state = 'NE' GROUP BY 1 ORDER BY 1`);
    expect(types).toEqual([
      { license_type: "center", n: 727 },
      { license_type: "infant_toddler", n: 1 },
      { license_type: "preschool", n: 97 },
      { license_type: "school_age", n: 277 },
    ]);
    const [center] = await db.query(`SELECT * FROM childcare_centers WHERE source_key = 'NE:CCC9578'`);
    expect(center).toMatchObject({
      name: "EDUCATION EXPLORERS",
      license_number: "CCC9578",
      license_type: "center",
      license_type_raw: "Child Care Center",
      license_status: "active",
      capacity: 20,
      ages_served: "6 WKS To 12 YRS",
      quality_rating: "Step Up to Quality 1",
      accepts_subsidy: true,
      chain: null,
      data_source: "ne_dhhs_childcare_roster_20260216",
    });
    const ymca = await db.query<{ chain: string; operator_id: string }>(
      `SELECT chain, operator_id FROM childcare_centers WHERE licensee_name = 'YMCA OF GREATER OMAHA'`,
    );
    expect(ymca).toHaveLength(7);
    expect(new Set(ymca.map((c) => c.chain))).toEqual(new Set(["ymca-of-greater-omaha"]));
    expect(new Set(ymca.map((c) => c.operator_id)).size).toBe(1);
    const [operator] = await db.query(`SELECT * FROM operators WHERE id = $1`, [ymca[0]!.operator_id]);
    expect(operator).toMatchObject({ name: "YMCA OF GREATER OMAHA", kind: "nonprofit", chain_key: "ymca-of-greater-omaha", state: "NE" });
    // School districts and private persons run several centers too, but are not operators.
    expect(
      await count(
        db,
        `SELECT 1 FROM childcare_centers WHERE licensee_name = 'KEARNEY PUBLIC SCHOOLS' AND district_operated AND district_id IS NOT NULL AND operator_id IS NULL`,
      ),
    ).toBe(11);
    expect(await count(db, `SELECT 1 FROM operators WHERE name IN ('KEARNEY PUBLIC SCHOOLS', 'CASEY MILLER')`)).toBe(0);
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "childcare-ne", dataFile(NE));
    expect(counts(summary)).toEqual({ read: 1102, inserted: 0, updated: 0, unchanged: 1102, rejected: 0, skipped: 0 });
  });
});

describe("childcare-in", () => {
  it("refuses malformed copies", async () => {
    await expectMalformedRefused(db, "childcare-in", IN, "FacilityNumber");
  });

  it("loads every center, keeping raw type and status beside the mapped ones", async () => {
    const summary = await runIngest(db, "childcare-in", dataFile(IN));
    expect(counts(summary)).toEqual({ read: 1903, inserted: 1903, updated: 0, unchanged: 0, rejected: 0, skipped: 0 });
    const [ministry] = await db.query(`SELECT * FROM childcare_centers WHERE source_key = 'IN:RM-99250-A'`);
    expect(ministry).toMatchObject({
      name: "St. Joseph Daycare Ministry",
      license_type: "center",
      license_type_raw: "Ministry",
      license_status: "active",
      license_status_raw: "Open",
      capacity: 167,
      capacity_by_age: { Infant: 7, Toddler: 10, "Two's": 5, "Three's": 9, "Three's to Four's": 15 },
      ages_served: "Infant; Toddler; Two's; Three's; Three's to Four's",
      licensee_name: "St. Mary's Catholic Church",
      quality_rating: null,
      accepts_subsidy: false,
      district_operated: false,
    });
    expect(
      await db.query(`SELECT first_licensed::text, license_expires::text FROM childcare_centers WHERE source_key = 'IN:RM-99250-A'`),
    ).toEqual([{ first_licensed: "1995-08-24", license_expires: "2023-03-31" }]);
    expect(
      await count(db, `SELECT 1 FROM childcare_centers WHERE state = 'IN' AND license_type_raw = 'LEA' AND NOT district_operated`),
    ).toBe(0);
    expect(await count(db, `SELECT 1 FROM childcare_centers WHERE state = 'IN' AND license_status = 'active'`)).toBe(1903);
    expect(await count(db, `SELECT 1 FROM childcare_centers WHERE name LIKE '%\\%' OR name LIKE '\\%'`)).toBe(0);
  });

  it("changes nothing on a second run", async () => {
    const summary = await runIngest(db, "childcare-in", dataFile(IN));
    expect(counts(summary)).toEqual({ read: 1903, inserted: 0, updated: 0, unchanged: 1903, rejected: 0, skipped: 0 });
  });
});

describe("irs-bmf", () => {
  it("refuses malformed copies (plain and gzipped)", async () => {
    await expectMalformedRefused(db, "irs-bmf", IRS[0]!, "EIN");
    await expectMalformedRefused(db, "irs-bmf", IRS[1]!, "EIN");
  });

  it("adds EIN, NTEE and revenue to matched operators and creates child care organizations", async () => {
    const before = await count(db, `SELECT 1 FROM operators`);
    const ne = await runIngest(db, "irs-bmf", dataFile(IRS[0]!));
    const states = await runIngest(db, "irs-bmf", dataFile(IRS[1]!));
    expect(ne.read).toBe(14811);
    expect(states.read).toBe(29621);
    for (const s of [ne, states]) {
      expect(s.rejected).toBe(0);
      expect(s.inserted + s.updated + s.unchanged + s.skipped).toBe(s.read);
    }
    expect(await count(db, `SELECT 1 FROM operators`)).toBe(before + ne.inserted + states.inserted);
    const [created] = await db.query(`SELECT * FROM operators WHERE ein = '208424659'`);
    expect(created).toMatchObject({
      name: "ST MARKS PRESCHOOL KIDZONE INC",
      kind: "nonprofit",
      ntee_code: "P33",
      total_revenue: 937891,
      fiscal_year_end: "2024-12-31",
      state: "NE",
      physical_city: "LINCOLN",
      data_source: "irs_eo_bmf_202604",
    });
    // Only child care (P33) and preschools (B21) become new operators.
    expect(await count(db, `SELECT 1 FROM operators WHERE data_source = 'irs_eo_bmf_202604' AND ntee_code !~ '^(P33|B21)'`)).toBe(0);
    const [ymca] = await db.query(`SELECT ein, ntee_code, total_revenue, data_source FROM operators WHERE name = 'YMCA OF GREATER OMAHA'`);
    expect(ymca).toMatchObject({ ein: "470376586", data_source: "ne_dhhs_childcare_roster_20260216" });
    // A tribe keeps its kind and never takes the EIN of a body named after it.
    expect(await db.query(`SELECT kind, ein FROM operators WHERE name = 'Winnebago Tribe of Nebraska'`)).toEqual([
      { kind: "tribe", ein: null },
    ]);
  });

  it("changes nothing on a second run", async () => {
    for (const file of IRS) {
      const summary = await runIngest(db, "irs-bmf", dataFile(file));
      expect([summary.inserted, summary.updated]).toEqual([0, 0]);
      expect(summary.related.childcare_centers).toBeUndefined();
    }
  });
});

describe("ingestDemoFiles", () => {
  it("loads every source's files in dependency order; already-loaded ones are unchanged", async () => {
    const summaries = await ingestDemoFiles(db);
    expect(summaries.map((s) => s.file)).toEqual(Object.values(INGEST_SOURCES).flatMap((s) => s.files));
    for (const s of summaries) {
      if (["nces-lea", "hhs-head-start", "childcare-ne", "childcare-in", "irs-bmf"].includes(s.source)) {
        expect([s.source, s.inserted, s.updated]).toEqual([s.source, 0, 0]);
      }
    }
    expect(await count(db, `SELECT 1 FROM schools`)).toBe(20637);
    for (const table of ["districts", "schools", "operators", "head_start_programs", "childcare_centers"]) {
      expect(await count(db, `SELECT 1 FROM ${table} WHERE data_source ILIKE '%demo%'`)).toBe(0);
    }
    // Every national file (the first start's whole load): minutes on a busy 2-core machine.
  }, 600_000);
});

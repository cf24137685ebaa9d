/**
 * District nested blocks through REST and GraphQL: assessments, special-education finance (with
 * free-plan history gating), extracted intelligence (unlock gating, per-organization bid filings),
 * and the timeline `events` field.
 */
import { createTestApp, type TestApp } from "../support/app";
import {
  insertAssessmentSummary,
  insertBidFiling,
  insertEvent,
  insertFollow,
  insertGradeRow,
  insertIntelligence,
  insertSpecialEducationFinance,
  insertStateRow,
  insertUnlock,
} from "../support/block-factories";
import { insertDistrict } from "../support/factories";
import { measureStatements } from "../support/statements";

const INTELLIGENCE = ["pain_points", "vendors", "funding", "contracts", "bids"] as const;

describe("district blocks", () => {
  let t: TestApp;
  let withData: string; // assessments, finance, intelligence; unlocked by enterprise and pro
  let bare: string; // no block rows at all
  let lockedWithData: string; // intelligence rows, unlocked only by the pro organization
  let pending: string; // an unlock_pending unlock by enterprise
  let intel: Awaited<ReturnType<typeof insertIntelligence>>;

  beforeAll(async () => {
    t = await createTestApp();
    withData = await insertDistrict(t.db, { name: "Blocks A", state: "NE" });
    bare = await insertDistrict(t.db, { name: "Blocks B", state: "NE" });
    lockedWithData = await insertDistrict(t.db, { name: "Blocks C", state: "IA" });
    pending = await insertDistrict(t.db, { name: "Blocks D", state: "NE" });

    await insertAssessmentSummary(t.db, { district_id: withData }, 2022, { source_id: "older" });
    await insertAssessmentSummary(t.db, { district_id: withData }, 2023);
    for (const year of [2022, 2023]) {
      await insertGradeRow(t.db, { district_id: withData }, year, "04", "math", 41);
      await insertGradeRow(t.db, { district_id: withData }, year, "03", "ela", 52);
      await insertGradeRow(t.db, { district_id: withData }, year, "03", "math", 47);
      await insertStateRow(t.db, "NE", year, "03", "ela");
      await insertStateRow(t.db, "IA", year, "03", "ela");
    }
    await insertStateRow(t.db, "NE", 2023, "04", "math", 39);

    for (const fy of [2021, 2023, 2022]) await insertSpecialEducationFinance(t.db, withData, fy);

    intel = await insertIntelligence(t.db, { district_id: withData }, "A");
    await insertIntelligence(t.db, { district_id: lockedWithData }, "C");
    await insertIntelligence(t.db, { district_id: pending }, "D");
    await insertUnlock(t.db, t.orgs.enterprise, "district", withData);
    await insertUnlock(t.db, t.orgs.pro, "district", withData);
    await insertUnlock(t.db, t.orgs.pro, "district", lockedWithData);
    await insertUnlock(t.db, t.orgs.enterprise, "district", pending, "unlock_pending");
    await insertBidFiling(t.db, t.orgs.enterprise, intel.openBidId, "not_useful", "wrong_scope", "Not our market");
  });
  afterAll(() => t.close());

  const detail = async (id: string, plan: "free" | "pro" | "enterprise" = "enterprise") =>
    (await t.get(`/api/v1/districts/${id}`, plan).expect(200)).body.data;

  describe("assessments", () => {
    it("assessment_summary is the latest row, with metrics and coverage as the spec names them", async () => {
      const summary = (await detail(withData)).assessment_summary;
      expect(summary).toEqual({
        data_source: "test",
        source_id: "test-assessment",
        state: "NE",
        school_year: 2023,
        data_quality: "complete",
        subjects_available: ["ela", "math"],
        metrics: {
          ela: {
            proficiency_pct: 50,
            tested_count: 400,
            participation_rate: 97.5,
            state_proficiency_pct: 45,
            vs_state_pp: 5,
            basis: "grade_average",
          },
          math: {
            proficiency_pct: 40,
            tested_count: 400,
            participation_rate: 97.5,
            state_proficiency_pct: 42,
            vs_state_pp: -2,
            basis: "grade_average",
          },
          science: null,
        },
        grade_summary: { grades: { "03": { ela: 50 } } },
        source_manifest_uri: "https://example.test/2023/manifest.json",
        canonical_artifact_uri: "https://example.test/2023/results.csv",
        coverage: {
          source_id: "test-assessment",
          source_name: "Test assessment source",
          publication_status: "final",
          published_at: "2024-09-15T00:00:00.000Z",
          canonical_artifact_uri: "https://example.test/2023/results.csv",
          canonical_artifact_format: "csv",
          manifest_uri: "https://example.test/2023/manifest.json",
          quality_summary: { suppressed_rows: 0 },
        },
        comparability_warning: "Test figures.",
      });
    });

    it("grade rows are the latest year's, by subject and grade; state rows are the state's rows of that year", async () => {
      const record = await detail(withData);
      expect(
        record.assessment_grade_rows.map((r: { school_year: number; subject: string; grade: string }) => [
          r.school_year,
          r.subject,
          r.grade,
        ]),
      ).toEqual([
        [2023, "ela", "03"],
        [2023, "math", "03"],
        [2023, "math", "04"],
      ]);
      expect(record.assessment_grade_rows[0]).toMatchObject({
        id: expect.any(String),
        source_id: "test-assessment",
        state: "NE",
        student_group_type: "all",
        student_group: "All students",
        student_group_id: "all",
        enrolled_count: 100,
        tested_count: 98,
        tested_with_scores_count: 97,
        proficiency_pct: 52,
        participation_rate: 98,
        mean_scale_score: 2400.5,
        data_quality: "complete",
        suppression_code: null,
      });
      const state = record.assessment_state_rows;
      expect(
        state.map((r: { state: string; school_year: number; subject: string; grade: string }) => [
          r.state,
          r.school_year,
          r.subject,
          r.grade,
        ]),
      ).toEqual([
        ["NE", 2023, "ela", "03"],
        ["NE", 2023, "math", "04"],
      ]);
      expect(state[0]).not.toHaveProperty("id");
    });

    it("a district without assessment rows has a null summary and empty row lists", async () => {
      const record = await detail(bare);
      expect(record.assessment_summary).toBeNull();
      expect(record.assessment_grade_rows).toEqual([]);
      expect(record.assessment_state_rows).toEqual([]);
    });
  });

  describe("special_education_finance", () => {
    it("paid plans get every fiscal year, ascending; latest is the last", async () => {
      const block = (await detail(withData)).special_education_finance;
      expect(block.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2021, 2022, 2023]);
      expect(block.latest).toMatchObject({
        fiscal_year: 2023,
        school_year_start: 2022,
        idea_child_count: 150,
        idea_part_b_revenue: 302023,
        f33_version: "F-33 FY2023",
      });
      expect(block.history_gated).toBe(false);
      expect(block.history_years_available).toBe(3);
      expect(block.caveat).toEqual(expect.any(String));
    });

    it("free plan: only the latest year and history_gated, until the district is followed", async () => {
      const gated = (await detail(withData, "free")).special_education_finance;
      expect(gated.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2023]);
      expect(gated).toMatchObject({ history_gated: true, history_years_available: 3, latest: { fiscal_year: 2023 } });

      const followed = await insertDistrict(t.db, { name: "Blocks followed" });
      for (const fy of [2022, 2023]) await insertSpecialEducationFinance(t.db, followed, fy);
      await insertFollow(t.db, t.orgs.free, "district", followed);
      const open = (await detail(followed, "free")).special_education_finance;
      expect(open.trend.map((e: { fiscal_year: number }) => e.fiscal_year)).toEqual([2022, 2023]);
      expect(open.history_gated).toBe(false);
      // Another organization's follow does not open history for the free organization.
      const other = await insertDistrict(t.db, { name: "Blocks followed by pro" });
      for (const fy of [2022, 2023]) await insertSpecialEducationFinance(t.db, other, fy);
      await insertFollow(t.db, t.orgs.pro, "district", other);
      expect((await detail(other, "free")).special_education_finance).toMatchObject({
        history_gated: true,
        trend: [{ fiscal_year: 2023 }],
      });
    });

    it("a district without finance rows has latest null and an empty trend", async () => {
      expect((await detail(bare)).special_education_finance).toEqual({
        data_source: null,
        latest: null,
        trend: [],
        history_gated: false,
        history_years_available: 0,
        caveat: expect.any(String),
      });
    });
  });

  describe("extracted intelligence", () => {
    it("an unlocked district shows the five lists with their fields", async () => {
      const record = await detail(withData);
      expect(record.pain_points).toEqual([
        {
          id: intel.painPointId,
          data_source: "test",
          category: "staffing",
          description: "Shortage A",
          source_url: "https://example.test/pain",
          detected_at: "2026-03-01T00:00:00.000Z",
        },
      ]);
      expect(record.vendors).toEqual([
        { id: intel.vendorId, data_source: "test", name: expect.stringMatching(/^Vendor A /), category: "lms" },
      ]);
      expect(record.funding).toEqual([
        { id: intel.fundingId, data_source: "test", source: "title_i", amount: 125000.5, fiscal_year: 2026, description: "Title I" },
      ]);
      expect(record.contracts).toEqual([
        {
          id: intel.contractId,
          data_source: "test",
          vendor_id: intel.vendorId,
          vendor_name: record.vendors[0].name,
          category: "lms",
          amount: 50000,
          starts_on: "2025-07-01",
          expires_on: "2027-06-30",
        },
      ]);
      // Latest posted first; an open bid whose deadline passed is closed.
      expect(record.bids.map((b: { id: string; status: string }) => [b.id, b.status])).toEqual([
        [intel.openBidId, "open"],
        [intel.lapsedBidId, "closed"],
      ]);
      expect(record.bids[0]).toMatchObject({
        data_source: "test",
        title: "Open RFP A",
        posted_on: "2026-10-01",
        url: "https://example.test/rfp-open",
      });
      expect(record.bids[0].deadline_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it("a bid's filing is the caller's organization's own", async () => {
      const mine = (await detail(withData, "enterprise")).bids;
      expect(mine[0].filing).toEqual({
        action: "not_useful",
        reason_code: "wrong_scope",
        reason_note: "Not our market",
        filed_at: expect.stringMatching(/Z$/),
      });
      expect(mine[1].filing).toBeNull();
      const theirs = (await detail(withData, "pro")).bids;
      expect(theirs.map((b: { filing: unknown }) => b.filing)).toEqual([null, null]);
    });

    it("locked districts show null lists: never unlocked, unlocked by another organization, or still pending", async () => {
      for (const id of [bare, lockedWithData, pending]) {
        const record = await detail(id, "enterprise");
        for (const key of INTELLIGENCE) expect([id, key, record[key]]).toEqual([id, key, null]);
      }
      // The organization that unlocked it sees the lists (an empty list is not null).
      const pro = await detail(lockedWithData, "pro");
      expect(pro.pain_points).toHaveLength(1);
      expect((await detail(withData, "free")).pain_points).toBeNull();
    });

    it("a locked district costs no intelligence statement; an unlocked one costs one for all its lists", async () => {
      const fields = "painPoints { id } vendors { id } funding { id } contracts { id } bids { id filing { action } }";
      const statements = async (id: string, selection: string) => {
        await t.graphql(`query($id: UUID!) { district(id: $id) { id } }`, { id }); // warm the key cache
        const { statements, result: res } = await measureStatements(t.db, () =>
          t.graphql(`query($id: UUID!) { district(id: $id) { id ${selection} } }`, { id }),
        );
        expect(res.errors).toBeUndefined();
        return statements;
      };
      const plain = await statements(lockedWithData, "");
      expect(await statements(lockedWithData, fields)).toBe(plain);
      // The five lists in one statement (src/features/kits/blocks/block.loaders.ts); the bids' filings add none.
      expect(await statements(withData, fields)).toBe(plain + 1);
    });
  });

  describe("events field", () => {
    it("District.events lists the district's events chronologically", async () => {
      const id = await insertDistrict(t.db, { name: "Blocks events" });
      await insertEvent(t.db, "district", id, "2026-05-02", { title: "later" });
      await insertEvent(t.db, "district", id, "2026-01-15", { title: "earlier", event_type: "press_release" });
      await insertEvent(t.db, "school", id, "2026-01-01", { title: "not a district event" });
      const res = await t.graphql(`query($id: UUID!) { district(id: $id) { events { title eventType eventDate entityType entityId } } }`, {
        id,
      });
      expect(res.errors).toBeUndefined();
      expect(res.data.district.events).toEqual([
        { title: "earlier", eventType: "press_release", eventDate: "2026-01-15", entityType: "district", entityId: id },
        { title: "later", eventType: "news", eventDate: "2026-05-02", entityType: "district", entityId: id },
      ]);
    });
  });
});

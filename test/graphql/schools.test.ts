import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { insertSchool, insertSchoolBreakdown, insertSchoolStats, insertUnlock } from "../support/school-factories";
import { measureStatements } from "../support/statements";

describe("schools over GraphQL: District.schools, School.district, updateSchool, batching", () => {
  let t: TestApp;
  const districts: string[] = [];
  const schoolsOf: Record<string, string[]> = {};
  let orphan = "";

  beforeAll(async () => {
    t = await createTestApp();
    // District i has i schools (0..5); names sort as district order, schools as "S<i>-<j>".
    for (let i = 0; i < 6; i += 1) {
      const id = await insertDistrict(t.db, { name: `District ${i}`, state: "NE" });
      districts.push(id);
      schoolsOf[id] = [];
      for (let j = 0; j < i; j += 1) {
        const school = await insertSchool(t.db, {
          name: `S${i}-${j}`,
          district_id: id,
          student_count: 100 * (j + 1),
          ai_summary: `summary ${i}-${j}`,
        });
        schoolsOf[id].push(school);
        await insertSchoolStats(t.db, school, 2022, { total_enrollment: 90 * (j + 1) });
        await insertSchoolStats(t.db, school, 2023, { total_enrollment: 100 * (j + 1) });
        await insertSchoolBreakdown(t.db, school, 2023, "enrollment_grade", "grade", "KG", 10);
      }
    }
    orphan = await insertSchool(t.db, { name: "Orphan School" });
    await insertUnlock(t.db, t.orgs.enterprise, "school", schoolsOf[districts[2]][0]);
  });
  afterAll(() => t.close());

  it("District.schools pages each district's schools; School.district leads back", async () => {
    const res = await t.graphql(`{
      districts(limit: 10) { data { id name
        schools(limit: 2, orderBy: student_count, orderAscending: false) {
          data { id name studentCount aiSummary _access { isUnlocked } district { id name } }
          pagination { total limit offset hasMore } } } } }`);
    expect(res.errors).toBeUndefined();
    const data = res.data.districts.data as { id: string; name: string; schools: { data: any[]; pagination: any } }[];
    expect(data.map((d) => d.name)).toEqual(["District 0", "District 1", "District 2", "District 3", "District 4", "District 5"]);
    for (const [i, d] of data.entries()) {
      expect(d.schools.pagination).toEqual({ total: i, limit: 2, offset: 0, hasMore: i > 2 });
      const expected = Array.from({ length: i }, (_, j) => `S${i}-${j}`)
        .reverse()
        .slice(0, 2);
      expect(d.schools.data.map((s) => s.name)).toEqual(expected);
      for (const s of d.schools.data) expect(s.district).toEqual({ id: d.id, name: d.name });
    }
    const d2 = data[2].schools.data;
    expect(d2.find((s) => s.name === "S2-0")).toMatchObject({ aiSummary: "summary 2-0", _access: { isUnlocked: true } });
    expect(d2.find((s) => s.name === "S2-1")).toMatchObject({ aiSummary: null, _access: { isUnlocked: false } });
  });

  it("District.schools offset past a district's end still reports its total; default order is name", async () => {
    const res = await t.graphql(`{ districts { data { name schools(offset: 3) { data { name } pagination { total offset hasMore } } } } }`);
    expect(res.errors).toBeUndefined();
    const byName = Object.fromEntries(res.data.districts.data.map((d: any) => [d.name, d.schools]));
    expect(byName["District 2"]).toEqual({ data: [], pagination: { total: 2, offset: 3, hasMore: false } });
    expect(byName["District 5"]).toEqual({
      data: [{ name: "S5-3" }, { name: "S5-4" }],
      pagination: { total: 5, offset: 3, hasMore: false },
    });
    expect(byName["District 0"].pagination.total).toBe(0);
  });

  it("District.schools validates its paging", async () => {
    for (const args of ["limit: 0", "limit: 201", "offset: -1"]) {
      const res = await t.graphql(`{ districts(limit: 1) { data { schools(${args}) { data { id } } } } }`);
      expect(res.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
      expect(res.errors?.[0].message).toMatch(/limit|offset/);
    }
  });

  it("school(id) and schools reach the district; a school without one has district null", async () => {
    const id = schoolsOf[districts[3]][1];
    const res = await t.graphql(
      `query($id: UUID!, $orphan: UUID!) {
        school(id: $id) { name district { name schools(limit: 1) { data { name } pagination { total } } } }
        orphan: school(id: $orphan) { name districtId district { id } }
        missing: school(id: "00000000-0000-4000-8000-000000000000") { id }
        schools(filter: { districtId: "${districts[3]}" }) { data { name district { name } } pagination { total } } }`,
      { id, orphan },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.school).toEqual({
      name: "S3-1",
      district: { name: "District 3", schools: { data: [{ name: "S3-0" }], pagination: { total: 3 } } },
    });
    expect(res.data.orphan).toEqual({ name: "Orphan School", districtId: null, district: null });
    expect(res.data.missing).toBeNull();
    expect(res.data.schools.pagination.total).toBe(3);
    expect(res.data.schools.data.every((s: any) => s.district.name === "District 3")).toBe(true);
  });

  it("updateSchool: internal plan only, validated, returns the record", async () => {
    const id = schoolsOf[districts[1]][0];
    const mutation = `mutation($id: UUID!, $input: UpdateSchoolInput!) { updateSchool(id: $id, input: $input) { id name phone district { name } } }`;
    const denied = await t.graphql(mutation, { id, input: { phone: "(402)555-0000" } }, "enterprise");
    expect(denied.errors?.[0].extensions.code).toBe("FORBIDDEN");
    const bad = await t.graphql(mutation, { id, input: { studentCount: -1 } }, "internal");
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" }, message: expect.stringContaining("student_count") });
    const ok = await t.graphql(mutation, { id, input: { phone: "(402)555-0000" } }, "internal");
    expect(ok.errors).toBeUndefined();
    expect(ok.data.updateSchool).toEqual({ id, name: "S1-0", phone: "(402)555-0000", district: { name: "District 1" } });
  });

  it("a nested districts { schools { district } } query runs the same statements for limit 1 and 200", async () => {
    const query = (limit: number) => `{ districts(limit: ${limit}, orderAscending: false) { data { id
        schools(limit: 10) { data { id name district { id name }
          annualStatistics { latest { totalEnrollment } trend { schoolYearStart } latestBreakdowns { enrollmentGrade { rows { value } } } } }
          pagination { total } } } } }`;
    const count = async (limit: number) => {
      await t.graphql(query(limit));
      const { statements, result: res } = await measureStatements(t.db, () => t.graphql(query(limit)));
      expect(res.errors).toBeUndefined();
      expect(res.data.districts.data).toHaveLength(Math.min(limit, 6));
      return statements;
    };
    const one = await count(1);
    const many = await count(200);
    expect(one).toBe(many);
    expect(many).toBe(5); // key lookup, districts, schools of all districts, school stats, breakdowns
  });

  it("a schools { district { schools } } query runs the same statements for limit 1 and 200", async () => {
    const query = (limit: number) =>
      `{ schools(limit: ${limit}, orderBy: student_count, orderAscending: false) { data { id district { id schools(limit: 3) { data { id district { id } } } } } } }`;
    const count = async (limit: number) => {
      await t.graphql(query(limit));
      const { statements, result: res } = await measureStatements(t.db, () => t.graphql(query(limit)));
      expect(res.errors).toBeUndefined();
      return statements;
    };
    const one = await count(1);
    expect(await count(200)).toBe(one);
    expect(one).toBe(4); // key lookup, schools, their districts, the districts' school pages
  });
});

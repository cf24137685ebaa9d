/**
 * Lookups by NCES id (`fed_ids` on the district and school lists, GET /districts|schools/by-fed-id/{fed_id})
 * and `updated_since` on the catalogue lists, on REST and GraphQL, with hostile values and statement counts.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertCenter, insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements } from "../support/statements";

describe("NCES id lookups and incremental sync", () => {
  let t: TestApp;
  const districts: { id: string; fedId: string }[] = [];
  const schools: { id: string; fedId: string }[] = [];
  const OLD = "2020-01-01T00:00:00.000Z";
  const NEW = "2026-06-01T12:00:00.000Z";

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 4; i += 1) {
      const fedId = `31${String(70000 + i).padStart(5, "0")}`;
      const id = await insertDistrict(t.db, { fed_id: fedId, state: "NE", last_updated_at: i < 2 ? OLD : NEW });
      districts.push({ id, fedId });
      const schoolFedId = `${fedId}${String(i).padStart(5, "0")}`;
      schools.push({
        id: await insertSchool(t.db, { fed_id: schoolFedId, district_id: id, district_fed_id: fedId, last_updated_at: i < 2 ? OLD : NEW }),
        fedId: schoolFedId,
      });
    }
    for (const [i, when] of [OLD, NEW].entries()) {
      await insertOperator(t.db, { name: `Sync Operator ${i}`, updated_at: when });
      await insertHeadStart(t.db, { name: `Sync Program ${i}`, state: "NE", updated_at: when });
      await insertCenter(t.db, { name: `Sync Center ${i}`, state: "NE", updated_at: when });
    }
  });
  afterAll(() => t.close());

  const ids = (body: { data: { id: string }[] }) => body.data.map((row) => row.id).sort();

  describe("fed_ids", () => {
    it("districts: the rows with those NCES ids, REST (GET and POST twin) and GraphQL", async () => {
      const wanted = [districts[0], districts[2]];
      const res = await t.get(`/api/v1/districts?fed_ids=${wanted.map((d) => d.fedId).join(",")}`).expect(200);
      expect(ids(res.body)).toEqual(wanted.map((d) => d.id).sort());
      expect(res.body.pagination.total).toBe(2);
      const post = await t.post("/api/v1/districts", { fed_ids: `${districts[1].fedId}, ${districts[1].fedId}` }).expect(200);
      expect(ids(post.body)).toEqual([districts[1].id]);
      const gql = await t.graphql(`query($f: [String!]) { districts(filter: { fedIds: $f }) { data { id fedId } } }`, {
        f: [districts[3].fedId],
      });
      expect(gql.data.districts.data).toEqual([{ id: districts[3].id, fedId: districts[3].fedId }]);
      // A well-formed id nobody has matches nothing.
      const none = await t.get("/api/v1/districts?fed_ids=0000000").expect(200);
      expect(none.body.pagination.total).toBe(0);
    });

    it("schools: 12-digit ids", async () => {
      const res = await t.get(`/api/v1/schools?fed_ids=${schools[1].fedId},${schools[3].fedId}`).expect(200);
      expect(ids(res.body)).toEqual([schools[1].id, schools[3].id].sort());
      const gql = await t.graphql(`{ schools(filter: { fedIds: ["${schools[0].fedId}"] }) { data { id } } }`);
      expect(gql.data.schools.data).toEqual([{ id: schools[0].id }]);
    });

    it("bad fed_ids: 400 with the generic body naming the parameter and the id", async () => {
      const cases: [string, RegExp][] = [
        ["/api/v1/districts?fed_ids=123", /fed_ids: "123" is not a 7-digit NCES district id/],
        ["/api/v1/districts?fed_ids=31700001", /fed_ids: "31700001" is not a 7-digit/],
        ["/api/v1/districts?fed_ids=317000a", /not a 7-digit/],
        ["/api/v1/districts?fed_ids=%E2%80%8B3170000", /not a 7-digit/],
        ["/api/v1/districts?fed_ids=,,,", /fed_ids must be a non-empty comma-separated list/],
        ["/api/v1/districts?fed_ids=", /fed_ids/],
        [`/api/v1/districts?fed_ids=${districts[0].fedId}`.replace(/\d$/, "%00"), /fed_ids/],
        [`/api/v1/schools?fed_ids=${districts[0].fedId}`, /is not a 12-digit NCES school id/],
        [
          `/api/v1/districts?fed_ids=${Array.from({ length: 1001 }, (_, i) => String(1000000 + i)).join(",")}`,
          /at most 1000 ids; got 1001/,
        ],
        [`/api/v1/districts?fed_ids=${"9".repeat(5000)}`, /not a 7-digit/],
      ];
      for (const [path, message] of cases) {
        const res = await t.get(path);
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
        expect(res.body.message).toMatch(message);
      }
      const gql = await t.graphql(`{ districts(filter: { fedIds: ["abc"] }) { data { id } } }`);
      expect(gql.errors![0]).toMatchObject({
        message: 'fed_ids: "abc" is not a 7-digit NCES district id',
        extensions: { code: "BAD_USER_INPUT" },
      });
    });

    it("one statement for the page at limit 1 and 200 (plus the key lookup)", async () => {
      const list = districts.map((d) => d.fedId).join(",");
      for (const limit of [1, 200]) {
        expect(await countStatements(t.db, () => t.get(`/api/v1/districts?fed_ids=${list}&limit=${limit}`).expect(200))).toBe(2);
        expect(
          await countStatements(t.db, () =>
            t.get(`/api/v1/schools?fed_ids=${schools.map((s) => s.fedId).join(",")}&limit=${limit}`).expect(200),
          ),
        ).toBe(2);
      }
    });
  });

  describe("by-fed-id", () => {
    it("GET /districts/by-fed-id/{fed_id} answers the same body as GET /districts/{id}", async () => {
      const byId = await t.get(`/api/v1/districts/${districts[1].id}`).expect(200);
      const byFedId = await t.get(`/api/v1/districts/by-fed-id/${districts[1].fedId}`).expect(200);
      expect(byFedId.body).toEqual(byId.body);
      expect(byFedId.headers.etag).toBe(byId.headers.etag);
      await t.get(`/api/v1/districts/by-fed-id/${districts[1].fedId}`).set("If-None-Match", byId.headers.etag).expect(304);
      const school = await t.get(`/api/v1/schools/by-fed-id/${schools[2].fedId}`).expect(200);
      expect(school.body).toEqual((await t.get(`/api/v1/schools/${schools[2].id}`).expect(200)).body);
      const gql = await t.graphql(
        `{ districtByFedId(fedId: "${districts[0].fedId}") { id } schoolByFedId(fedId: "${schools[0].fedId}") { id } }`,
      );
      expect(gql.data).toEqual({ districtByFedId: { id: districts[0].id }, schoolByFedId: { id: schools[0].id } });
    });

    it("404 for an id nobody has, 400 for one that is not an NCES id", async () => {
      const missing = await t.get("/api/v1/districts/by-fed-id/0000000").expect(404);
      expect(missing.body).toMatchObject({ error: "not_found", statusCode: 404 });
      await t.get("/api/v1/schools/by-fed-id/000000000000").expect(404);
      for (const bad of ["123", "12345678", "abcdefg", "%20317000", "3170000%00", "1".repeat(300)]) {
        const res = await t.get(`/api/v1/districts/by-fed-id/${bad}`);
        expect([bad, res.status]).toEqual([bad, 400]);
        expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
        expect(res.body.message).toMatch(/^fed_id/);
      }
      const school = await t.get(`/api/v1/schools/by-fed-id/${districts[0].fedId}`).expect(400);
      expect(school.body.message).toMatch(/is not a 12-digit NCES school id/);
      const gql = await t.graphql(`{ districtByFedId(fedId: "x") { id } }`);
      expect(gql.errors![0].extensions.code).toBe("BAD_USER_INPUT");
    });

    it("statements: one more than the read by id (the fed id's key lookup)", async () => {
      const byId = await countStatements(t.db, () => t.get(`/api/v1/districts/${districts[0].id}`).expect(200));
      const byFedId = await countStatements(t.db, () => t.get(`/api/v1/districts/by-fed-id/${districts[0].fedId}`).expect(200));
      expect(byFedId).toBe(byId + 1);
      const schoolById = await countStatements(t.db, () => t.get(`/api/v1/schools/${schools[0].id}`).expect(200));
      const schoolByFedId = await countStatements(t.db, () => t.get(`/api/v1/schools/by-fed-id/${schools[0].fedId}`).expect(200));
      expect(schoolByFedId).toBe(schoolById + 1);
      // A GraphQL request asking for several fed ids batches them into one lookup.
      const many = `{ ${districts.map((d, i) => `d${i}: districtByFedId(fedId: "${d.fedId}") { id }`).join(" ")} }`;
      const one = `{ d0: districtByFedId(fedId: "${districts[0].fedId}") { id } }`;
      expect(await countStatements(t.db, () => t.graphql(many))).toBe(await countStatements(t.db, () => t.graphql(one)));
    });
  });

  describe("updated_since", () => {
    const lists: [string, string, number][] = [
      ["/api/v1/districts", "districts", 2],
      ["/api/v1/schools", "schools", 2],
      ["/api/v1/operators", "operators", 1],
      ["/api/v1/head-start-programs", "head_start_programs", 1],
      ["/api/v1/childcare-centers", "childcare_centers", 1],
    ];

    it("each catalogue list returns the rows changed at or after the instant", async () => {
      for (const [path, name, changed] of lists) {
        const all = await t.get(`${path}?limit=200`).expect(200);
        const recent = await t.get(`${path}?limit=200&updated_since=2025-01-01T00:00:00Z`).expect(200);
        expect([name, recent.body.pagination.total]).toEqual([name, changed]);
        expect(all.body.pagination.total).toBeGreaterThan(changed);
        // Inclusive: the exact instant of the newest change still matches.
        const exact = await t.get(`${path}?updated_since=${encodeURIComponent(NEW)}`).expect(200);
        expect([name, exact.body.pagination.total]).toEqual([name, changed]);
        // An offset other than Z is the same instant.
        const offset = await t.get(`${path}?updated_since=${encodeURIComponent("2026-06-01T14:00:00.001+02:00")}`).expect(200);
        expect([name, offset.body.pagination.total]).toEqual([name, 0]);
      }
      const district = await t.get("/api/v1/districts?updated_since=2025-01-01T00:00:00Z").expect(200);
      expect(ids(district.body)).toEqual([districts[2].id, districts[3].id].sort());
      const gql = await t.graphql(`{ districts(filter: { updatedSince: "2025-01-01T00:00:00Z" }) { pagination { total } } }`);
      expect(gql.data.districts.pagination.total).toBe(2);
      const gqlCenters = await t.graphql(`{ childcareCenters(filter: { updatedSince: "2025-01-01T00:00:00Z" }) { pagination { total } } }`);
      expect(gqlCenters.data.childcareCenters.pagination.total).toBe(1);
    });

    it("a write moves a record into the next sync", async () => {
      const since = new Date().toISOString();
      const before = await t.get(`/api/v1/schools?updated_since=${encodeURIComponent(since)}`).expect(200);
      expect(before.body.pagination.total).toBe(0);
      await t.http
        .patch(`/api/v1/schools/${schools[0].id}`)
        .set("Authorization", `Bearer ${t.keys.internal}`)
        .send({ phone: "402-555-0111" })
        .expect(200);
      const after = await t.get(`/api/v1/schools?updated_since=${encodeURIComponent(since)}`).expect(200);
      expect(ids(after.body)).toEqual([schools[0].id]);
    });

    it("bad updated_since: 400 with the generic body naming the parameter", async () => {
      for (const bad of [
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-01-01",
        "2026-01-01T00:00:00",
        "+275760-09-13T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "%00",
        "1".repeat(3000),
        "",
      ]) {
        for (const path of ["/api/v1/districts", "/api/v1/operators"]) {
          const res = await t.get(`${path}?updated_since=${encodeURIComponent(bad)}`);
          expect([bad, path, res.status]).toEqual([bad, path, 400]);
          expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
          expect(res.body.message).toMatch(/updated_since/);
        }
      }
      const gql = await t.graphql(`{ schools(filter: { updatedSince: "nope" }) { data { id } } }`);
      expect(gql.errors![0].extensions.code).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
    });

    it("one statement for the page at limit 1 and 200 (plus the key lookup)", async () => {
      for (const [path] of lists) {
        for (const limit of [1, 200]) {
          const n = await countStatements(t.db, () => t.get(`${path}?updated_since=2025-01-01T00:00:00Z&limit=${limit}`).expect(200));
          expect([path, limit, n]).toEqual([path, limit, 2]);
        }
      }
    });
  });
});

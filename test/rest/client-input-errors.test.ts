/**
 * Hostile client input answers a 4xx with the generic body { error, message, statusCode } naming the
 * problem, never a 500: malformed percent escapes in path parameters, bodies that do not match their
 * Content-Encoding, deeply nested JSON, unknown PATCH properties, upper-case UUIDs in paths, and
 * values PostgreSQL would refuse (its own error text never reaches the caller).
 */
import zlib from "node:zlib";
import { createTestApp, type TestApp } from "../support/app";
import { insertEvent } from "../support/block-factories";
import { insertDistrict } from "../support/factories";
import { insertCenter, insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { insertSchool } from "../support/school-factories";

describe("client input errors", () => {
  let t: TestApp;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    id.district = await insertDistrict(t.db, { name: "Input District", state: "NE" });
    id.school = await insertSchool(t.db, { name: "Input School", state: "NE", district_id: id.district });
    id.operator = await insertOperator(t.db, { name: "Input Operator" });
    id.headStart = await insertHeadStart(t.db, { name: "Input Head Start", state: "NE", operator_id: id.operator });
    id.center = await insertCenter(t.db, { name: "Input Center", state: "NE", operator_id: id.operator });
    id.districtEvent = await insertEvent(t.db, "district", id.district, "2026-01-05", { title: "District event" });
    id.schoolEvent = await insertEvent(t.db, "school", id.school, "2026-01-06", { title: "School event" });
  });
  afterAll(() => t.close());

  /** The bytes as they are: superagent would JSON-encode a Buffer sent with a JSON Content-Type. */
  const raw = (bytes: Buffer) => (body: unknown) => (body === bytes ? bytes : body) as string;
  const auth = (plan: "enterprise" | "internal" = "enterprise") => `Bearer ${t.keys[plan]}`;
  /** The exact status and the generic body, nothing else; `label` names the case when one fails. */
  const expectGeneric = (
    res: { status: number; body: Record<string, unknown> },
    status: number,
    error: string,
    message: RegExp,
    label = "",
  ) => {
    expect([label, res.status, res.body]).toEqual([label, status, { error, message: expect.stringMatching(message), statusCode: status }]);
  };

  const detailPaths = (uuid: string) => [
    `/api/v1/districts/${uuid}`,
    `/api/v1/districts/${uuid}/events`,
    `/api/v1/schools/${uuid}`,
    `/api/v1/schools/${uuid}/events`,
    `/api/v1/operators/${uuid}`,
    `/api/v1/head-start-programs/${uuid}`,
    `/api/v1/childcare-centers/${uuid}`,
  ];

  describe("malformed percent escapes in path parameters", () => {
    it("answers 400 bad_request naming the segment on every detail route", async () => {
      for (const path of detailPaths("%zz")) {
        expectGeneric(await t.get(path), 400, "bad_request", /path segment "%zz" is not valid percent-encoding/, path);
      }
      const patch = await t.http.patch("/api/v1/schools/%zz").set("Authorization", auth("internal")).send({ name: "x" });
      expectGeneric(patch, 400, "bad_request", /path segment "%zz"/);
      const partial = await t.get("/api/v1/districts/abc%E0%A4%A");
      expectGeneric(partial, 400, "bad_request", /path segment "abc%E0%A4%A"/);
    });
  });

  describe("request bodies that do not match their Content-Encoding", () => {
    const plain = Buffer.from(JSON.stringify({ state: "NE" }));
    const plainQuery = Buffer.from(JSON.stringify({ query: "{ districts { pagination { total } } }" }));

    it("answers 400 bad_request on REST and GraphQL for gzip, deflate and br headers over plain bytes", async () => {
      for (const encoding of ["gzip", "deflate", "br"]) {
        const rest = await t.http
          .post("/api/v1/districts")
          .set("Authorization", auth())
          .set("Content-Type", "application/json")
          .set("Content-Encoding", encoding)
          .serialize(raw(plain))
          .send(plain);
        expectGeneric(rest, 400, "bad_request", new RegExp(`request body does not match its Content-Encoding ${encoding}`), encoding);
        const gql = await t.http
          .post("/graphql")
          .set("Authorization", auth())
          .set("Content-Type", "application/json")
          .set("Content-Encoding", encoding)
          .serialize(raw(plainQuery))
          .send(plainQuery);
        expectGeneric(gql, 400, "bad_request", new RegExp(`request body does not match its Content-Encoding ${encoding}`), encoding);
      }
      const truncated = zlib.gzipSync(plain).subarray(0, 12);
      const cut = await t.http
        .post("/api/v1/districts")
        .set("Authorization", auth())
        .set("Content-Type", "application/json")
        .set("Content-Encoding", "gzip")
        .serialize(raw(truncated))
        .send(truncated);
      expectGeneric(cut, 400, "bad_request", /request body does not match its Content-Encoding gzip/);
    });

    it("an unsupported Content-Encoding answers 400 bad_request naming it", async () => {
      const res = await t.http
        .post("/api/v1/districts")
        .set("Authorization", auth())
        .set("Content-Type", "application/json")
        .set("Content-Encoding", "x-squash")
        .serialize(raw(plain))
        .send(plain);
      expectGeneric(res, 400, "bad_request", /unsupported Content-Encoding "x-squash"/);
    });

    it("a valid gzip (and deflate, br) body still works on REST and GraphQL", async () => {
      const encoders: Record<string, (b: Buffer) => Buffer> = {
        gzip: zlib.gzipSync,
        deflate: zlib.deflateSync,
        br: zlib.brotliCompressSync,
      };
      for (const [encoding, encode] of Object.entries(encoders)) {
        const restBytes = encode(Buffer.from(JSON.stringify({ search: "Input District" })));
        const gqlBytes = encode(Buffer.from(JSON.stringify({ query: `{ district(id: "${id.district}") { name } }` })));
        const rest = await t.http
          .post("/api/v1/districts")
          .set("Authorization", auth())
          .set("Content-Type", "application/json")
          .set("Content-Encoding", encoding)
          .serialize(raw(restBytes))
          .send(restBytes);
        expect([encoding, rest.status]).toEqual([encoding, 200]);
        expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual([id.district]);
        const gql = await t.http
          .post("/graphql")
          .set("Authorization", auth())
          .set("Content-Type", "application/json")
          .set("Content-Encoding", encoding)
          .serialize(raw(gqlBytes))
          .send(gqlBytes);
        // (extensions.cost beside data: test/http/conventions.test.ts)
        expect([encoding, gql.status, gql.body.errors, gql.body.data]).toEqual([
          encoding,
          200,
          undefined,
          { district: { name: "Input District" } },
        ]);
      }
    });
  });

  describe("deeply nested JSON bodies", () => {
    const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const nestedArray = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    const send = (method: "patch" | "post", path: string, json: string, plan: "enterprise" | "internal" = "internal") =>
      t.http[method](path).set("Authorization", auth(plan)).set("Content-Type", "application/json").send(json);

    it("PATCH /schools/{id} with JSON nested 5,000 deep answers 400 naming the depth limit", async () => {
      const cases = [nestedObject(5000), `{"name":${nestedObject(4999)}}`, `{"name":${nestedArray(4999)}}`, nestedArray(5000)];
      for (const json of cases) {
        const res = await send("patch", `/api/v1/schools/${id.school}`, json);
        expectGeneric(res, 400, "bad_request", /the request body is nested deeper than 64 levels/, json.slice(0, 12));
      }
      const unchanged = await t.get(`/api/v1/schools/${id.school}`).expect(200);
      expect(unchanged.body.data.name).toBe("Input School");
    });

    it("the limit is 64 levels: 64 passes the check, 65 does not", async () => {
      const at = await send("patch", `/api/v1/schools/${id.school}`, `{"name":${nestedObject(63)}}`);
      expect(at.status).toBe(400);
      expect(at.body.message).not.toMatch(/nested deeper/);
      expect(at.body.message).toMatch(/name/);
      const over = await send("patch", `/api/v1/schools/${id.school}`, `{"name":${nestedObject(64)}}`);
      expectGeneric(over, 400, "bad_request", /nested deeper than 64 levels/);
    });

    it("POST /api/v1/districts and POST /graphql refuse it too", async () => {
      const rest = await send("post", "/api/v1/districts", `{"state":${nestedArray(5000)}}`, "enterprise");
      expectGeneric(rest, 400, "bad_request", /the request body is nested deeper than 64 levels/);
      const gql = await send(
        "post",
        "/graphql",
        `{"query":"query($f: DistrictFilter) { districts(filter: $f) { pagination { total } } }","variables":{"f":${nestedObject(5000)}}}`,
        "enterprise",
      );
      expectGeneric(gql, 400, "bad_request", /the request body is nested deeper than 64 levels/);
    });
  });

  describe("unknown PATCH body properties", () => {
    it("names the property as the caller wrote it", async () => {
      const patch = (body: unknown) =>
        t.http
          .patch(`/api/v1/schools/${id.school}`)
          .set("Authorization", auth("internal"))
          .send(body as object);
      expectGeneric(await patch({ no_such_field: "x" }), 400, "bad_request", /^unknown body property no_such_field$/);
      expectGeneric(await patch({ name: "Fine", colour: "red" }), 400, "bad_request", /^unknown body property colour$/);
      expectGeneric(await patch({ phone: "1", no_such: { nested: 1 } }), 400, "bad_request", /^unknown body property no_such$/);
      // The camelCase spelling of a real property is not another name for it.
      expectGeneric(await patch({ phone: "1", studentCount: 5 }), 400, "bad_request", /^unknown body property studentCount$/);
      const unchanged = await t.get(`/api/v1/schools/${id.school}`).expect(200);
      expect(unchanged.body.data.name).toBe("Input School");
    });
  });

  describe("UUIDs in any letter case", () => {
    it("every detail route finds the record by its upper-case id", async () => {
      const upper: Record<string, string> = {
        [`/api/v1/districts/${id.district.toUpperCase()}`]: id.district,
        [`/api/v1/schools/${id.school.toUpperCase()}`]: id.school,
        [`/api/v1/operators/${id.operator.toUpperCase()}`]: id.operator,
        [`/api/v1/head-start-programs/${id.headStart.toUpperCase()}`]: id.headStart,
        [`/api/v1/childcare-centers/${id.center.toUpperCase()}`]: id.center,
      };
      for (const [path, expected] of Object.entries(upper)) {
        const res = await t.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect(res.body.data.id).toBe(expected);
      }
      const events: Record<string, string> = {
        [`/api/v1/districts/${id.district.toUpperCase()}/events`]: id.districtEvent,
        [`/api/v1/schools/${id.school.toUpperCase()}/events`]: id.schoolEvent,
      };
      for (const [path, expected] of Object.entries(events)) {
        const res = await t.get(path);
        expect([path, res.status, res.body.data?.map((e: { id: string }) => e.id)]).toEqual([path, 200, [expected]]);
      }
      const patched = await t.http
        .patch(`/api/v1/schools/${id.school.toUpperCase()}`)
        .set("Authorization", auth("internal"))
        .send({ phone: "(402)555-0100" });
      expect([patched.status, patched.body.data?.id, patched.body.data?.phone]).toEqual([200, id.school, "(402)555-0100"]);
    });

    it("GraphQL arguments and ids= lists accept upper-case UUIDs too", async () => {
      const res = await t.graphql(`{ district(id: "${id.district.toUpperCase()}") { id name } }`);
      expect(res).toEqual({ data: { district: { id: id.district, name: "Input District" } } });
      const vars = await t.graphql(`query($id: UUID!) { school(id: $id) { id } }`, { id: id.school.toUpperCase() });
      expect(vars).toEqual({ data: { school: { id: id.school } } });
      const list = await t.get(`/api/v1/districts?ids=${id.district.toUpperCase()}`).expect(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([id.district]);
    });
  });

  describe("values PostgreSQL refuses", () => {
    const pgText = /invalid byte sequence|0x00|syntax|SQLSTATE|UTF8|violates|constraint|relation|column/i;

    it("a NUL character in a PATCH property or a query parameter answers 400 with our own message", async () => {
      const patch = await t.http
        .patch(`/api/v1/schools/${id.school}`)
        .set("Authorization", auth("internal"))
        .send({ name: "Bad\u0000Name" });
      // Refused before the service runs (variables are checked for NUL), in our words.
      expectGeneric(patch, 400, "bad_request", /NUL character/);
      const search = await t.get("/api/v1/districts?search=a%00b");
      expectGeneric(search, 400, "bad_request", /^search must not contain NUL characters$/);
      const body = await t.post("/api/v1/schools", { search: "a\u0000b" });
      expectGeneric(body, 400, "bad_request", /^search must not contain NUL characters$/);
      for (const res of [patch, search, body]) expect(res.body.message).not.toMatch(pgText);
    });

    it("a duplicate fed_id answers 409 with our message, not PostgreSQL's", async () => {
      const other = await insertSchool(t.db, { name: "Other Input School", fed_id: "770000000001" });
      expect(other).toBeTruthy();
      const res = await t.http
        .patch(`/api/v1/schools/${id.school}`)
        .set("Authorization", auth("internal"))
        .send({ fed_id: "770000000001" });
      expectGeneric(res, 409, "conflict", /^fed_id is already used by another school$/);
    });
  });
});

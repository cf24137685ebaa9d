/**
 * HTTP conventions (docs/http-conventions.md): compression, ETag/304 on detail reads, CORS, the 401
 * challenge, 405 with Allow, and the query cost reported on both faces.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { routes } from "../../rest-adapter/routes";
import { createTestApp, type TestApp } from "../support/app";
import { insertUnlock } from "../support/block-factories";
import { insertDistrict } from "../support/factories";

/** A raw response: the bytes as sent (no client-side decompression) and the headers. */
function raw(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("HTTP conventions", () => {
  let t: TestApp;
  let districtId: string;
  const auth = (plan: "free" | "pro" | "enterprise" | "internal" = "enterprise") => ({ Authorization: `Bearer ${t.keys[plan]}` });

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: "https://app.example.com,http://localhost:5173" });
    districtId = await insertDistrict(t.db, { ai_summary: "Gated summary text", state: "NE" });
    for (let i = 0; i < 30; i += 1) await insertDistrict(t.db, { state: "NE", phone: "402-555-0100", county: "Lancaster" });
    await insertUnlock(t.db, t.orgs.enterprise, "district", districtId);
  });
  afterAll(() => t.close());

  describe("compression", () => {
    it("gzip and brotli when asked, identity otherwise; the decoded bytes are the same JSON", async () => {
      const path = "/api/v1/districts?limit=50";
      const plain = await raw(t, path, auth());
      expect(plain.status).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(1024);
      const gzip = await raw(t, path, { ...auth(), "Accept-Encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
      expect(gzip.body.length).toBeLessThan(plain.body.length);
      const br = await raw(t, path, { ...auth(), "Accept-Encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      const decoded = [zlib.gunzipSync(gzip.body), zlib.brotliDecompressSync(br.body)].map((b) => JSON.parse(b.toString()));
      for (const body of decoded) expect(body.pagination).toEqual(JSON.parse(plain.body.toString()).pagination);
      expect(decoded[0].data.map((d: { id: string }) => d.id)).toEqual(
        JSON.parse(plain.body.toString()).data.map((d: { id: string }) => d.id),
      );
      // Both accepted: brotli is preferred.
      const both = await raw(t, path, { ...auth(), "Accept-Encoding": "gzip, deflate, br" });
      expect(both.headers["content-encoding"]).toBe("br");
    });

    it("small bodies (under 1 KiB) are not compressed", async () => {
      const res = await raw(t, "/healthz", { "Accept-Encoding": "gzip, br" });
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(res.body.toString())).toEqual({ status: "ok" });
    });

    it("a huge or nonsensical Accept-Encoding is no error: the response is served, compressed or not", async () => {
      // ~40 KB: within the 64 KiB of request line and headers.
      const huge = Array.from({ length: 2500 }, (_, i) => `x-enc-${i};q=0.${i % 10}`).join(", ");
      const res = await raw(t, "/api/v1/districts?limit=50", { ...auth(), "Accept-Encoding": huge });
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(res.body.toString()).data).toHaveLength(31);
      const junk = await raw(t, "/api/v1/districts?limit=50", { ...auth(), "Accept-Encoding": ";;;,,q=zz, gzip;q=abc, \u00ff" });
      expect(junk.status).toBe(200);
      // Beyond 64 KiB of headers: Node's parser refuses it, answered with the generic body.
      const over = await raw(t, "/api/v1/districts?limit=50", { ...auth(), "Accept-Encoding": "gzip, ".repeat(12_000) });
      expect(over.status).toBe(431);
      expect(JSON.parse(over.body.toString())).toMatchObject({ statusCode: 431 });
      const none = await raw(t, "/api/v1/districts?limit=50", { ...auth(), "Accept-Encoding": "gzip;q=0, br;q=0" });
      expect(none.status).toBe(200);
      expect(none.headers["content-encoding"]).toBeUndefined();
    });
  });

  describe("ETag and 304 on detail reads", () => {
    it("a weak ETag of the body; If-None-Match with it answers 304 with no body; private, revalidated", async () => {
      const first = await t.get(`/api/v1/districts/${districtId}`).expect(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers["cache-control"]).toBe("private, no-cache");
      expect(first.headers.vary).toMatch(/Authorization/);
      const again = await t.get(`/api/v1/districts/${districtId}`).set("If-None-Match", etag).expect(304);
      expect(again.text).toBe("");
      expect(again.headers.etag).toBe(etag);
      // In a list of tags, strong or weak spelling (weak comparison), and `*`.
      await t
        .get(`/api/v1/districts/${districtId}`)
        .set("If-None-Match", `"nope", ${etag.slice(2)}`)
        .expect(304);
      await t.get(`/api/v1/districts/${districtId}`).set("If-None-Match", "*").expect(304);
      // Compressed responses carry the same (weak) validator.
      const gz = await raw(t, `/api/v1/districts/${districtId}`, { ...auth(), "Accept-Encoding": "gzip", "If-None-Match": etag });
      expect(gz.status).toBe(304);
    });

    it("the ETag changes when the record changes", async () => {
      const before = (await t.get(`/api/v1/districts/${districtId}`).expect(200)).headers.etag;
      await t.db.query(`UPDATE districts SET phone = '402-555-0199', last_updated_at = now() WHERE id = $1`, [districtId]);
      const after = await t.get(`/api/v1/districts/${districtId}`).set("If-None-Match", before).expect(200);
      expect(after.headers.etag).not.toBe(before);
      expect(after.body.data.phone).toBe("402-555-0199");
    });

    it("gated data: each organization's ETag is of its own body; another organization's ETag never yields 304", async () => {
      const unlocked = await t.get(`/api/v1/districts/${districtId}`, "enterprise").expect(200);
      const locked = await t.get(`/api/v1/districts/${districtId}`, "pro").expect(200);
      expect(unlocked.body.data.ai_summary).toBe("Gated summary text");
      expect(locked.body.data.ai_summary).toBeNull();
      expect(unlocked.headers.etag).not.toBe(locked.headers.etag);
      const crossed = await t.get(`/api/v1/districts/${districtId}`, "pro").set("If-None-Match", unlocked.headers.etag).expect(200);
      expect(crossed.body.data.ai_summary).toBeNull();
    });

    it("malformed If-None-Match headers are ignored: the full response, never an error", async () => {
      for (const header of ['W/"', "garbage", '"unterminated', 'W/W/"x"', ",,,", `"${"a".repeat(9000)}"`, "\u00ff\u00fe"]) {
        const res = await raw(t, `/api/v1/districts/${districtId}`, { ...auth(), "If-None-Match": header });
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body.toString()).data.id).toBe(districtId);
      }
    });

    it("lists carry no ETag; a 404 detail carries none", async () => {
      const list = await t.get("/api/v1/districts").expect(200);
      expect(list.headers.etag).toBeUndefined();
      const missing = await t.get("/api/v1/districts/00000000-0000-4000-8000-000000000000").expect(404);
      expect(missing.headers.etag).toBeUndefined();
    });
  });

  describe("CORS", () => {
    it("a preflight from a configured origin is answered 204 without a key", async () => {
      const res = await t.http
        .options("/api/v1/districts")
        .set("Origin", "https://app.example.com")
        .set("Access-Control-Request-Method", "GET")
        .set("Access-Control-Request-Headers", "authorization")
        .expect(204);
      expect(res.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expect(res.headers["access-control-allow-methods"]).toMatch(/GET/);
      expect(res.headers["access-control-allow-headers"]).toMatch(/Authorization/);
      expect(res.headers["access-control-max-age"]).toBe("600");
      expect(res.headers.vary).toMatch(/Origin/);
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
      // GraphQL too.
      await t.http.options("/graphql").set("Origin", "http://localhost:5173").set("Access-Control-Request-Method", "POST").expect(204);
    });

    it("an actual request from a configured origin may read the response and its request id", async () => {
      const res = await t.get("/api/v1/districts").set("Origin", "https://app.example.com").expect(200);
      expect(res.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expect(res.headers["access-control-expose-headers"]).toMatch(/X-Request-Id/);
      expect(res.headers["access-control-expose-headers"]).toMatch(/ETag/);
    });

    it("another origin gets no CORS headers (the browser blocks it); the preflight still answers 204 without a key", async () => {
      const pre = await t.http
        .options("/api/v1/districts")
        .set("Origin", "https://evil.example.org")
        .set("Access-Control-Request-Method", "GET")
        .expect(204);
      expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
      expect(pre.headers["access-control-allow-methods"]).toBeUndefined();
      const res = await t.get("/api/v1/districts").set("Origin", "https://evil.example.org").expect(200);
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    });

    it("by default (CORS_ORIGINS unset) no origin is allowed; * allows any, without credentials", async () => {
      const closed = await createTestApp({}, { db: t.db });
      try {
        const res = await closed.http
          .options("/api/v1/districts")
          .set("Origin", "https://app.example.com")
          .set("Access-Control-Request-Method", "GET")
          .expect(204);
        expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      } finally {
        await closed.close();
      }
      const open = await createTestApp({ CORS_ORIGINS: "*" }, { db: t.db });
      try {
        const res = await open.get("/api/v1/districts").set("Origin", "https://anyone.example").expect(200);
        expect(res.headers["access-control-allow-origin"]).toBe("*");
        expect(res.headers.vary ?? "").not.toMatch(/Origin/);
      } finally {
        await open.close();
      }
    });

    it("CORS_ORIGINS that is not a list of origins is a configuration error", async () => {
      for (const bad of ["app.example.com", "https://app.example.com/path", "*, https://a.example", "ftp://x.example"]) {
        await expect(createTestApp({ CORS_ORIGINS: bad }, { db: t.db })).rejects.toThrow(/CORS_ORIGINS/);
      }
    });
  });

  describe("401 challenge", () => {
    it("WWW-Authenticate: Bearer on every 401, with error=invalid_token when a credential was refused", async () => {
      const missing = await t.http.get("/api/v1/districts").expect(401);
      expect(missing.headers["www-authenticate"]).toBe('Bearer realm="edmarket"');
      expect(missing.body).toMatchObject({ error: "unauthorized", statusCode: 401 });
      const bad = await t.http.get("/api/v1/districts").set("Authorization", "Bearer nope").expect(401);
      expect(bad.headers["www-authenticate"]).toBe('Bearer realm="edmarket", error="invalid_token"');
      const gql = await t.http.post("/graphql").send({ query: "{ __typename }" }).expect(401);
      expect(gql.headers["www-authenticate"]).toMatch(/^Bearer realm="edmarket"/);
      // A successful request has no challenge.
      const ok = await t.get("/api/v1/districts").expect(200);
      expect(ok.headers["www-authenticate"]).toBeUndefined();
    });
  });

  describe("405 with Allow", () => {
    it("a known path with a method it does not serve: 405, the generic body, Allow from the route table", async () => {
      const del = await t.http.delete("/api/v1/districts").set(auth()).expect(405);
      expect(del.body).toMatchObject({ error: "method_not_allowed", statusCode: 405 });
      expect(del.body.message).toMatch(/DELETE/);
      expect(del.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
      const put = await t.http.put(`/api/v1/districts/${districtId}`).set(auth()).send({}).expect(405);
      expect(put.headers.allow).toBe("GET, HEAD, OPTIONS");
      const schools = await t.http.post("/api/v1/schools/00000000-0000-4000-8000-000000000000").set(auth()).expect(405);
      expect(schools.headers.allow).toBe("GET, PATCH, HEAD, OPTIONS");
      const graphql = await t.http.put("/graphql").set(auth()).send({ query: "{ __typename }" }).expect(405);
      expect(graphql.headers.allow).toBe("GET, POST, OPTIONS");
      expect(graphql.body).toMatchObject({ error: "method_not_allowed", statusCode: 405 });
      await t.http.delete("/graphql").expect(405);
      const health = await t.http.post("/healthz").expect(405);
      expect(health.headers.allow).toBe("GET, HEAD, OPTIONS");
    });

    it("every path of the route table answers 405 to a method it lacks, listing exactly the table's methods", async () => {
      const byPath = new Map<string, Set<string>>();
      for (const r of routes) byPath.set(r.path, new Set([...(byPath.get(r.path) ?? []), r.method]));
      for (const [path, methods] of byPath) {
        const concrete = path.replace(/:entityType/, "district").replace(/:(\w+)/g, "00000000-0000-4000-8000-000000000000");
        const missing = ["GET", "POST", "PATCH", "PUT", "DELETE"].find((m) => !methods.has(m))!;
        const res = await t.http[missing.toLowerCase() as "get"](`/api/v1${concrete}`).set(auth());
        expect([path, res.status]).toEqual([path, 405]);
        const allow = String(res.headers.allow).split(", ");
        expect(allow.filter((m) => m !== "HEAD" && m !== "OPTIONS").sort()).toEqual([...methods].sort());
      }
    });

    it("an unknown path is still 404", async () => {
      await t.http.delete("/api/v1/no-such-thing").set(auth()).expect(404);
    });
  });

  describe("query cost", () => {
    // t.graphql leaves extensions.cost out: these requests read the whole body.
    const graphql = async (query: string) => (await t.http.post("/graphql").set(auth()).send({ query })).body;

    it("GraphQL reports extensions.cost { requested, limit } on each response", async () => {
      const small = await graphql("{ districts(limit: 1) { data { id } } }");
      expect(small.extensions.cost).toEqual({ requested: expect.any(Number), limit: 250_000 });
      const large = await graphql("{ districts(limit: 200) { data { id name } } }");
      expect(large.extensions.cost.requested).toBeGreaterThan(small.extensions.cost.requested);
      // Refused for its cost: the error and the cost that refused it.
      // 40,401 per page of pages, seven times (test/graphql/limits.test.ts).
      const page = (n: number) => `p${n}: districts(limit: 200) { data { id schools(limit: 200) { data { id } } } }`;
      const huge = await graphql(`{ ${[1, 2, 3, 4, 5, 6, 7].map(page).join(" ")} }`);
      expect(huge.errors[0].message).toMatch(/exceeds the limit/);
      expect(huge.extensions.cost).toEqual({ requested: 282_807, limit: 250_000 });
      // A document that does not parse never reached cost analysis.
      const broken = await t.http.post("/graphql").set(auth()).send({ query: "{ districts(" }).expect(400);
      expect(broken.body.extensions.cost).toEqual({ requested: null, limit: 250_000 });
    });

    it("REST sends X-Query-Cost and X-Query-Cost-Limit", async () => {
      const one = await t.get("/api/v1/districts?limit=1").expect(200);
      const many = await t.get("/api/v1/districts?limit=200").expect(200);
      expect(Number(one.headers["x-query-cost"])).toBeGreaterThan(0);
      expect(Number(many.headers["x-query-cost"])).toBeGreaterThan(Number(one.headers["x-query-cost"]));
      expect(many.headers["x-query-cost-limit"]).toBe("250000");
      const detail = await t.get(`/api/v1/districts/${districtId}`).expect(200);
      expect(Number(detail.headers["x-query-cost"])).toBeGreaterThan(0);
    });
  });
});

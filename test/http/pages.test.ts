/**
 * The browser pages over plain HTTP: GET /graphql answers GraphiQL to a browser without a key, while every
 * GraphQL request (POST, or GET with a query) still needs one; the pages' assets are served by this
 * service (no address off this host in the HTML); /docs and Redoc's bundle likewise.
 */
import { createTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

test("GET /graphql from a browser is GraphiQL, with no key, and its assets are local", async () => {
  const res = await t.http.get("/graphql").set("Accept", BROWSER_ACCEPT);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.text).toContain("<title>edmarket GraphiQL</title>");
  expect(res.text).toContain('"/graphiql-assets/ruru.js"');
  expect(res.text).toContain("edmarket.apiKey");
  // No asset from elsewhere: every src/href is a local path.
  const references = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(references.length).toBeGreaterThan(0);
  for (const ref of references) expect(ref).toMatch(/^\//);
  expect(res.text).not.toMatch(/unpkg|jsdelivr|cdn\./);

  for (const encoding of ["br", "identity"]) {
    const asset = await t.http.get("/graphiql-assets/ruru.js").set("Accept-Encoding", encoding).buffer(true);
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toMatch(/javascript/);
  }
  const worker = await t.http.get("/graphiql-assets/graphqlWorker.js");
  expect(worker.status).toBe(200);
  expect((await t.http.get("/graphiql-assets/no-such-file.js")).status).toBe(404);
});

test("GraphQL requests still need a key: POST, GET with a query, GET asking for JSON", async () => {
  expect((await t.http.post("/graphql").send({ query: "{ __typename }" })).status).toBe(401);
  const getWithQuery = await t.http.get("/graphql").query({ query: "{ __typename }" }).set("Accept", BROWSER_ACCEPT);
  expect(getWithQuery.status).toBe(401);
  expect((await t.http.get("/graphql").set("Accept", "application/json")).status).toBe(401);
  // With a key, GET with a query is a GraphQL request as before.
  const ok = await t.http
    .get("/graphql")
    .query({ query: "{ __typename }" })
    .set("Authorization", `Bearer ${t.keys.free}`)
    .set("Accept", "application/json")
    .set("apollo-require-preflight", "true");
  expect(ok.status).toBe(200);
  expect(ok.body.data).toEqual({ __typename: "Query" });
});

test("GET /docs is the REST reference over /api/v1/openapi.json, with Redoc's bundle served here", async () => {
  const res = await t.http.get("/docs").set("Accept", BROWSER_ACCEPT);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.text).toContain('Redoc.init("/api/v1/openapi.json"');
  const references = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  for (const ref of references) expect(ref).toMatch(/^\//);
  const bundle = await t.http.get("/docs/assets/redoc.standalone.js").buffer(true);
  expect(bundle.status).toBe(200);
  expect(bundle.headers["content-type"]).toMatch(/javascript/);
  expect(bundle.text.length).toBeGreaterThan(500_000);
  expect(bundle.text).not.toContain("cdn.redoc.ly");
});

/**
 * GET /api/v1/openapi.json: served without a key, a valid OpenAPI 3.1 document (checked by an OpenAPI
 * validator), generated from the route table: every route appears, every documented parameter and body
 * property is accepted by its endpoint, and real responses match their documented schemas.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApiPath, type Json, type OpenApiDocument } from "../../rest-adapter/openapi";
import { FIELD_DICTIONARY } from "../../src/graphql/features";
import { HTTP_DICTIONARY } from "../../src/graphql/dictionary/http";
import { routes } from "../../rest-adapter/routes";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict, insertDistrictStats } from "../support/factories";
import { escapeRegExp } from "../../src/features/kits/common/text";

let t: TestApp;
let doc: OpenApiDocument;
let districtId: string;

beforeAll(async () => {
  t = await createTestApp();
  districtId = await insertDistrict(t.db, { name: "Openapi Unified", student_count: 1200 });
  await insertDistrictStats(t.db, districtId, 2023, { total_enrollment: 1200 });
  const res = await t.http.get("/api/v1/openapi.json"); // no Authorization header
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  doc = res.body as OpenApiDocument;
});
afterAll(() => t.close());

/** The schema a `$ref` names (`#/components/schemas/X`), or the schema itself. */
const resolve = (schema: Json): Json => {
  const ref = schema.$ref as string | undefined;
  if (!ref) return schema;
  const [, , section, name] = ref.split("/");
  return resolve((doc.components as unknown as Record<string, Record<string, Json>>)[section][name]);
};

/** A value the schema accepts, as the query string writes it. */
function sample(schema: Json): string {
  const s = resolve(schema);
  if (Array.isArray(s.enum)) return String(s.enum[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "array") return sample(s.items as Json);
  if (type === "integer" || type === "number") return String(s.default ?? s.minimum ?? 1);
  if (type === "boolean") return "true";
  if (s.format === "uuid") return crypto.randomUUID();
  if (s.format === "date-time") return "2020-01-01T00:00:00.000Z";
  if (s.format === "date") return "2020-01-01";
  if (s.pattern === "^-?\\d+$") return "1";
  return "CA";
}

/** A JSON body with every property of an input object schema (nested ones filled too). */
function sampleBody(schema: Json): unknown {
  const s = resolve(schema);
  if (s.anyOf) return sampleBody((s.anyOf as Json[])[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || s.properties) {
    return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, sampleBody(v)]));
  }
  if (type === "array") return [sampleBody(s.items as Json)];
  if (Array.isArray(s.enum)) return s.enum[0];
  if (type === "integer" || type === "number") return Number(s.default ?? s.minimum ?? 1);
  if (type === "boolean") return true;
  if (type === "string") return sample(s);
  return {}; // JSON scalar: any value
}

const fillPath = (path: string, parameters: Json[]): string =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = parameters.find((x) => x.name === name && x.in === "path")!;
    const s = resolve(p.schema as Json);
    return encodeURIComponent(s.format === "uuid" ? crypto.randomUUID() : name === "fed_id" ? "9999999" : sample(s));
  });

test("the document is served without a key and validates as OpenAPI 3.1", async () => {
  expect(doc.openapi).toBe("3.1.0");
  // The validator ships ESM only: it runs in its own node process (scripts/validate-openapi.mjs).
  const validate = (input: unknown) => {
    const run = spawnSync(process.execPath, [path.join(__dirname, "../../scripts/validate-openapi.mjs")], { input: JSON.stringify(input) });
    return { status: run.status, ...(JSON.parse(run.stdout.toString()) as { valid: boolean; version: string; errors: unknown[] }) };
  };
  expect(validate(doc)).toEqual({ status: 0, valid: true, version: "3.1", errors: [] });
  // The validator does refuse a broken document (a response without its description).
  const broken = JSON.parse(JSON.stringify(doc)) as OpenApiDocument;
  delete (broken.paths["/districts"].get.responses as Record<string, Json>)["200"].description;
  expect(validate(broken)).toMatchObject({ status: 1, valid: false });
  // Refused without a key elsewhere under /api/v1: only the document is open.
  expect((await t.http.get("/api/v1/districts")).status).toBe(401);
});

test("every route's operation validates and compiles (each is prepared when a request first needs it)", () => {
  for (const spec of routes) expect(() => t.engine.prepareRest(spec.document)).not.toThrow();
});

test("every route of the table appears with its parameters, body and error responses", () => {
  for (const spec of routes) {
    const operation = doc.paths[openApiPath(spec.path)]?.[spec.method.toLowerCase()];
    expect({ route: `${spec.method} ${spec.path}`, present: Boolean(operation) }).toEqual({
      route: `${spec.method} ${spec.path}`,
      present: true,
    });
    const responses = operation.responses as Record<string, Json>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["400", "401", "404", "500"]));
    const success = Object.keys(responses).filter((s) => s < "300");
    expect(success.length).toBeGreaterThan(0);
    for (const name of [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]))
      expect((operation.parameters as Json[]).some((p) => p.in === "path" && p.name === name)).toBe(true);
    if (spec.input === "json-body" || spec.input === "string-body") expect(operation.requestBody).toBeDefined();
  }
  expect(Object.values(doc.paths).flatMap((p) => Object.keys(p)).length).toBe(routes.length);
  // Enum values, ranges and defaults come from the GraphQL types.
  const list = doc.paths["/districts"].get.parameters as Json[];
  const limit = list.find((p) => p.name === "limit")!;
  expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
  expect(list.find((p) => p.name === "offset")!.schema).toMatchObject({ minimum: 0, default: 0 });
  const orderBy = list.find((p) => p.name === "order_by")!;
  expect(resolve(orderBy.schema as Json).enum).toEqual(expect.arrayContaining(["name", "student_count"]));
  expect(list.find((p) => p.name === "ids")).toMatchObject({ style: "form", explode: false, schema: { type: "array" } });
  // The special error bodies: 402 with balance/required, 403 with PARENT_ENTITY_LOCKED's and FOLLOW_LIMIT's fields.
  const r402 = JSON.stringify(doc.components.responses.Error402);
  expect(r402).toContain("InsufficientCreditsError");
  expect(doc.components.schemas.InsufficientCreditsError).toMatchObject({
    allOf: [{ $ref: "#/components/schemas/ErrorBody" }, { required: ["balance", "required"] }],
  });
  const r403 = JSON.stringify(doc.components.responses.Error403);
  expect(r403).toContain("ParentEntityLockedError");
  expect(r403).toContain("FollowLimitError");
  expect(doc.components.schemas.ErrorBody).toMatchObject({ required: ["error", "message", "statusCode"] });
});

test("every documented query parameter, string-body property and JSON body property is accepted by its endpoint", async () => {
  let calls = 0;
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? []) as Json[];
      const url = `/api/v1${fillPath(path, parameters)}`;
      const attempts: { what: string; run: () => Promise<{ status: number; body: Json }> }[] = [];
      for (const p of parameters.filter((x) => x.in === "query")) {
        attempts.push({
          what: `${method.toUpperCase()} ${path} ?${p.name}`,
          run: () => t.get(`${url}?${p.name}=${encodeURIComponent(sample(p.schema as Json))}`),
        });
      }
      const body = (operation.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
      const schema = body?.["application/json"].schema;
      if (schema) {
        const properties = (resolve(schema).properties ?? {}) as Record<string, Json>;
        const stringBody = !schema.$ref; // the POST twins: an inline object of strings
        if (stringBody) {
          for (const [name, property] of Object.entries(properties)) {
            attempts.push({
              what: `${method.toUpperCase()} ${path} body ${name}`,
              run: () => t.post(url, { [name]: sample(property) }),
            });
          }
        } else {
          attempts.push({
            what: `${method.toUpperCase()} ${path} body ${Object.keys(properties).join(",")}`,
            run: () =>
              t.http[method as "post" | "patch"](url)
                .set("Authorization", `Bearer ${t.keys.internal}`)
                .send(sampleBody(schema) as object),
          });
        }
      }
      for (const attempt of attempts) {
        const res = await attempt.run();
        calls += 1;
        const message = String(res.body?.message ?? "");
        expect({ what: attempt.what, status: res.status, unknown: /unknown (body )?(parameter|property)/.test(message) }).toEqual({
          what: attempt.what,
          status: expect.any(Number),
          unknown: false,
        });
        expect({ what: attempt.what, status: res.status < 500 ? "not 5xx" : `${res.status} ${message}` }).toEqual({
          what: attempt.what,
          status: "not 5xx",
        });
      }
    }
  }
  expect(calls).toBeGreaterThan(100);
});

test("responses match their documented schemas (list, detail, organization, error)", async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components } as never);
  const schemaOf = (path: string, method: string, status: string): Json => {
    let response = (doc.paths[path][method].responses as Record<string, Json>)[status];
    if (response.$ref) response = doc.components.responses[String(response.$ref).split("/").pop()!];
    return (response.content as Record<string, { schema: Json }>)["application/json"].schema;
  };
  /** The schema with its references pointing into the `doc` schema registered above. */
  const rebase = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  const check = (body: unknown, path: string, method: string, status: string) => {
    const validate = ajv.compile(rebase(schemaOf(path, method, status)));
    const ok = validate(body);
    expect({ path, status, errors: ok ? null : validate.errors?.slice(0, 5) }).toEqual({ path, status, errors: null });
  };
  const list = await t.get("/api/v1/districts?limit=5");
  expect(list.status).toBe(200);
  expect(list.body.data.length).toBeGreaterThan(0);
  check(list.body, "/districts", "get", "200");
  // The documented headers: cost on every run, ETag and 304 on detail reads, the Bearer challenge on 401.
  expect(Object.keys((doc.paths["/districts"].get.responses as Record<string, Json>)["200"].headers as Json)).toEqual(
    expect.arrayContaining(["X-Query-Cost", "X-Query-Cost-Limit", "X-Request-Id"]),
  );
  expect(list.headers["x-query-cost"]).toMatch(/^\d+$/);
  expect(list.headers["x-request-id"]).toBeTruthy();
  const detail = await t.get(`/api/v1/districts/${districtId}`);
  expect(detail.status).toBe(200);
  check(detail.body, "/districts/{id}", "get", "200");
  const detailOperation = doc.paths["/districts/{id}"].get;
  expect((detailOperation.parameters as Json[]).some((p) => p.in === "header" && p.name === "If-None-Match")).toBe(true);
  expect(Object.keys(detailOperation.responses as Json)).toContain("304");
  expect(detail.headers.etag).toBeTruthy();
  const notModified = await t.get(`/api/v1/districts/${districtId}`).set("If-None-Match", detail.headers.etag);
  expect(notModified.status).toBe(304);
  expect(Object.keys(doc.paths["/districts"].get.responses as Json)).not.toContain("304");
  const org = await t.get("/api/v1/org");
  check(org.body, "/org", "get", "200");
  const metrics = await t.get("/api/v1/metrics?entity_type=district");
  check(metrics.body, "/metrics", "get", "200");
  const missing = await t.get(`/api/v1/districts/${crypto.randomUUID()}`);
  expect(missing.status).toBe(404);
  check(missing.body, "/districts/{id}", "get", "404");
  const bad = await t.get("/api/v1/districts?limit=0");
  expect(bad.status).toBe(400);
  check(bad.body, "/districts", "get", "400");
  const unauthenticated = await t.http.get("/api/v1/districts");
  check(unauthenticated.body, "/districts", "get", "401");
  expect(Object.keys(doc.components.responses.Error401.headers as Json)).toContain("WWW-Authenticate");
  expect(unauthenticated.headers["www-authenticate"]).toMatch(/^Bearer/);
  // A check that can fail: a body missing a documented key does not validate.
  const validate = ajv.compile(rebase(schemaOf("/districts/{id}", "get", "200")));
  const { name: _name, ...withoutName } = detail.body.data as Record<string, unknown>;
  expect(validate({ data: withoutName })).toBe(false);
});

/** Every parameter and every property of a document without a description, by where it is. */
function undescribed(document: OpenApiDocument): string[] {
  const missing: string[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}[${i}]`));
    if (node === null || typeof node !== "object") return;
    const object = node as Json;
    if (object.properties && typeof object.properties === "object") {
      for (const [name, property] of Object.entries(object.properties as Record<string, Json>))
        if (!property.description) missing.push(`${where}.${name}`);
    }
    for (const [key, value] of Object.entries(object)) walk(value, `${where}/${key}`);
  };
  walk(document, "");
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods))
      for (const p of (operation.parameters ?? []) as Json[]) if (!p.description) missing.push(`${method} ${path} ${p.in} ${p.name}`);
  return missing;
}

const dictionaryTexts = [FIELD_DICTIONARY, HTTP_DICTIONARY as unknown as Record<string, Record<string, string>>].flatMap((d) =>
  Object.values(d).flatMap((members) => Object.values(members)),
);
/** A dictionary text, a REST template of it with its `{marks}` filled, or a list parameter's text with the comma note. */
const fromDictionary = new RegExp(
  `^(?:${dictionaryTexts.map((t) => escapeRegExp(t).replace(/\\\{\w+\\\}/g, ".+")).join("|")})(?: ${escapeRegExp(HTTP_DICTIONARY.Document.commaSeparated)})?$`,
);

/** Every description of a parameter, property, schema or enum value that the field dictionary did not write. */
function foreignDescriptions(document: OpenApiDocument): string[] {
  const foreign: string[] = [];
  const walk = (node: unknown, where: string[]) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...where, String(i)]));
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node as Json)) {
      // Response descriptions ("OK.", the route table's) say what a status means; they are no field's.
      const response = where.at(-2) === "responses";
      if (key === "description" && typeof value === "string" && !response && !fromDictionary.test(value))
        foreign.push(`${where.join("/")}: ${value}`);
      if (key === "x-enum-descriptions")
        for (const [name, text] of Object.entries(value as Record<string, string>))
          if (!fromDictionary.test(text)) foreign.push(`${where.join("/")} ${name}: ${text}`);
      walk(value, [...where, key]);
    }
  };
  walk({ ...document, info: undefined }, []);
  return foreign;
}

test("every parameter and every property of the document has a description", () => {
  expect(undescribed(doc)).toEqual([]);
  // The check can fail: one property and one parameter without a description are named.
  const broken = structuredClone(doc);
  delete (broken.components.schemas.ErrorBody.properties as Record<string, Json>).message.description;
  delete ((broken.paths["/districts"].get.parameters as Json[])[0] as Json).description;
  expect(undescribed(broken)).toEqual([
    "/components/schemas/ErrorBody.message",
    `get /districts query ${String(((doc.paths["/districts"].get.parameters as Json[])[0] as Json).name)}`,
  ]);
});

test("every description of a parameter, property, schema or enum value comes from the field dictionary", () => {
  expect(foreignDescriptions(doc)).toEqual([]);
  const broken = structuredClone(doc);
  (broken.components.schemas.ErrorBody.properties as Record<string, Json>).message.description = "Written in openapi.ts.";
  expect(foreignDescriptions(broken)).toEqual(["components/schemas/ErrorBody/properties/message: Written in openapi.ts."]);
});

test("info.description states the HTTP conventions, from the dictionary", () => {
  const info = doc.info as Json;
  expect(info.description).toContain(HTTP_DICTIONARY.Document.conventions);
  for (const convention of ["405", "Allow", "401", "WWW-Authenticate", "ETag", "304", "gzip", "brotli", "CORS", "X-Query-Cost"])
    expect(info.description).toContain(convention);
});

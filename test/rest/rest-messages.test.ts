/**
 * Issue 20 point 13: REST error messages speak REST. Every route of rest-adapter/routes.ts is probed with a
 * bad value for each parameter (path, query, string body, JSON body property) whose type is an enum, a UUID,
 * an integer, a number, a boolean or a date: the answer is a 400 naming the parameter as REST names it
 * (snake_case; `body property x` in JSON bodies), listing an enum's values, without GraphQL's variable or type
 * names, and echoing the long bad value clipped. A page size beyond its list's maximum is refused as such
 * (`limit must be an integer from 1 to 200`), not as the cost it would make.
 */
import {
  getNamedType,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLNamedType,
} from "graphql";
import { routes } from "../../rest-adapter/routes";
import { operationVariables } from "../../rest-adapter/coerce";
import { camel, snake } from "../../src/graphql/naming";
import { createTestApp, type TestApp } from "../support/app";

/** Types whose bad values the table probes; JSON, String and input objects have no "bad" string. */
const PROBED = new Set(["Int", "Float", "Boolean", "UUID", "Date", "DateTimeISO"]);
const probed = (type: GraphQLInputType) => {
  const named = getNamedType(type);
  return isEnumType(named) || (isScalarType(named) && PROBED.has(named.name));
};
/** A long bad value: no type accepts it, and a message may echo at most 80 characters of it. */
const BAD = `not-valid-${"x".repeat(190)}`;
const VALID_UUID = "0b5b5a3e-0000-4000-8000-000000000001";

/** A value the type accepts, so the one probed property is the only bad one of a JSON body. */
function sample(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [sample(inner.ofType as GraphQLInputType)];
  if (isEnumType(inner)) return inner.getValues()[0]!.name;
  if (isInputObjectType(inner)) return requiredFields(inner);
  const scalar: Record<string, unknown> = { Int: 1, Float: 1, Boolean: true, UUID: VALID_UUID, Date: "2024-01-01" };
  return scalar[inner.name] ?? (inner.name === "DateTimeISO" ? "2024-01-01T00:00:00Z" : "x");
}
function requiredFields(type: GraphQLNamedType): Record<string, unknown> {
  if (!isInputObjectType(type)) return {};
  const out: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields()))
    if (isNonNullType(field.type) && field.defaultValue === undefined) out[snake(field.name)] = sample(field.type);
  return out;
}

interface Probe {
  label: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** How the message must name the parameter. */
  name: string;
  type: GraphQLInputType;
}

describe("REST error messages use REST names (every route)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const probes = (): Probe[] => {
    const schema = t.engine.schema;
    const list: Probe[] = [];
    for (const spec of routes) {
      const operation = getOperationAST(spec.document)!;
      const variables = operationVariables(schema, operation);
      const pathParams = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const fill = (bad?: string) =>
        `/api/v1${spec.path.replace(/:(\w+)/g, (_m, name: string) => (name === bad ? encodeURIComponent(BAD) : (sample(variables.get(camel(name))!.type) as string)))}`;
      for (const name of pathParams) {
        const type = variables.get(camel(name))!.type;
        if (probed(type))
          list.push({ label: `${spec.method} ${spec.path} path ${name}`, method: spec.method, path: fill(name), name, type });
      }
      const headerVariables = new Set(Object.values(spec.headers ?? {}));
      const free = [...variables.values()].filter((v) => !pathParams.map(camel).includes(v.name) && !headerVariables.has(v.name));
      if (spec.input === "query" || spec.input === "string-body") {
        for (const variable of free) {
          if (!probed(variable.type)) continue;
          const param = snake(variable.name);
          const where = spec.input === "query" ? { query: { [param]: BAD } } : { body: { [param]: BAD } };
          list.push({
            label: `${spec.method} ${spec.path} ${param}`,
            method: spec.method,
            path: fill(),
            ...where,
            name: param,
            type: variable.type,
          });
        }
      }
      if (spec.input === "json-body") {
        const input = getNamedType(variables.get("input")!.type);
        if (!isInputObjectType(input)) continue;
        for (const field of Object.values(input.getFields())) {
          if (!probed(field.type)) continue;
          const property = snake(field.name);
          const bad = isListType(isNonNullType(field.type) ? field.type.ofType : field.type) ? [BAD] : BAD;
          list.push({
            label: `${spec.method} ${spec.path} body ${property}`,
            method: spec.method,
            path: fill(),
            body: { ...requiredFields(input), [property]: bad },
            name: `body property ${property}`,
            type: field.type,
          });
        }
      }
    }
    return list;
  };

  it("answers 400 naming the parameter, listing enum values, with no GraphQL names and the value clipped", async () => {
    const schema = t.engine.schema;
    // GraphQL's own words and the names of the schema's input types (UUID aside: "must be a UUID" is plain English).
    const graphqlNames = Object.values(schema.getTypeMap())
      .filter(
        (type) =>
          !type.name.startsWith("__") && type.name !== "UUID" && (isEnumType(type) || isInputObjectType(type) || isScalarType(type)),
      )
      .map((type) => type.name);
    const forbidden = new RegExp(`Variable "\\$|Expected type|cannot represent|\\w!|\\b(${graphqlNames.join("|")})\\b`);
    const list = probes();
    // Every kind of parameter is reached: path, query, string body and JSON body, enums and UUIDs among them.
    expect(list.some((p) => p.label.includes(" path "))).toBe(true);
    expect(list.some((p) => p.label.includes(" body "))).toBe(true);
    expect(list.some((p) => p.query && isEnumType(getNamedType(p.type)))).toBe(true);
    expect(list.length).toBeGreaterThan(40);
    const failures: unknown[] = [];
    for (const probe of list) {
      let request = t.http[probe.method.toLowerCase() as "get"](probe.path).set("Authorization", `Bearer ${t.keys.internal}`);
      if (probe.query) request = request.query(probe.query);
      if (probe.body) request = request.send(probe.body);
      const res = await request;
      const message = String(res.body?.message ?? "");
      const named = getNamedType(probe.type);
      const problems = [
        res.status !== 400 && `status ${res.status}`,
        res.body?.error !== "bad_request" && `error ${res.body?.error}`,
        !new RegExp(`(^| )${probe.name.replace(/[[\]]/g, "\\$&")}(\\[\\d+\\])? `).test(message) && "does not name the parameter",
        forbidden.test(message) && `GraphQL words: ${forbidden.exec(message)?.[0]}`,
        isEnumType(named) && !named.getValues().every((v) => message.includes(v.name)) && "does not list the allowed values",
        message.includes(BAD) && "echoes the whole value",
        message.length > 600 && "too long",
      ].filter(Boolean);
      if (problems.length) failures.push({ probe: probe.label, problems, message: message.slice(0, 300) });
    }
    expect(failures).toEqual([]);
  });

  it("a page size beyond the list's maximum is refused as such before the cost (limit=500, operators 10,001)", async () => {
    for (const [path, max] of [
      ["/api/v1/districts?limit=500", 200],
      ["/api/v1/schools?limit=100000", 200],
      ["/api/v1/contacts?limit=201", 200],
      ["/api/v1/operators?limit=10001", 10000],
    ] as const) {
      const res = await t.get(path);
      expect([path, res.status, res.body]).toEqual([
        path,
        400,
        { error: "bad_request", message: `limit must be an integer from 1 to ${max}`, statusCode: 400 },
      ]);
    }
    const graphql = await t.graphql(`{ districts(limit: 500) { data { id schools(limit: 3) { data { id } } } } }`);
    expect(graphql.errors?.[0]).toMatchObject({
      message: "limit must be an integer from 1 to 200",
      extensions: { code: "BAD_USER_INPUT" },
    });
    const nested = await t.graphql(`{ districts(limit: 200) { data { id schools(limit: 5000) { data { id } } } } }`);
    expect(nested.errors?.[0]).toMatchObject({ message: "limit must be an integer from 1 to 200", extensions: { code: "BAD_USER_INPUT" } });
  });

  it("echoed names and values are clipped: unknown parameters and body properties, a service's own check", async () => {
    const long = `x${"y".repeat(300)}`;
    const unknown = await t.get(`/api/v1/districts?${long}=1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^unknown parameter xy{79}… \(301 characters\); allowed: /);
    // A service's own check echoes the value clipped too.
    const state = await t.get(`/api/v1/districts?state=${long}`);
    expect([state.status, state.body.message]).toEqual([
      400,
      `state must be a two-letter abbreviation, got "x${"y".repeat(78)}… (303 characters)`,
    ]);
    const body = await t.http
      .post("/api/v1/projects")
      .set("Authorization", `Bearer ${t.keys.internal}`)
      .send({ name: "p", [long]: 1 });
    expect([body.status, body.body.message]).toEqual([400, `unknown body property x${"y".repeat(79)}… (301 characters)`]);
  });
});

/**
 * REST requests derived from the route table (rest-adapter/routes.ts) and each route's operation: its path
 * parameters, query or body parameters and JSON body properties with their GraphQL types (the same
 * `operationVariables` the router coerces with), its header variables. A new route, parameter or input field
 * is fuzzed with no change here.
 *
 * Half the requests of a route are well-formed (typed values, a JSON body of the right shape, the route's
 * method): they reach the services and the database. The other half are hostile: values of any type, unknown and
 * duplicated parameters, the GraphQL spelling of a name, malformed percent escapes, bodies of the wrong JSON type,
 * malformed JSON, bad Content-Type and Accept, deep nesting, oversized bodies and methods the path does not serve.
 */
import fc from "fast-check";
import {
  getNamedType,
  getOperationAST,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { operationVariables, type VariableSpec } from "../../../rest-adapter/coerce";
import type { RouteSpec } from "../../../rest-adapter/route";
import { camel, snake } from "../../../src/graphql/naming";
import { jsonFor, textFor, type FuzzData, type Slot } from "./inputs";
import type { Caller, FuzzRequest } from "./request";
import { jsonText, nested, pct, RAW_URL_FRAGMENTS, RawUrl, wrongJson } from "./values";

/** For each variable of an operation, the argument it is passed to, that argument's field and the field's type. */
export function variableSlots(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  const info = new TypeInfo(schema);
  visit(
    operation,
    visitWithTypeInfo(info, {
      Argument(node) {
        if (node.value.kind !== Kind.VARIABLE) return;
        const field = info.getFieldDef();
        slots.set(node.value.name.value, {
          name: node.name.value,
          field: field?.name,
          owner: field ? getNamedType(field.type).name : undefined,
        });
      },
    }),
  );
  return slots;
}

const slotOf = (spec: VariableSpec, slots: Map<string, Slot>): Slot => {
  if (!spec.parent) return slots.get(spec.name) ?? { name: spec.name };
  const parent = slots.get(spec.parent);
  return { name: spec.name, field: parent?.field, owner: parent?.owner };
};

/** Callers: mostly the enterprise key (every module), the other plans' keys; hostile: no or bad keys now and then. */
export const callerArb = (hostile: boolean): fc.Arbitrary<Caller> =>
  fc.oneof(
    { arbitrary: fc.constant<Caller>("enterprise"), weight: 10 },
    { arbitrary: fc.constantFrom<Caller>("free", "pro", "internal"), weight: 5 },
    { arbitrary: fc.constantFrom<Caller>("none", "malformed", "unknown"), weight: hostile ? 2 : 0 },
  );

const ACCEPTS = [
  "application/json",
  "*/*",
  "text/csv",
  "application/x-ndjson",
  "text/html",
  "image/png",
  "application/json;q=0",
  "",
  "text/*, application/*;q=0.1",
];
const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/json; charset=bogus",
  "application/xml",
  "",
];
const MALFORMED_BODIES = [
  "{",
  '{"a":',
  "[",
  "{'a':1}",
  '{"a":1,}',
  "\uFEFF{}",
  "nul",
  '{"a":"\\x"}',
  '{"a":"\\ud800"}',
  "[]",
  '"x"',
  "5",
  "null",
  "true",
];
const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

type Pairs = [string | RawUrl, string | RawUrl][];

/** A query string from name/value pairs (names and values percent-encoded unless RawUrl). */
const queryString = (pairs: Pairs): string => (pairs.length ? `?${pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&")}` : "");

/** Header values go on the wire as bytes: the UTF-8 of the text, written as latin1 characters; control characters (which Node refuses in a header) dropped. */
export const latin1 = (value: string): string =>
  [...Buffer.from(value, "utf8").toString("latin1")]
    .filter((ch) => ch === "\t" || (ch >= " " && ch !== "\x7f"))
    .join("")
    .slice(0, 8_000);

/** The requests of one route, well-formed (`hostile: false`) or not. */
function routeRequests(route: RouteSpec, schema: GraphQLSchema, data: FuzzData, hostile: boolean): fc.Arbitrary<FuzzRequest> {
  const operation = getOperationAST(route.document);
  if (!operation) throw new Error(`${route.method} ${route.path}: no operation`);
  const variables = operationVariables(schema, operation);
  const slots = variableSlots(schema, operation);
  const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const headerVars = new Set(Object.values(route.headers ?? {}));
  const reserved = new Set([...pathNames.map(camel), ...headerVars]);
  const params = [...variables.values()].filter((v) => !reserved.has(v.name));
  const label = `${route.method} ${route.path}`;
  const none = fc.constant<Pairs>([]);

  const segment = (name: string): fc.Arbitrary<string> => {
    const spec = variables.get(camel(name))!;
    const typed = textFor(spec.type, slotOf(spec, slots), data, hostile).map((v) => (v === "" ? "%20" : pct(v)));
    return hostile
      ? fc.oneof(
          { arbitrary: typed, weight: 8 },
          fc.constantFrom(...RAW_URL_FRAGMENTS).map((r) => r.text),
        )
      : typed;
  };
  const path = fc
    .tuple(...pathNames.map(segment))
    .map((values) => values.reduce((p, value, i) => p.replace(`:${pathNames[i]}`, value), route.path));

  /** Typed parameters by their REST names, as text: up to four of them. */
  const paramArbs = params.map((spec) =>
    textFor(spec.type, slotOf(spec, slots), data, hostile).map((v): [string, string] => [snake(spec.name), v]),
  );
  const typedPairs = fc
    .subarray(
      paramArbs.map((_, i) => i),
      { maxLength: Math.min(4, paramArbs.length) },
    )
    .chain((chosen) => fc.tuple(...chosen.map((i) => paramArbs[i]!)));

  /** Hostile additions to a query string: unknown names, a parameter twice, the camelCase spelling, raw escapes. */
  const extraPairs: fc.Arbitrary<Pairs> = hostile
    ? fc.oneof(
        { arbitrary: none, weight: 6 },
        { arbitrary: fc.constantFrom("unknown", "limit[]", "__proto__", "", "ORDER_BY").map((name): Pairs => [[name, "1"]]), weight: 1 },
        {
          arbitrary: params.length
            ? fc.tuple(fc.constantFrom(...params), fc.string({ maxLength: 5 })).map(([spec, v]): Pairs => [
                [snake(spec.name), v],
                [snake(spec.name), v],
              ])
            : none,
          weight: 2,
        },
        // The GraphQL spelling of a parameter (camelCase), which REST does not take.
        { arbitrary: params.length ? fc.constantFrom(...params).map((spec): Pairs => [[spec.name, "1"]]) : none, weight: 1 },
        {
          arbitrary: fc.tuple(fc.constantFrom(...RAW_URL_FRAGMENTS), fc.constantFrom(...RAW_URL_FRAGMENTS)).map((pair): Pairs => [pair]),
          weight: 1,
        },
      )
    : none;

  const accept = hostile
    ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom(...ACCEPTS), weight: 2 })
    : fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 8 },
        fc.constantFrom(
          "application/json",
          ...(route.input === "query" && route.method === "GET" ? ["text/csv", "application/x-ndjson"] : []),
        ),
      );
  /** Hostile: a header the route does not expect, or a compressed answer the client then decodes. */
  const extraHeader = hostile
    ? fc.oneof(
        { arbitrary: fc.constant<[string, string] | undefined>(undefined), weight: 8 },
        fc.constantFrom<[string, string]>(
          ["if-none-match", 'W/"x"'],
          ["if-none-match", "*"],
          ["x-request-id", "../../x"],
          ["accept-encoding", "gzip"],
          ["accept-encoding", "br, deflate"],
          ["accept-charset", "utf-16"],
          ["content-language", "\u00ff"],
          ["range", "bytes=0-10"],
          ["expect", "100-continue"],
        ),
      )
    : fc.constant(undefined);
  const headerArb: fc.Arbitrary<Record<string, string>> = fc
    .tuple(
      extraHeader,
      accept,
      ...Object.entries(route.headers ?? {}).map(([header, name]) =>
        fc.option(
          textFor(variables.get(name)!.type, { name }, data, hostile).map((v) => [header, latin1(v)] as const),
          { freq: 2, nil: undefined },
        ),
      ),
    )
    .map(([extra, a, ...pairs]) => ({
      ...(extra ? { [extra[0]]: extra[1] } : {}),
      ...(a === undefined ? {} : { accept: a }),
      ...Object.fromEntries(pairs.filter((p): p is readonly [string, string] => p !== undefined)),
    }));

  const inputType = variables.get("input")?.type;
  const body: fc.Arbitrary<string | undefined> = (() => {
    switch (route.input) {
      case "query":
        return hostile
          ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, fc.constantFrom('{"a":1}', "{}"))
          : fc.constant(undefined);
      case "none":
        return hostile
          ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, fc.constantFrom("{}", '{"unexpected":1}', "[]"))
          : fc.constant(undefined);
      case "string-body": {
        const typed = typedPairs.map((pairs) => jsonText(Object.fromEntries(pairs)));
        if (!hostile) return typed;
        return fc.oneof(
          { arbitrary: typed, weight: 6 },
          {
            arbitrary: params.length
              ? fc.tuple(fc.constantFrom(...params), wrongJson()).map(([spec, value]) => jsonText({ [snake(spec.name)]: value }))
              : fc.constant("{}"),
            weight: 2,
          },
          { arbitrary: fc.constantFrom(...MALFORMED_BODIES), weight: 1 },
        );
      }
      case "json-body": {
        if (!inputType) throw new Error(`${label}: json-body without $input`);
        const typed = jsonFor(inputType, { name: "input", ...slots.get("input") }, data, { key: snake, hostile }).map(jsonText);
        if (!hostile) return typed;
        return fc.oneof(
          { arbitrary: typed, weight: 8 },
          { arbitrary: fc.constantFrom(...MALFORMED_BODIES), weight: 1 },
          { arbitrary: fc.constantFrom(nested(65).text, nested(2000).text, `[${"[".repeat(3000)}${"]".repeat(3000)}]`), weight: 1 },
        );
      }
    }
  })();

  const parts = fc
    .tuple(path, route.input === "query" ? typedPairs : none, extraPairs, body, headerArb)
    .map(([p, pairs, extra, b, headers]) => ({ path: p, query: [...pairs, ...extra] as Pairs, body: b, headers }));
  /** Hostile framing now and then: another Content-Type, a body over the 1 MiB limit, another method. */
  const contentType = hostile
    ? fc.oneof({ arbitrary: fc.constant("application/json"), weight: 8 }, fc.constantFrom(...CONTENT_TYPES))
    : fc.constant("application/json");
  const oversize = hostile ? fc.oneof({ arbitrary: fc.constant(false), weight: 20 }, fc.constant(true)) : fc.constant(false);
  const method = hostile
    ? fc.oneof({ arbitrary: fc.constant(route.method), weight: 15 }, fc.constantFrom(...OTHER_METHODS))
    : fc.constant(route.method);

  return fc.tuple(parts, contentType, oversize, method, callerArb(hostile)).map(([p, type, big, verb, caller]): FuzzRequest => {
    const headers: Record<string, string> = { ...p.headers };
    const sent = big ? jsonText({ pad: "x".repeat(1024 * 1024 + 10) }) : p.body;
    if (sent !== undefined && type !== "") headers["content-type"] = type;
    return {
      face: "rest",
      label,
      method: verb,
      path: `/api/v1${p.path}${queryString(p.query)}`,
      headers,
      body: verb === "GET" || verb === "HEAD" ? undefined : sent,
      caller,
    };
  });
}

/** Requests over every route of the table, each route as likely as any other, half of them well-formed. */
export function restRequests(routes: readonly RouteSpec[], schema: GraphQLSchema, data: FuzzData): fc.Arbitrary<FuzzRequest> {
  const unknownPath = fc
    .tuple(
      fc.constantFrom(
        "/api/v1/",
        "/api/v1/nope",
        "/api/v2/districts",
        "/api/v1/districts/",
        "/api/v1//districts",
        "/api/v1/districts/x/y/z",
      ),
      callerArb(true),
    )
    .map(([path, caller]): FuzzRequest => ({ face: "rest", label: "unknown path", method: "GET", path, headers: {}, caller }));
  const perRoute = routes.map((route) => fc.oneof(routeRequests(route, schema, data, false), routeRequests(route, schema, data, true)));
  return fc.oneof(...perRoute, unknownPath);
}

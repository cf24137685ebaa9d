/**
 * GraphQL requests derived from the built schema: every field of Query and Mutation, its arguments (input
 * objects and their fields included) given as variables or as literals, and a selection set drawn from the
 * field's type (nested objects to a few levels, their own arguments too). A new field or argument is fuzzed with
 * no change here. Beside typed values: documents that do not parse or validate, variables of the wrong declared
 * type, too many aliases, bodies that are not a GraphQL request, GET requests, batches and bad Content-Type.
 */
import fc from "fast-check";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { jsonFor, type FuzzData } from "./inputs";
import type { FuzzRequest } from "./request";
import { callerArb } from "./rest";
import { jsonText, pct, RawJson } from "./values";

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Selection depth below the root field: deep enough to reach a page's records and their nested lists. */
const MAX_DEPTH = 3;

/** A JSON value written as a GraphQL literal for `type` (enum names bare; anything else as it would be in JSON). */
export function literal(value: unknown, type: GraphQLInputType | undefined): string {
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (value instanceof RawJson) {
    try {
      const parsed: unknown = JSON.parse(value.text);
      if (parsed !== null && typeof parsed === "object") return literal(parsed, inner);
    } catch {
      // a token JSON.parse refuses is written as it is
    }
    return value.text;
  }
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return inner && isEnumType(inner) && NAME.test(value) ? value : JSON.stringify(value);
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value))
    return `[${value.map((item) => literal(item, inner && isListType(inner) ? inner.ofType : undefined)).join(", ")}]`;
  const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
  return `{${Object.entries(value)
    .map(([key, item]) => `${key}: ${literal(item, fields[key]?.type)}`)
    .join(", ")}}`;
}

interface Built {
  /** `name(args)` text, args as literals or `$vN` references. */
  text: string;
  definitions: string[];
  variables: Record<string, unknown>;
}

/**
 * The arguments of a field: required ones, some optional ones; each a variable or a literal. Hostile: now and then
 * a required one left out, or a variable declared with another type.
 */
function argumentsArb(
  field: GraphQLField<unknown, unknown>,
  data: FuzzData,
  allowVariables: boolean,
  prefix: string,
  hostile: boolean,
  root = field.name,
): fc.Arbitrary<Built> {
  const owner = getNamedType(field.type).name;
  const one = (arg: GraphQLArgument, i: number) => {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const value = jsonFor(arg.type, { name: arg.name, field: root, owner }, data, { key: (k) => k, hostile });
    const present = required
      ? hostile
        ? fc.oneof({ arbitrary: fc.constant(true), weight: 15 }, fc.constant(false))
        : fc.constant(true)
      : fc.oneof(fc.constant(true), fc.constant(false), fc.constant(false));
    const asVariable = allowVariables ? fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, fc.constant(false)) : fc.constant(false);
    const declared = hostile
      ? fc.oneof({ arbitrary: fc.constant(String(arg.type)), weight: 20 }, fc.constantFrom("String", "Int!", "[UUID!]!", "NoSuchType"))
      : fc.constant(String(arg.type));
    return fc
      .tuple(present, asVariable, value, declared)
      .map(([p, v, val, decl]) => ({ arg, i, present: p, variable: v, value: val, declared: decl }));
  };
  return fc.tuple(...field.args.map(one)).map((parts) => {
    const built: Built = { text: field.name, definitions: [], variables: {} };
    const args: string[] = [];
    for (const part of parts) {
      if (!part.present) continue;
      if (part.variable) {
        const name = `${prefix}${part.i}`;
        built.definitions.push(`$${name}: ${part.declared}`);
        built.variables[name] = part.value;
        args.push(`${part.arg.name}: $${name}`);
      } else args.push(`${part.arg.name}: ${literal(part.value, part.arg.type)}`);
    }
    if (args.length) built.text += `(${args.join(", ")})`;
    return built;
  });
}

/** Selection sets by type and depth, built once each: District -> schools -> School -> district ... is bounded by depth. */
class Selections {
  private readonly memo = new Map<string, fc.Arbitrary<Built>>();
  constructor(
    private readonly data: FuzzData,
    private readonly hostile: boolean,
  ) {}

  of(type: GraphQLNamedType, depth: number): fc.Arbitrary<Built> {
    if (isLeafType(type)) return fc.constant<Built>({ text: "", definitions: [], variables: {} });
    const key = `${type.name}:${depth}`;
    let arb = this.memo.get(key);
    if (!arb) {
      arb = this.object(type as GraphQLObjectType, depth);
      this.memo.set(key, arb);
    }
    return arb;
  }

  private object(type: GraphQLObjectType, depth: number): fc.Arbitrary<Built> {
    const fields = Object.values(type.getFields()).filter((f) => depth < MAX_DEPTH || isLeafType(getNamedType(f.type)));
    // A type of objects only, at the deepest level: its name is all there is to select.
    if (!fields.length) return fc.constant<Built>({ text: "__typename", definitions: [], variables: {} });
    const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)));
    // Built on first use: District -> schools -> School -> district ... only as deep as the samples go.
    const built = new Map<GraphQLField<unknown, unknown>, fc.Arbitrary<Built>>();
    const field = (f: GraphQLField<unknown, unknown>): fc.Arbitrary<Built> => {
      let arb = built.get(f);
      if (arb) return arb;
      const args = f.args.length
        ? argumentsArb(f, this.data, false, "", this.hostile)
        : fc.constant<Built>({ text: f.name, definitions: [], variables: {} });
      const named = getNamedType(f.type);
      arb = isLeafType(named)
        ? args
        : fc
            .tuple(args, this.of(named, depth + 1))
            .map(([a, sub]) => ({ text: `${a.text} { ${sub.text} }`, definitions: [], variables: {} }));
      built.set(f, arb);
      return arb;
    };
    const objects = fields.filter((f) => !leaves.includes(f));
    const chosen = fc.oneof(
      { arbitrary: fc.subarray(fields, { minLength: 1, maxLength: Math.min(5, fields.length) }), weight: 3 },
      // Every leaf (gated ones included) and a nested object or two.
      { arbitrary: fc.subarray(objects, { maxLength: Math.min(2, objects.length) }).map((picked) => [...leaves, ...picked]), weight: 1 },
    );
    return chosen
      .map((list) => (list.length ? list : [fields[0]!]))
      .chain((list) => fc.tuple(...list.map(field)))
      .map((parts) => ({ text: parts.map((p) => p.text).join(" "), definitions: [], variables: {} }));
  }
}

/** Documents that do not parse or validate, or ask for too much: the server's own guards must answer them. */
const BROKEN_DOCUMENTS = [
  "",
  "{",
  "query {",
  "{ __typename",
  "{ noSuchField }",
  "{ districts }",
  "{ districts { data } }",
  "{ districts { pagination { total { x } } } }",
  "query Q($a: Int) { districts(limit: $a, limit: 2) { pagination { total } } }",
  "query A { organization { id } } query A { organization { id } }",
  "query A { organization { id } } query B { organization { id } }",
  "mutation { unlock }",
  "subscription { districts { pagination { total } } }",
  "fragment F on District { id ...F } { districts { data { ...F } } }",
  `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: organization { id }`).join(" ")} }`,
  `{ districts { data { ${"schools { data { district { ".repeat(8)}id${" } } }".repeat(8)} } } }`,
  `{ ${"districts { data { id } } ".repeat(2)} }`,
  `query { districts(limit: 200) { data { schools(limit: 200) { data { contacts(limit: 200) { data { id } } } } } } }`,
  "{ __schema { types { name fields { name } } } }",
  `{ organization { id ${"__typename ".repeat(5000)} } }`,
  `query Q(${Array.from({ length: 300 }, (_, i) => `$v${i}: Int`).join(" ")}) { organization { id } }`,
  '{ districts(filter: { state: "\\ud800" }) { pagination { total } } }',
  "{ districts(limit: 99999999999) { pagination { total } } }",
  "{ districts(orderBy: nope) { pagination { total } } }",
  '{ district(id: "not-a-uuid") { id } }',
  "\u0000",
];

/** Requests for one root field, well-formed (`hostile: false`) or not. */
/** One root field with its arguments (variables named `${prefix}N`) and selection, under an alias. */
function rootField(
  field: GraphQLField<unknown, unknown>,
  data: FuzzData,
  selections: Selections,
  hostile: boolean,
  prefix: string,
): fc.Arbitrary<Built> {
  const named = getNamedType(field.type);
  const selection = isObjectType(named) ? selections.of(named, 1) : fc.constant<Built>({ text: "", definitions: [], variables: {} });
  return fc.tuple(argumentsArb(field, data, true, prefix, hostile), selection).map(([args, sub]) => ({
    text: `${prefix}: ${args.text}${sub.text ? ` { ${sub.text} }` : ""}`,
    definitions: args.definitions,
    variables: args.variables,
  }));
}

/** An operation of the parts' root fields. */
const operationOf = (kind: "query" | "mutation", parts: Built[]) => {
  const definitions = parts.flatMap((p) => p.definitions);
  return {
    query: `${kind} Fuzz${definitions.length ? `(${definitions.join(", ")})` : ""} { ${parts.map((p) => p.text).join(" ")} }`,
    variables: Object.assign({}, ...parts.map((p) => p.variables)) as Record<string, unknown>,
  };
};

/** Requests for one root field, well-formed (`hostile: false`) or not. */
function fieldRequests(
  kind: "query" | "mutation",
  field: GraphQLField<unknown, unknown>,
  data: FuzzData,
  selections: Selections,
  hostile: boolean,
): fc.Arbitrary<FuzzRequest> {
  const label = `graphql ${kind === "query" ? "Query" : "Mutation"}.${field.name}`;
  const operation = rootField(field, data, selections, hostile, "a").map((part) => operationOf(kind, [part]));
  return fc.tuple(operation, framing(kind, hostile), callerArb(hostile)).map(([op, frame, caller]) => frame(op, label, caller));
}

/**
 * Well-formed operations of two or three root fields (the same field twice, with other arguments, now and then):
 * what one request's loaders and budget share.
 */
function combinedRequests(
  kind: "query" | "mutation",
  fields: GraphQLField<unknown, unknown>[],
  data: FuzzData,
  selections: Selections,
): fc.Arbitrary<FuzzRequest> {
  const part = (prefix: string) =>
    fc.constantFrom(...fields).chain((field) => rootField(field, data, selections, false, prefix).map((built) => ({ field, built })));
  return fc
    .tuple(fc.array(fc.constant(null), { minLength: 2, maxLength: 3 }), framing(kind, false), callerArb(false))
    .chain(([slots, frame, caller]) =>
      fc.tuple(...slots.map((_, i) => part(`a${i}`))).map((parts) => {
        const label = `graphql ${kind === "query" ? "Query" : "Mutation"} of ${parts.length} fields`;
        return frame(
          operationOf(
            kind,
            parts.map((p) => p.built),
          ),
          label,
          caller,
        );
      }),
    );
}

type Frame = (op: { query: string; variables: Record<string, unknown> }, label: string, caller: FuzzRequest["caller"]) => FuzzRequest;

/** How the operation goes on the wire: a JSON POST, a GET for queries; hostile: odd bodies and bad Content-Type. */
function framing(kind: "query" | "mutation", hostile: boolean): fc.Arbitrary<Frame> {
  const post =
    (body: (op: { query: string; variables: Record<string, unknown> }) => string, contentType = "application/json"): Frame =>
    (op, label, caller) => ({
      face: "graphql",
      label,
      method: "POST",
      path: "/graphql",
      headers: contentType ? { "content-type": contentType } : ({} as Record<string, string>),
      body: body(op),
      caller,
    });
  const get: Frame = (op, label, caller) => ({
    face: "graphql",
    label,
    method: "GET",
    path: `/graphql?query=${pct(op.query)}&variables=${pct(jsonText(op.variables))}`,
    // Apollo's CSRF prevention wants a preflight header on GET.
    headers: { "apollo-require-preflight": "true" },
    caller,
  });
  const plain = fc.constant(post((op) => jsonText(op)));
  if (!hostile) return kind === "query" ? fc.oneof({ arbitrary: plain, weight: 10 }, fc.constant(get)) : plain;
  return fc.oneof(
    { arbitrary: plain, weight: 12 },
    { arbitrary: fc.constant(get), weight: 1 },
    {
      arbitrary: fc.constantFrom<Frame>(
        post((op) => jsonText({ query: op.query, variables: jsonText(op.variables) })),
        post((op) => jsonText({ query: op.query, variables: [op.variables] })),
        post((op) => jsonText({ query: op.query, variables: op.variables, operationName: "Other" })),
        post((op) =>
          jsonText({
            query: op.query,
            variables: op.variables,
            extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } },
          }),
        ),
        post((op) => jsonText([op, op])),
        post((op) => jsonText({ query: [op.query], variables: op.variables })),
        post((op) => jsonText({ variables: op.variables })),
        post((op) => jsonText(op).slice(0, -2)),
        post((op) => jsonText(op), "text/plain"),
        post((op) => jsonText(op), "application/x-www-form-urlencoded"),
        post((op) => jsonText(op), ""),
        post((op) => op.query, "application/graphql"),
      ),
      weight: 3,
    },
  );
}

/** Requests over every root field of the schema, each as likely as any other, half of them well-formed; and broken documents. */
export function graphqlRequests(schema: GraphQLSchema, data: FuzzData): fc.Arbitrary<FuzzRequest> {
  const selections = { valid: new Selections(data, false), hostile: new Selections(data, true) };
  const roots: ["query" | "mutation", GraphQLObjectType | null | undefined][] = [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
  ];
  const fields = roots.flatMap(([kind, type]) =>
    Object.values(type?.getFields() ?? {}).map((field) =>
      fc.oneof(fieldRequests(kind, field, data, selections.valid, false), fieldRequests(kind, field, data, selections.hostile, true)),
    ),
  );
  const combined = roots.map(([kind, type]) => combinedRequests(kind, Object.values(type?.getFields() ?? {}), data, selections.valid));
  const broken = fc.tuple(fc.constantFrom(...BROKEN_DOCUMENTS), callerArb(true)).map(([query, caller]): FuzzRequest => ({
    face: "graphql",
    label: "graphql broken document",
    method: "POST",
    path: "/graphql",
    headers: { "content-type": "application/json" },
    body: jsonText({ query }),
    caller,
  }));
  return fc.oneof(...fields, ...combined, broken);
}

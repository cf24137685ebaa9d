/**
 * The fuzz oracle (test/support/fuzz/oracle.ts) refuses what the fuzz test must fail on: a 5xx, an error body out of
 * the generic shape, a GraphQL error without a code or masked as internal; and finds the canaries of gated records.
 */
import { canariesIn, CANARY_PREFIX, judge, type Received } from "../support/fuzz/oracle";
import type { FuzzRequest } from "../support/fuzz/request";

const rest: FuzzRequest = {
  face: "rest",
  label: "GET /districts",
  method: "GET",
  path: "/api/v1/districts",
  headers: {},
  caller: "enterprise",
};
const graphql: FuzzRequest = { ...rest, face: "graphql", label: "graphql Query.districts", method: "POST", path: "/graphql" };
const json = (status: number, body: unknown): Received => ({
  status,
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify(body),
});
const problems = (request: FuzzRequest, received: Received) => judge(request, received).map((p) => p.problem);

describe("fuzz oracle", () => {
  it("passes success bodies and generic error bodies", () => {
    expect(problems(rest, json(200, { data: [] }))).toEqual([]);
    expect(problems(rest, json(400, { error: "bad_request", message: "limit must be ...", statusCode: 400 }))).toEqual([]);
    expect(problems(rest, json(402, { error: "insufficient_credits", message: "x", statusCode: 402, balance: 0, required: 6 }))).toEqual(
      [],
    );
    expect(problems(rest, { status: 204, contentType: "", body: "" })).toEqual([]);
    expect(problems(rest, { status: 200, contentType: "text/csv", body: "id\n1\n" })).toEqual([]);
  });

  it("refuses a 5xx, whatever its body", () => {
    expect(problems(rest, json(500, { error: "internal_error", message: "internal error", statusCode: 500 }))).toEqual(["5xx"]);
    expect(problems(rest, json(503, { status: "unavailable" }))).toEqual(["5xx", "shape"]);
  });

  it("refuses error bodies out of the generic shape", () => {
    expect(problems(rest, json(400, { message: "no error field", statusCode: 400 }))).toEqual(["shape"]);
    expect(problems(rest, json(404, { error: "not_found", message: "x", statusCode: 400 }))).toEqual(["shape"]);
    expect(problems(rest, json(400, { errors: [{ message: "x" }] }))).toEqual(["shape"]);
    expect(problems(rest, { status: 400, contentType: "text/html", body: "<pre>Bad Request</pre>" })).toEqual(["shape"]);
    expect(problems(rest, { status: 200, contentType: "application/json", body: "{" })).toEqual(["shape"]);
  });

  it("refuses messages that carry the server's internals instead of the caller's problem", () => {
    const generic = (message: string) => json(400, { error: "bad_request", message, statusCode: 400 });
    expect(problems(rest, generic("Cannot read properties of null (reading 'variableDefinitions')"))).toEqual(["internal-message"]);
    expect(problems(rest, generic('invalid input syntax for type uuid: "x"'))).toEqual(["internal-message"]);
    expect(problems(graphql, json(400, { errors: [{ message: "x is not a function", extensions: { code: "BAD_USER_INPUT" } }] }))).toEqual([
      "internal-message",
    ]);
    expect(problems(rest, generic('limit must be an integer from 1 to 200; got "undefined"'))).toEqual([]);
  });

  it("GraphQL: every error coded, none internal; other 4xx bodies generic", () => {
    expect(
      problems(graphql, json(200, { data: { districts: null }, errors: [{ message: "x", extensions: { code: "NOT_FOUND" } }] })),
    ).toEqual([]);
    expect(problems(graphql, json(400, { errors: [{ message: "x" }] }))).toEqual(["graphql-code"]);
    expect(
      problems(graphql, json(200, { data: null, errors: [{ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } }] })),
    ).toEqual(["graphql-internal"]);
    expect(problems(graphql, json(401, { error: "unauthorized", message: "x", statusCode: 401 }))).toEqual([]);
    expect(problems(graphql, json(413, { message: "too large" }))).toEqual(["shape"]);
  });

  it("finds each canary once, as a UUID", () => {
    const id = "0a1b2c3d-4e5f-4061-8728-394a5b6c7d8e";
    const canary = `${CANARY_PREFIX}${id.replaceAll("-", "")}`;
    expect(canariesIn(JSON.stringify({ email: `${canary}@x`, phone: canary, other: "fzleak123" }))).toEqual([id]);
    expect(canariesIn('{"email":null}')).toEqual([]);
  });
});

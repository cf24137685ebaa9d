/**
 * What every response must be, whatever was sent (contract section 2; docs/http-conventions.md): never a 5xx;
 * every 4xx (and any other error) the generic body `{ error, message, statusCode }` with statusCode equal to the
 * status, as JSON; on /graphql, every error of a GraphQL-shaped body carrying a code, and none of them
 * INTERNAL_SERVER_ERROR (a resolver's failure masked into a 200 is the same defect as a REST 500). Hangs are
 * judged by the runner, which knows the clock; leaks by the runner too, from the canaries found here (the runner
 * knows the caller and asks the database whether its organization unlocked the record).
 */
import type { FuzzRequest } from "./request";

export type Problem = "5xx" | "shape" | "internal-message" | "graphql-code" | "graphql-internal" | "hang" | "leak" | "connection";

/**
 * Text of the server's internals in an error message (a JavaScript error, PostgreSQL's or Prisma's own words, a
 * stack frame or a source path): the message must name the caller's problem instead (contract section 2).
 */
const INTERNALS =
  /Cannot read propert(y|ies) of|is not a function|is not iterable|Maximum call stack|\bat \S+ \(\S+:\d+:\d+\)|invalid input syntax for|violates \S+ constraint|relation "\w+" does not exist|column "\w+" does not exist|syntax error at or near|out of range for type|could not determine data type|Invalid `prisma|PrismaClient|node_modules\/|\/src\/\w+\//;

export interface Received {
  status: number;
  contentType: string;
  body: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The generic error body: error and message strings, statusCode the HTTP status (extra fields allowed). */
export function isGenericError(body: unknown, status: number): boolean {
  return (
    isObject(body) && typeof body.error === "string" && body.error !== "" && typeof body.message === "string" && body.statusCode === status
  );
}

function parse(received: Received): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(received.body) };
  } catch {
    return { ok: false };
  }
}

/** The problems of one response (empty when it is as it must be), each with a short reason. */
export function judge(request: FuzzRequest, received: Received): { problem: Problem; reason: string }[] {
  const { status } = received;
  const problems: { problem: Problem; reason: string }[] = [];
  if (status >= 500) problems.push({ problem: "5xx", reason: `status ${status}` });
  const bodyless = request.method === "HEAD" || status === 204 || status === 304;
  if (bodyless) return problems;
  const json = /^application\/(json|graphql-response\+json)\b/.test(received.contentType);
  const parsed = json ? parse(received) : { ok: false as const };

  if (request.face === "graphql" && parsed.ok && isObject(parsed.value) && Array.isArray(parsed.value.errors)) {
    for (const error of parsed.value.errors as unknown[]) {
      const code = isObject(error) && isObject(error.extensions) ? error.extensions.code : undefined;
      const message = isObject(error) && typeof error.message === "string" ? error.message : "";
      if (INTERNALS.test(message)) problems.push({ problem: "internal-message", reason: `status ${status}: ${message.slice(0, 300)}` });
      if (typeof code !== "string" || !code)
        problems.push({ problem: "graphql-code", reason: `error without a code: ${JSON.stringify(error).slice(0, 300)}` });
      else if (code === "INTERNAL_SERVER_ERROR")
        problems.push({ problem: "graphql-internal", reason: `status ${status}: ${JSON.stringify(error).slice(0, 300)}` });
    }
    return problems;
  }
  if (status >= 400 || (status >= 300 && status !== 304)) {
    if (!parsed.ok)
      problems.push({
        problem: "shape",
        reason: `status ${status}, ${received.contentType || "no Content-Type"}: ${received.body.slice(0, 300)}`,
      });
    else if (!isGenericError(parsed.value, status))
      problems.push({ problem: "shape", reason: `status ${status}: ${received.body.slice(0, 300)}` });
    else if (INTERNALS.test((parsed.value as { message: string }).message))
      problems.push({ problem: "internal-message", reason: `status ${status}: ${received.body.slice(0, 300)}` });
  } else if (json && !parsed.ok) {
    problems.push({
      problem: "shape",
      reason: `status ${status}: a JSON Content-Type over a body that is not JSON: ${received.body.slice(0, 200)}`,
    });
  }
  return problems;
}

/** Gated columns of the fuzz data hold `fzleak` and their record's id without dashes (fixtures.ts plants them). */
export const CANARY_PREFIX = "fzleak";
const CANARY = new RegExp(`${CANARY_PREFIX}([0-9a-f]{32})`, "g");

/** The records whose canaries a response body carries (their ids, with dashes). */
export function canariesIn(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(CANARY)) {
    const hex = match[1]!;
    ids.add(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  }
  return [...ids];
}

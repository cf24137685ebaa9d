/**
 * Sends fuzzed requests to a running server and judges each answer: the oracle (oracle.ts), a per-request
 * deadline (a hang), and the canaries of gated records (fixtures.ts) in any body of an organization that has not
 * unlocked them (a leak). Requests come from one seed, drawn in chunks of 20 (`seed + chunk`), so a run is replayed
 * with the same seed; each failure is kept with its request as a curl-like line.
 */
import http from "node:http";
import zlib from "node:zlib";
import fc from "fast-check";
import type { GraphQLSchema } from "graphql";
import type { RouteSpec } from "../../../rest-adapter/route";
import { graphqlRequests } from "./graphql";
import type { FuzzData } from "./inputs";
import { canariesIn, judge, type Problem } from "./oracle";
import { PLANS, type PlanKey } from "../plans";
import { describeRequest, type Caller, type FuzzRequest } from "./request";
import { restRequests } from "./rest";

export interface FuzzTarget {
  /** http://127.0.0.1:port */
  base: string;
  keys: Record<PlanKey, string>;
  orgs: Record<PlanKey, string>;
  /** Whether the organization has unlocked the record now (a canary it sees is then its own). */
  hasUnlocked(organizationId: string, recordId: string): Promise<boolean>;
}

export interface FuzzOptions {
  seed: number;
  runs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** A request unanswered this long is a hang (and is abandoned). */
  timeoutMs: number;
  /** Share of GraphQL requests (the rest are REST). */
  graphqlShare?: number;
  onProgress?: (done: number, report: FuzzReport) => void;
  /** Failures kept in the report (all are counted). */
  keepFailures?: number;
  /** Stops taking new requests when aborted (the ones in flight finish); the report says it stopped. */
  signal?: AbortSignal;
}

export interface Failure {
  index: number;
  problem: Problem;
  reason: string;
  label: string;
  request: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  counts: Record<Problem, number>;
  /** Responses by status ("200": n ...), "error" for no response. */
  statuses: Record<string, number>;
  /** Requests by what they exercise (route or root field). */
  labels: Record<string, number>;
  /** Milliseconds spent waiting for answers, by label. */
  labelMs: Record<string, number>;
  /** 2xx answers by label: how often a route or field got past validation to a result. */
  labelOk: Record<string, number>;
  /** Canaries of gated records seen by an organization that had unlocked them: the leak check at work. */
  canariesOwned: number;
  slowest: { label: string; ms: number; request: string } | null;
  elapsedMs: number;
  /** Stopped by `signal` before `runs` requests. */
  stopped: boolean;
  failures: Failure[];
}

/**
 * Requests drawn at a time: drawing is synchronous, so a large chunk (500 took seconds on a loaded machine) stalled
 * the process's event loop and every request in flight counted the stall as its own wait (false hangs).
 */
const CHUNK = 20;

/** The requests of a seed, lazily: chunk k is sampled with seed + k. */
export function* fuzzRequests(arb: fc.Arbitrary<FuzzRequest>, seed: number, runs: number): Generator<FuzzRequest> {
  for (let chunk = 0; chunk * CHUNK < runs; chunk++) {
    const n = Math.min(CHUNK, runs - chunk * CHUNK);
    yield* fc.sample(arb, { seed: seed + chunk, numRuns: n });
  }
}

/** The arbitrary of every request: REST routes and GraphQL root fields, from the definitions. */
export function requestArbitrary(
  routes: readonly RouteSpec[],
  schema: GraphQLSchema,
  data: FuzzData,
  graphqlShare = 0.5,
): fc.Arbitrary<FuzzRequest> {
  const weight = Math.round(graphqlShare * 100);
  return fc.oneof(
    { arbitrary: restRequests(routes, schema, data), weight: 100 - weight },
    { arbitrary: graphqlRequests(schema, data), weight },
  );
}

function authorization(caller: Caller, keys: Record<PlanKey, string>): string | undefined {
  if (caller === "none") return undefined;
  if (caller === "malformed") return "Basic Zm9vOmJhcg==";
  if (caller === "unknown") return "Bearer sk_live_0000000000000000000000000000000000000000";
  return `Bearer ${keys[caller]}`;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** A response body as sent, decompressed (a hostile request may ask for gzip, deflate or br). */
function decode(bytes: Buffer, encoding: string): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(bytes);
  if (encoding === "deflate") return zlib.inflateSync(bytes);
  if (encoding === "br") return zlib.brotliDecompressSync(bytes);
  return bytes;
}

/** One request over a keep-alive agent; rejects on a socket error, resolves "timeout" after `timeoutMs`. */
function send(
  agent: http.Agent,
  base: URL,
  request: FuzzRequest,
  keys: Record<PlanKey, string>,
  timeoutMs: number,
): Promise<Answer | "timeout"> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    const auth = authorization(request.caller, keys);
    if (auth) headers.authorization = auth;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
    if (body) headers["content-length"] = String(body.length);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.path, headers, agent });
    } catch (error) {
      return reject(error);
    }
    const timer = setTimeout(() => {
      req.destroy();
      resolve("timeout");
    }, timeoutMs);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        clearTimeout(timer);
        let body: string;
        try {
          body = decode(Buffer.concat(chunks), String(res.headers["content-encoding"] ?? "identity")).toString("utf8");
        } catch (error) {
          body = `(the body does not decode as its Content-Encoding ${String(res.headers["content-encoding"])}: ${String(error)})`;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body });
      });
      res.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

const emptyCounts = (): Record<Problem, number> => ({
  "5xx": 0,
  shape: 0,
  "internal-message": 0,
  "graphql-code": 0,
  "graphql-internal": 0,
  hang: 0,
  leak: 0,
  connection: 0,
});

/** Sends `runs` requests of the seed, `concurrency` at a time, and reports what was seen. */
export async function runFuzz(target: FuzzTarget, arb: fc.Arbitrary<FuzzRequest>, options: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(target.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const orgOf = (caller: Caller) => ((PLANS as readonly string[]).includes(caller) ? target.orgs[caller as PlanKey] : undefined);
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    counts: emptyCounts(),
    statuses: {},
    labels: {},
    labelMs: {},
    labelOk: {},
    canariesOwned: 0,
    slowest: null,
    elapsedMs: 0,
    stopped: false,
    failures: [],
  };
  const keep = options.keepFailures ?? 50;
  const fail = (index: number, request: FuzzRequest, problem: Problem, reason: string) => {
    report.counts[problem] += 1;
    if (report.failures.length < keep)
      report.failures.push({ index, problem, reason, label: request.label, request: describeRequest(request) });
  };
  const started = performance.now();
  const requests = fuzzRequests(arb, options.seed, options.runs);
  let index = 0;

  const one = async (i: number, request: FuzzRequest): Promise<void> => {
    const t0 = performance.now();
    let answer: Answer | "timeout";
    try {
      answer = await send(agent, base, request, target.keys, options.timeoutMs);
    } catch {
      // A kept-alive socket the server closed between two requests: once more on a fresh connection.
      try {
        answer = await send(new http.Agent({ keepAlive: false }), base, request, target.keys, options.timeoutMs);
      } catch (error) {
        report.statuses.error = (report.statuses.error ?? 0) + 1;
        return fail(i, request, "connection", String((error as Error).message ?? error));
      }
    }
    const ms = performance.now() - t0;
    report.labels[request.label] = (report.labels[request.label] ?? 0) + 1;
    report.labelMs[request.label] = Math.round((report.labelMs[request.label] ?? 0) + ms);
    if (!report.slowest || ms > report.slowest.ms)
      report.slowest = { label: request.label, ms: Math.round(ms), request: describeRequest(request, 200) };
    if (answer === "timeout" || ms > options.timeoutMs) {
      report.statuses.timeout = (report.statuses.timeout ?? 0) + 1;
      return fail(i, request, "hang", `no answer within ${options.timeoutMs} ms (${Math.round(ms)} ms)`);
    }
    report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    if (answer.status < 300) report.labelOk[request.label] = (report.labelOk[request.label] ?? 0) + 1;
    for (const { problem, reason } of judge(request, answer)) fail(i, request, problem, reason);
    const org = orgOf(request.caller);
    for (const id of canariesIn(answer.body)) {
      if (org && (await target.hasUnlocked(org, id))) report.canariesOwned += 1;
      else fail(i, request, "leak", `gated column of ${id} shown to ${request.caller}: ${answer.body.slice(0, 200)}`);
    }
  };

  const worker = async () => {
    for (;;) {
      if (options.signal?.aborted) {
        report.stopped = true;
        return;
      }
      const next = requests.next();
      if (next.done) return;
      const i = index++;
      await one(i, next.value);
      report.requests += 1;
      if (options.onProgress && report.requests % 1000 === 0) options.onProgress(report.requests, report);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  report.elapsedMs = Math.round(performance.now() - started);
  return report;
}

/** The report's headline: requests, each problem's count, the slowest request, the status histogram. */
export function summarize(report: FuzzReport): string {
  const statuses = Object.entries(report.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  return [
    `seed ${report.seed}: ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s${report.stopped ? " (stopped before the end)" : ""}`,
    `5xx ${report.counts["5xx"]}, bad shape ${report.counts.shape}, internals in a message ${report.counts["internal-message"]}, GraphQL errors without a code ${report.counts["graphql-code"]}, ` +
      `GraphQL internal errors ${report.counts["graphql-internal"]}, hangs ${report.counts.hang}, leaks ${report.counts.leak}, connection errors ${report.counts.connection}`,
    `slowest: ${report.slowest ? `${report.slowest.label} ${report.slowest.ms} ms` : "none"}; canaries seen by their unlocking organization: ${report.canariesOwned}`,
    `statuses: ${statuses}`,
  ].join("\n");
}

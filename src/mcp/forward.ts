/**
 * `edmarket mcp` beside a running `serve` on the same embedded data directory. PGlite admits one process
 * per directory (src/db/data-dir-lock.ts), so instead of opening the database this process relays every
 * JSON-RPC message from stdin to the service's streamable-HTTP endpoint (`POST /mcp`, stateless, JSON
 * answers; src/mcp/http.ts) with the API key, and writes the answers to stdout. The service runs the tools
 * on its own engine, so limits, gating and errors are the same; the service's URL is the one `serve`
 * recorded in the lock file once it listened.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { UnauthenticatedError } from "../graphql/errors";
import { logger } from "../logger";
import { StartupError } from "../startup-error";
import type { StdioSession } from "./session";

/** JSON-RPC's "internal error" code, for a message the service did not answer with JSON-RPC. */
const RELAY_FAILED = -32603;

export async function forwardMcpStdio(options: { url: string; apiKey: string | undefined; holderPid: number }): Promise<StdioSession> {
  const endpoint = `${options.url}/mcp`;
  const key = options.apiKey;
  // The same refusal as the direct mode's, before any MCP message: the service checks the key.
  if (!key) throw new UnauthenticatedError("missing API key: pass --key sk_live_... or set EDMARKET_API_KEY");
  let probe: Response;
  try {
    probe = await fetch(`${options.url}/api/v1/org`, { headers: { authorization: `Bearer ${key}` } });
  } catch (error) {
    throw new StartupError(
      "service_unreachable",
      `DATA_DIR is in use by process ${options.holderPid}, whose API at ${options.url} does not answer (${(error as Error).message}); stop it or set another DATA_DIR`,
    );
  }
  if (probe.status === 401) {
    const body = (await probe.json().catch(() => ({}))) as { message?: string };
    throw new UnauthenticatedError(body.message ?? "unknown or revoked API key");
  }
  await probe.body?.cancel().catch(() => undefined);

  let protocolVersion: string | undefined;
  const transport = new StdioServerTransport();
  const reply = (message: JSONRPCMessage) =>
    transport.send(message).catch((error: unknown) => logger.warn("mcp relay: stdout write failed", { error: String(error) }));

  const relay = async (message: JSONRPCMessage): Promise<void> => {
    const id = "id" in message ? message.id : undefined;
    const isRequest = "method" in message && id !== undefined;
    const fail = (text: string) => {
      if (isRequest) void reply({ jsonrpc: "2.0", id: id!, error: { code: RELAY_FAILED, message: text } });
      else logger.warn("mcp relay: a notification was not delivered", { error: text });
    };
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(protocolVersion ? { "mcp-protocol-version": protocolVersion } : {}),
        },
        body: JSON.stringify(message),
      });
    } catch (error) {
      return fail(`the edmarket service at ${options.url} does not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!text) {
      if (response.status >= 400) fail(`the edmarket service answered ${response.status}`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(`the edmarket service answered ${response.status} with no JSON`);
    }
    const messages = (Array.isArray(body) ? body : [body]) as Record<string, unknown>[];
    if (!messages.every((m) => m && m.jsonrpc === "2.0")) {
      // The generic error body ({ error, message, statusCode }): a 401 for a revoked key, a 429 ...
      const generic = body as { message?: string };
      return fail(generic.message ?? `the edmarket service answered ${response.status}`);
    }
    for (const answer of messages) {
      const result = answer.result as { protocolVersion?: unknown } | undefined;
      if ("method" in message && message.method === "initialize" && typeof result?.protocolVersion === "string")
        protocolVersion = result.protocolVersion;
      await reply(answer as JSONRPCMessage);
    }
  };

  const inFlight = new Set<Promise<void>>();
  transport.onmessage = (message) => {
    const pending = relay(message).catch((error: unknown) => logger.error("mcp relay failed", { error: String(error) }));
    inFlight.add(pending);
    void pending.finally(() => inFlight.delete(pending));
  };
  await transport.start();
  logger.info("mcp server on stdio, relaying to the running service", { url: options.url, holder_pid: options.holderPid });

  let stopping: Promise<void> | undefined;
  // Deferred, so a close that reports back through onclose finds `stopping` set (no re-entry).
  const stop = () => (stopping ??= Promise.resolve().then(() => transport.close()));
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => void stop().then(resolve);
    process.stdin.once(
      "end",
      () =>
        // Answers still on their way are written before the process ends.
        void Promise.allSettled([...inFlight])
          .then(stop)
          .then(resolve),
    );
  });
  return { closed, stop };
}

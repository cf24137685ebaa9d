import crypto from "node:crypto";
import http from "node:http";
import { httpError } from "./graphql/errors";

const MAX_HEADER_BYTES = 64 * 1024;
const KEEP_ALIVE_MS = 65_000;
/** How often a drain closes the connections that went idle since (a keep-alive socket after its last response). */
const DRAIN_POLL_MS = 50;

/** The HTTP listener of a process: `drain` ends it gracefully (SIGTERM, src/server.ts). */
export interface HttpServer extends http.Server {
  /**
   * Stops accepting connections and lets the requests in flight finish, for at most `ms`: each of their responses
   * closes its connection, idle keep-alive connections are closed at once, and a request that still arrives on an open
   * connection is answered 503 service_unavailable (the generic body). After `ms` the remaining connections are cut.
   * Resolves when the listener is closed.
   */
  drain(ms: number): Promise<void>;
}

/** 64 KiB of request line and headers: a 16,000-character metric_query fits in a GET. */
export function createHttpServer(app: http.RequestListener): HttpServer {
  const inFlight = new Set<http.ServerResponse>();
  let draining = false;
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    if (draining) return refuseWhileDraining(res);
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    app(req, res);
  });
  // Idle keep-alive connections outlive the clients' own idle timeouts (undici 4 s, proxies and load balancers about
  // 60 s): Node's 5 s default closed sockets a client was just reusing on a loaded machine ("other side closed").
  // headersTimeout stays the bound on a slow request's headers (slowloris) and must exceed keepAliveTimeout.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // Requests Node's parser refuses never reach Express: answer them with the generic error body too.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const [status, code, message] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [
            431,
            "request_header_fields_too_large",
            "the request line and headers exceed 64 KiB; send long parameters in the POST twin's body",
          ]
        : [400, "bad_request", "malformed HTTP request"];
    const body = JSON.stringify({ error: code, message, statusCode: status });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  let drained: Promise<void> | undefined;
  const drain = (ms: number) =>
    (drained ??= (async () => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Without this, every client's idle keep-alive connection held the process for keepAliveTimeout (65 s).
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      const deadline = Date.now() + ms;
      while (inFlight.size && Date.now() < deadline) {
        server.closeIdleConnections();
        await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
      }
      server.closeIdleConnections();
      server.closeAllConnections();
      await closed;
    })());
  return Object.assign(server, { drain });
}

/** A request that arrived after the drain began: nothing was done; the client sends it again (to another process). */
function refuseWhileDraining(res: http.ServerResponse): void {
  const body = JSON.stringify(httpError("SERVICE_UNAVAILABLE", "the server is shutting down; send the request again"));
  res.writeHead(503, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-Id": crypto.randomUUID(),
    Connection: "close",
  });
  res.end(body);
}

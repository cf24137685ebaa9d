import http from "node:http";

const MAX_HEADER_BYTES = 64 * 1024;
const KEEP_ALIVE_MS = 65_000;

/** 64 KiB of request line and headers: a 16,000-character metric_query fits in a GET. */
export function createHttpServer(app: http.RequestListener): http.Server {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
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
  return server;
}

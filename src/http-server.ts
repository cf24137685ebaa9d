import http from "node:http";

/** 64 KiB of request line and headers: a 16,000-character metric_query fits in a GET. */
export function createHttpServer(app: http.RequestListener): http.Server {
  return http.createServer({ maxHeaderSize: 64 * 1024 }, app);
}

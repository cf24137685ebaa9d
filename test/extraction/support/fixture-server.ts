/**
 * A fixture website on a loopback port: the files of test/extraction/fixtures/<site>/ ("/" is
 * index.html), with `{{ORIGIN}}` in HTML, XML and text replaced by the server's origin, and the
 * behaviours of the site's `_server.json`: `slow` (path -> ms before any byte), `redirects` (path ->
 * location, 301), `oversized` (path -> bytes of a chunked PDF body without Content-Length).
 * Every request's path is recorded in `requests`.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface FixtureSite {
  origin: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

interface ServerConfig {
  slow?: Record<string, number>;
  redirects?: Record<string, string>;
  oversized?: Record<string, number>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".pdf": "application/pdf",
  ".png": "image/png",
};

export const FIXTURES = path.join(__dirname, "..", "fixtures");

export async function serveFixtureSite(site: string): Promise<FixtureSite> {
  const dir = path.join(FIXTURES, site);
  const configFile = path.join(dir, "_server.json");
  const config: ServerConfig = fs.existsSync(configFile) ? JSON.parse(fs.readFileSync(configFile, "utf8")) : {};
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let origin = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const pathname = decodeURIComponent(url.pathname);
    requests.push(pathname + url.search);
    const location = config.redirects?.[pathname];
    if (location) {
      res.writeHead(301, { location });
      return res.end();
    }
    const oversized = config.oversized?.[pathname];
    if (oversized) {
      res.writeHead(200, { "content-type": "application/pdf" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < oversized) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (sent = oversized));
      return pump();
    }
    const serve = () => {
      const relative = pathname.endsWith("/") ? `${pathname}index.html` : pathname;
      const file = path.join(dir, path.normalize(relative));
      if (!file.startsWith(dir) || path.basename(file).startsWith("_") || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404, { "content-type": "text/html" });
        return res.end("<h1>Not found</h1>");
      }
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      let body = fs.readFileSync(file);
      if (/^(text|application\/xml)/.test(type)) body = Buffer.from(body.toString("utf8").replaceAll("{{ORIGIN}}", origin));
      res.writeHead(200, { "content-type": type, "content-length": body.length });
      res.end(body);
    };
    const delay = config.slow?.[pathname];
    if (delay) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) serve();
      }, delay);
      timers.add(timer);
      return;
    }
    serve();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An origin nothing listens on (a port taken and released). */
export async function deadOrigin(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The environment the extraction tests run with: loopback allowed, short timeouts, no politeness pause. */
export const EXTRACTION_TEST_ENV = {
  EXTRACTION_ALLOW_PRIVATE_HOSTS: "true",
  EXTRACTION_HOST_DELAY_MS: "0",
  EXTRACTION_CONNECT_TIMEOUT_MS: "2000",
  EXTRACTION_READ_TIMEOUT_MS: "1000",
  EXTRACTION_MAX_BYTES: String(1024 * 1024),
  EXTRACTION_MAX_REDIRECTS: "5",
};

/** A plain listener on `host:port` (0: any free port) that records every request's path, for address tests. */
export interface Listener {
  port: number;
  requests: string[];
  close(): Promise<void>;
}

export async function listen(host: string, port: number, handler: http.RequestListener): Promise<Listener> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The crawler's HTTP client: one GET at a time per host with a pause between requests (process-wide),
 * connect and read timeouts, a byte cap per response (checked on Content-Length and while streaming the
 * decompressed body), bounded redirects with loop detection (every hop asks the caller whether it may be
 * requested: robots.txt is honoured for redirect targets too), a content-type check before the body is
 * read, and a User-Agent naming the product. Addresses outside the public internet are refused where the
 * socket is made (address-guard.ts): IP literals before connecting, names in the lookup the socket uses
 * (every answer), and the peer again when the socket connects, on every redirect hop; unless
 * EXTRACTION_ALLOW_PRIVATE_HOSTS is set (a district website_url must not reach the intranet).
 */
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import zlib from "node:zlib";
import { guardedLookup, isIPAddress, refusedReason, RefusedAddressError, type LookupFunction } from "./address-guard";

export interface HttpLimits {
  userAgent: string;
  maxBytes: number;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  maxRedirects: number;
  hostDelayMs: number;
  allowPrivateHosts: boolean;
}

export interface HttpClientOptions {
  /** The resolver behind the address guard (default dns.lookup); tests give names their own answers. */
  lookup?: LookupFunction;
  /** Exact addresses let through although their range is refused (tests: a "public" listener on 127.0.0.2). */
  allowAddresses?: readonly string[];
}

export type FetchErrorKind =
  | "connect"
  | "timeout"
  | "too_large"
  | "redirect_loop"
  | "too_many_redirects"
  | "http_status"
  | "content_type"
  | "forbidden_address"
  | "robots"
  | "bad_url"
  | "network";

export class FetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    readonly url: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchedResponse {
  /** The URL asked for and the one answered (after redirects). */
  requestedUrl: string;
  url: string;
  status: number;
  contentType: string;
  /** The Content-Type header as sent (with its charset). */
  contentTypeHeader: string;
  body: Buffer;
  redirects: string[];
  /** The response's headers (ETag and Last-Modified for a conditional GET next time). */
  headers: http.IncomingHttpHeaders;
}

export interface GetOptions {
  /** Decides from the Content-Type (lowercased, without parameters) whether the body is wanted. */
  accept?: (contentType: string) => boolean;
  /** Asked before every request (the first and each redirect target); false refuses it (robots.txt). */
  allowed?: (url: string) => boolean;
  /** Extra pause for this host (robots.txt Crawl-delay); the larger of it and hostDelayMs applies. */
  hostDelayMs?: number;
  /** Extra request headers (If-None-Match / If-Modified-Since of a conditional GET: a 304 is an http_status error with status 304). */
  headers?: Record<string, string>;
}

/** Serializes requests per host across the process, with a pause after each. */
export class HostScheduler {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastEnd = new Map<string, number>();

  async run<T>(host: string, delayMs: number, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(host, tail);
    await previous;
    try {
      const wait = (this.lastEnd.get(host) ?? 0) + delayMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return await fn();
    } finally {
      this.lastEnd.set(host, Date.now());
      // A worker crawls many hosts over its life: forget the ones whose pause is long over.
      if (this.lastEnd.size > 1000)
        for (const [h, at] of this.lastEnd) if (Date.now() - at > 60_000 && !this.tails.has(h)) this.lastEnd.delete(h);
      release();
      if (this.tails.get(host) === tail) this.tails.delete(host);
    }
  }
}

/** One scheduler per process: two extractions on one host still take turns. */
export const HOSTS = new HostScheduler();

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class HttpClient {
  /** Every URL a request was sent to, in order (tests prove robots-forbidden paths never appear). */
  readonly requested: string[] = [];
  private readonly allowAddresses: ReadonlySet<string>;
  private readonly lookup: LookupFunction | undefined;

  constructor(
    readonly limits: HttpLimits,
    private readonly scheduler: HostScheduler = HOSTS,
    options: HttpClientOptions = {},
  ) {
    this.allowAddresses = new Set(options.allowAddresses ?? []);
    this.lookup = limits.allowPrivateHosts ? options.lookup : guardedLookup(options.lookup, this.allowAddresses);
  }

  /** Why a socket may not use this address (null: it may). */
  private refused(address: string): string | null {
    return this.limits.allowPrivateHosts || this.allowAddresses.has(address) ? null : refusedReason(address);
  }

  async get(url: string, options: GetOptions = {}): Promise<FetchedResponse> {
    const redirects: string[] = [];
    const seen = new Set<string>();
    let current = url;
    for (;;) {
      let parsed: URL;
      try {
        parsed = new URL(current);
      } catch {
        throw new FetchError("bad_url", current, `not a URL: ${current}`);
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
        throw new FetchError("bad_url", current, `only http and https are fetched: ${current}`);
      if (options.allowed && !options.allowed(current))
        throw new FetchError("robots", current, `robots.txt disallows ${current}${redirects.length ? ` (redirected from ${url})` : ""}`);
      seen.add(current);
      const delay = Math.max(this.limits.hostDelayMs, options.hostDelayMs ?? 0);
      const answer = await this.scheduler.run(parsed.host, delay, () => this.once(parsed, options));
      if (answer.location === undefined) return { ...answer.response!, requestedUrl: url, redirects };
      const next = new URL(answer.location, current);
      next.hash = "";
      const nextUrl = next.toString();
      if (seen.has(nextUrl)) throw new FetchError("redirect_loop", url, `redirect loop: ${[...redirects, current, nextUrl].join(" -> ")}`);
      if (redirects.length >= this.limits.maxRedirects)
        throw new FetchError("too_many_redirects", url, `more than ${this.limits.maxRedirects} redirects from ${url}`);
      redirects.push(current);
      current = nextUrl;
    }
  }

  /** One request: either a redirect's location or the response. */
  private once(
    target: URL,
    options: GetOptions,
  ): Promise<{ location?: string; response?: Omit<FetchedResponse, "requestedUrl" | "redirects"> }> {
    const url = target.toString();
    const limits = this.limits;
    // An IP literal is never looked up (net.connect skips lookup for it): it is checked here, itself.
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const literalReason = isIPAddress(host) ? this.refused(host) : null;
    if (literalReason !== null)
      return Promise.reject(
        new FetchError("forbidden_address", url, `${new RefusedAddressError(host, host, literalReason).message}: ${url}`),
      );
    this.requested.push(url);
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: FetchError) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
        request.destroy();
        reject(error);
      };
      const done = (value: { location?: string; response?: Omit<FetchedResponse, "requestedUrl" | "redirects"> }) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
        resolve(value);
      };
      const lib = target.protocol === "https:" ? https : http;
      const request = lib.request(target, {
        method: "GET",
        agent: false,
        headers: {
          "user-agent": limits.userAgent,
          accept: "text/html,application/xhtml+xml,application/pdf;q=0.9,application/xml;q=0.8,text/plain;q=0.5,*/*;q=0.1",
          "accept-encoding": "gzip, deflate, br",
          ...options.headers,
        },
        lookup: this.lookup,
      });
      const connectTimer = setTimeout(
        () => fail(new FetchError("timeout", url, `connect timeout after ${limits.connectTimeoutMs} ms: ${url}`)),
        limits.connectTimeoutMs,
      );
      // A slow drip of bytes resets the read timeout; this bounds the whole response.
      const totalTimer = setTimeout(
        () => fail(new FetchError("timeout", url, `response took longer than ${limits.readTimeoutMs * 4} ms: ${url}`)),
        limits.connectTimeoutMs + limits.readTimeoutMs * 4,
      );
      request.on("socket", (socket: net.Socket) => {
        // The peer actually connected to, checked before anything is written to it (prepended: runs
        // before the queued request bytes are flushed and before a TLS ClientHello).
        socket.prependOnceListener("connect", () => {
          const peer = socket.remoteAddress ?? "";
          const reason = this.refused(peer);
          if (reason !== null)
            fail(new FetchError("forbidden_address", url, `${new RefusedAddressError(peer, peer, reason).message}: ${url}`));
        });
        socket.once(target.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
      });
      request.setTimeout(limits.readTimeoutMs, () =>
        fail(new FetchError("timeout", url, `read timeout after ${limits.readTimeoutMs} ms: ${url}`)),
      );
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (error instanceof FetchError) return fail(error);
        const code = error.code ?? "";
        if (error instanceof RefusedAddressError) return fail(new FetchError("forbidden_address", url, `${error.message}: ${url}`));
        const kind = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET"].includes(code)
          ? "connect"
          : "network";
        fail(new FetchError(kind, url, `${code || "network error"}: ${error.message}`));
      });
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        if (REDIRECTS.has(status) && response.headers.location) {
          response.resume();
          return done({ location: response.headers.location });
        }
        if (status < 200 || status > 299) {
          response.resume();
          return fail(new FetchError("http_status", url, `HTTP ${status}: ${url}`, status));
        }
        const contentTypeHeader = String(response.headers["content-type"] ?? "");
        const contentType = contentTypeHeader.split(";")[0]!.trim().toLowerCase();
        if (options.accept && !options.accept(contentType))
          return fail(new FetchError("content_type", url, `content type ${contentType || "(none)"} not fetched: ${url}`));
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > limits.maxBytes)
          return fail(new FetchError("too_large", url, `response of ${declared} bytes exceeds the cap of ${limits.maxBytes}: ${url}`));
        const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
        const stream =
          encoding === "gzip" || encoding === "x-gzip"
            ? response.pipe(zlib.createGunzip())
            : encoding === "deflate"
              ? response.pipe(zlib.createInflate())
              : encoding === "br"
                ? response.pipe(zlib.createBrotliDecompress())
                : response;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            fail(new FetchError("too_large", url, `response exceeds the cap of ${limits.maxBytes} bytes: ${url}`));
            return;
          }
          chunks.push(chunk);
        });
        stream.on("error", (error: Error) => fail(new FetchError("network", url, `body: ${error.message}`)));
        stream.on("end", () =>
          done({ response: { url, status, contentType, contentTypeHeader, body: Buffer.concat(chunks), headers: response.headers } }),
        );
      });
      request.end();
    });
  }
}

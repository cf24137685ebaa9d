/**
 * One delivery attempt: the Standard Webhooks signature and the POST (docs/webhooks.md, "Signing"). The target is
 * customer input, so the crawler's address rules apply (address-guard.ts): an IP literal is judged before connecting,
 * a name by every address it resolves to, in the lookup the socket uses; EXTRACTION_ALLOW_PRIVATE_HOSTS lifts them
 * (tests, intranets). Redirects are not followed: a 3xx is a failed attempt, so a public URL cannot bounce inward.
 */
import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import { guardedLookup, parseIPv4, parseIPv6, refusedReason } from "../../research/extraction/address-guard";

/** A new signing secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks form). */
export const newSecret = (): string => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the base64-decoded part of the secret. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** Why a URL's host may not be a webhook target when it is an address (or `localhost`), or null. Names are checked when connecting. */
export function refusedHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  return parseIPv4(host) !== null || parseIPv6(host) !== null ? refusedReason(host) : null;
}

export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  /** Why the attempt failed (null on success). */
  error: string | null;
}

export interface AttemptOptions {
  allowPrivateHosts: boolean;
  timeoutMs: number;
}

/** POSTs `body` signed as delivery `id` at `timestamp` (seconds); a 2xx answer is a success. Never throws. */
export function attemptDelivery(
  target: string,
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const url = new URL(target);
  const refused = options.allowPrivateHosts ? null : refusedHost(url);
  if (refused) return Promise.resolve({ ok: false, status: null, error: `refused address ${url.hostname} (${refused})` });
  const client = url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const request = client.request(
      url,
      {
        method: "POST",
        lookup: options.allowPrivateHosts ? undefined : guardedLookup(),
        timeout: options.timeoutMs,
        headers: {
          "content-type": "application/json",
          "user-agent": "edmarket-webhooks/1",
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": sign(secret, id, timestamp, body),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not read: draining it frees the socket.
        response.resume();
        const ok = status >= 200 && status < 300;
        resolve({ ok, status, error: ok ? null : `the receiver answered ${status}` });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on("error", (error) => resolve({ ok: false, status: null, error: error.message.slice(0, 300) }));
    request.end(body);
  });
}

/**
 * Issue 20 point 1: the crawler decides on the address a socket is about to use. A table of address
 * forms (refused and allowed), then the real HttpClient against loopback listeners: IP literals in every
 * spelling, names whose (fake) DNS answers point inward, answers that change between connections, and
 * a "public" host (127.0.0.2, exempted for the test) redirecting inward. The listener on 127.0.0.1 must
 * never receive a request.
 */
import dns from "node:dns";
import { guardedLookup, isRefusedAddress, refusedReason, type LookupFunction } from "../../src/features/research/extraction/address-guard";
import { FetchError, HostScheduler, HttpClient, type HttpLimits } from "../../src/features/research/extraction/http-client";
import { listen, type Listener } from "./support/fixture-server";

const REFUSED: [string, RegExp][] = [
  // IPv4 ranges
  ["127.0.0.1", /loopback/],
  ["127.255.255.254", /loopback/],
  ["10.0.0.1", /private/],
  ["172.16.0.1", /private/],
  ["172.31.255.255", /private/],
  ["192.168.1.1", /private/],
  ["100.64.0.1", /carrier-grade NAT/],
  ["100.127.255.255", /carrier-grade NAT/],
  ["169.254.169.254", /link-local/],
  ["0.0.0.0", /unspecified/],
  ["255.255.255.255", /broadcast/],
  ["224.0.0.1", /multicast/],
  ["240.0.0.1", /reserved/],
  ["192.0.2.1", /documentation/],
  ["198.18.0.1", /benchmarking/],
  // IPv4 written the ways resolvers and the URL parser accept
  ["2130706433", /loopback/],
  ["0177.0.0.1", /loopback/],
  ["0x7f.1", /loopback/],
  ["0x7f000001", /loopback/],
  ["127.1", /loopback/],
  ["127.0.0.1.", /loopback/],
  ["0300.0250.1.1", /private/],
  ["10.1", /private/],
  // IPv6 ranges
  ["::1", /loopback/],
  ["0:0:0:0:0:0:0:1", /loopback/],
  ["::", /unspecified/],
  ["fe80::1", /link-local/],
  ["fe80::1%eth0", /link-local/],
  ["fc00::1", /unique-local/],
  ["fd12:3456::1", /unique-local/],
  ["fec0::1", /site-local/],
  ["ff02::1", /multicast/],
  ["2001:db8::1", /documentation/],
  ["100::1", /reserved/],
  // IPv4-mapped, every spelling
  ["::ffff:127.0.0.1", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["::ffff:7f00:1", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["0:0:0:0:0:ffff:7f00:1", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["0000:0000:0000:0000:0000:FFFF:7F00:0001", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["[::ffff:127.0.0.1]", /IPv4-mapped 127\.0\.0\.1: loopback/],
  ["::ffff:a9fe:a9fe", /IPv4-mapped 169\.254\.169\.254: link-local/],
  ["::ffff:a00:1", /IPv4-mapped 10\.0\.0\.1: private/],
  ["::ffff:192.168.0.1", /IPv4-mapped 192\.168\.0\.1: private/],
  ["::ffff:0:127.0.0.1", /IPv4-translated/],
  // IPv4-compatible (deprecated): refused whatever it wraps
  ["::127.0.0.1", /IPv4-compatible 127\.0\.0\.1/],
  ["::7f00:1", /IPv4-compatible 127\.0\.0\.1/],
  ["::8.8.8.8", /IPv4-compatible 8\.8\.8\.8/],
  // NAT64, 6to4, Teredo
  ["64:ff9b::127.0.0.1", /NAT64 127\.0\.0\.1: loopback/],
  ["64:ff9b::7f00:1", /NAT64 127\.0\.0\.1: loopback/],
  ["64:ff9b::a9fe:a9fe", /NAT64 169\.254\.169\.254: link-local/],
  ["64:ff9b:1::8.8.8.8", /local-use NAT64/],
  ["2002:7f00:1::", /6to4 127\.0\.0\.1: loopback/],
  ["2002:c0a8:101::1", /6to4 192\.168\.1\.1: private/],
  ["2002:a9fe:a9fe::1", /6to4 169\.254\.169\.254: link-local/],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
  ["2001:2::1", /IETF special-purpose/],
  // not addresses at all: refused (names are resolved first, then each answer is judged)
  ["localhost", /not an IP address/],
  ["1.2.3.4.5", /not an IP address/],
  ["::ffff:127.0.0.256", /not an IP address/],
  ["1::2::3", /not an IP address/],
];

const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "11.0.0.1",
  "172.15.255.255",
  "172.32.0.1",
  "100.63.255.255",
  "100.128.0.1",
  "169.253.0.1",
  "192.169.0.1",
  "223.255.255.254",
  "134744072", // 8.8.8.8 in decimal
  "2606:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001:81c::200e",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::8.8.8.8",
  "2002:808:808::1",
];

describe("the address table (issue 20 point 1)", () => {
  it.each(REFUSED)("refuses %s", (address, reason) => {
    expect(refusedReason(address)).toMatch(reason);
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(ALLOWED)("allows %s", (address) => {
    expect(refusedReason(address)).toBeNull();
  });

  it("the odd IPv4 forms are what the URL parser turns them into", () => {
    for (const [form, dotted] of [
      ["2130706433", "127.0.0.1"],
      ["0177.0.0.1", "127.0.0.1"],
      ["0x7f.1", "127.0.0.1"],
      ["127.1", "127.0.0.1"],
      ["0300.0250.1.1", "192.168.1.1"],
    ])
      expect(new URL(`http://${form}/`).hostname).toBe(dotted);
    expect(new URL("http://[0:0:0:0:0:ffff:7f00:1]/").hostname).toBe("[::ffff:7f00:1]");
  });
});

const LIMITS: HttpLimits = {
  userAgent: "edmarket-test/1.0",
  maxBytes: 1024 * 1024,
  connectTimeoutMs: 2000,
  readTimeoutMs: 2000,
  maxRedirects: 5,
  hostDelayMs: 0,
  allowPrivateHosts: false,
};

/** A resolver with fixed answers per name (a list per call: the answer may change between connections). */
function fakeDns(answers: Record<string, string[][]>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const queue = answers[hostname];
    if (!queue) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
    const list = (queue.length > 1 ? queue.shift()! : queue[0]!).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  }) as unknown as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("the request was not refused");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(FetchError);
      return error as FetchError;
    },
  );

describe("the crawler's HTTP client refuses inward addresses at connect time", () => {
  let victim: Listener;
  let outside: Listener;
  beforeAll(async () => {
    victim = await listen("127.0.0.1", 0, (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>intranet secret</p>"));
    // Stands in for a public site: same port as the victim, another loopback address the tests exempt.
    outside = await listen("127.0.0.2", victim.port, (req, res) => {
      const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
      if (to) return res.writeHead(302, { location: to }).end();
      res.writeHead(200, { "content-type": "text/html" }).end("<p>public page</p>");
    });
  });
  afterAll(async () => {
    await victim?.close();
    await outside?.close();
  });
  afterEach(() => expect(victim.requests).toEqual([]));

  const client = (lookup?: LookupFunction) =>
    new HttpClient(LIMITS, new HostScheduler(), { lookup, allowAddresses: lookup ? ["127.0.0.2"] : [] });

  it.each([
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "[::127.0.0.1]",
    "[64:ff9b::7f00:1]",
    "[2002:7f00:1::]",
    "127.0.0.1",
    "2130706433",
    "0177.0.0.1",
    "0x7f.1",
    "127.1",
    "localhost",
  ])("http://%s:PORT/ is refused before a byte is sent", async (host) => {
    const http = client();
    const error = await refusal(http.get(`http://${host}:${victim.port}/`));
    expect(error.kind).toBe("forbidden_address");
    expect(error.message).toMatch(/refused address/);
  });

  it("every address of a DNS answer is checked: one inward address refuses the name", async () => {
    const lookup = fakeDns({ "mixed.example": [["127.0.0.2", "127.0.0.1"]], "mapped.example": [["::ffff:7f00:1"]] });
    const http = client(lookup);
    const mixed = await refusal(http.get(`http://mixed.example:${victim.port}/`));
    expect(mixed).toMatchObject({
      kind: "forbidden_address",
      message: expect.stringContaining("mixed.example resolves to 127.0.0.1 (loopback)"),
    });
    const mapped = await refusal(http.get(`http://mapped.example:${victim.port}/`));
    expect(mapped.message).toContain("mapped.example resolves to ::ffff:7f00:1 (IPv4-mapped 127.0.0.1: loopback)");
    expect(outside.requests).toEqual([]);
  });

  it("each connection resolves and checks again: an answer that changes after the first request is refused", async () => {
    const lookup = fakeDns({ "rebind.example": [["127.0.0.2"], ["127.0.0.1"]] });
    const http = client(lookup);
    expect((await http.get(`http://rebind.example:${victim.port}/first`)).body.toString()).toContain("public page");
    const error = await refusal(http.get(`http://rebind.example:${victim.port}/second`));
    expect(error.message).toContain("rebind.example resolves to 127.0.0.1 (loopback)");
    expect(lookup.calls).toEqual(["rebind.example", "rebind.example"]);
    expect(outside.requests).toEqual(["/first"]);
    outside.requests.length = 0;
  });

  it.each([
    ["an IPv4-mapped literal", (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ["the fully written mapped form", (port: number) => `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`],
    ["a name resolving inward", (port: number) => `http://inside.example:${port}/`],
    ["a decimal IPv4", (port: number) => `http://2130706433:${port}/`],
  ])("a public host redirecting to %s: the hop is refused", async (_label, target) => {
    const lookup = fakeDns({ "www.public-school.example": [["127.0.0.2"]], "inside.example": [["127.0.0.1"]] });
    const http = client(lookup);
    const start = `http://www.public-school.example:${victim.port}/?to=${encodeURIComponent(target(victim.port))}`;
    const error = await refusal(http.get(start));
    expect(error).toMatchObject({ kind: "forbidden_address", message: expect.stringMatching(/refused address/) });
    expect(outside.requests).toHaveLength(1);
    outside.requests.length = 0;
  });

  it("EXTRACTION_ALLOW_PRIVATE_HOSTS still lets tests reach loopback; the default refuses it", async () => {
    const open = new HttpClient({ ...LIMITS, allowPrivateHosts: true }, new HostScheduler());
    expect((await open.get(`http://127.0.0.2:${outside.port}/`)).status).toBe(200);
    await expect(new HttpClient(LIMITS, new HostScheduler()).get(`http://127.0.0.2:${outside.port}/`)).rejects.toMatchObject({
      kind: "forbidden_address",
    });
    outside.requests.length = 0;
  });

  it("guardedLookup passes public answers through in the shape asked for", async () => {
    const lookup = guardedLookup(fakeDns({ "ok.example": [["93.184.216.34", "2606:2800:220:1::1"]] }));
    const one = await new Promise<unknown[]>((resolve, reject) =>
      lookup("ok.example", {}, (error, address, family) => (error ? reject(error) : resolve([address, family]))),
    );
    expect(one).toEqual(["93.184.216.34", 4]);
    const all = await new Promise<unknown>((resolve, reject) =>
      lookup("ok.example", { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
    expect(all).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
  });
});

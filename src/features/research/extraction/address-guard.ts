/**
 * Which addresses the crawler may connect to (docs/extraction.md, "Addresses"). A district's website_url
 * is customer input, so the decision is made on the address a socket is about to use: every DNS answer
 * (all of them), every IP literal, every redirect hop. IPv4 is read the way resolvers read it (decimal,
 * octal, hex, short forms); IPv6 is expanded to its eight groups, so every spelling of an IPv4-mapped,
 * IPv4-compatible, NAT64, 6to4 or Teredo address is judged by what it wraps or refused outright.
 */
import dns from "node:dns";
import net from "node:net";

/** [first address, prefix length, why refused] */
type Range4 = [string, number, string];

const REFUSED_V4: Range4[] = [
  ["0.0.0.0", 8, "unspecified (this network)"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved or broadcast"],
];

const V4_RANGES = REFUSED_V4.map(([base, bits, reason]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { net: (parseIPv4(base)! & mask) >>> 0, mask, reason };
});

/**
 * An IPv4 address as a 32-bit number, in every form inet_aton and the WHATWG URL parser accept
 * (`127.0.0.1`, `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, a trailing dot); null when it is not one.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length < 1 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isFinite(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
}

/** An IPv6 address (brackets and a zone id allowed) as eight 16-bit groups; null when it is not one. */
export function parseIPv6(text: string): number[] | null {
  let rest = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!rest.includes(":")) return null;
  // A dotted IPv4 tail ("::ffff:127.0.0.1") is the last two groups written another way.
  const dotted = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(rest);
  if (dotted) {
    if (!net.isIPv4(dotted[1]!)) return null;
    const v4 = parseIPv4(dotted[1]!)!;
    rest = `${rest.slice(0, rest.length - dotted[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    for (const g of half.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !back) return null;
  const written = head.length + back.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return null;
  return [...head, ...Array<number>(8 - written).fill(0), ...back];
}

const dottedQuad = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");

function refusedV4(n: number): string | null {
  for (const range of V4_RANGES) if ((n & range.mask) >>> 0 === range.net) return range.reason;
  return null;
}

function refusedV6(g: number[]): string | null {
  const v4At = (i: number) => ((g[i]! << 16) | g[i + 1]!) >>> 0;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const wrapped = (label: string, n: number): string | null => {
    const reason = refusedV4(n);
    return reason === null ? null : `${label} ${dottedQuad(n)}: ${reason}`;
  };
  if (zero(0, 5) && g[5] === 0xffff) return wrapped("IPv4-mapped", v4At(6));
  if (zero(0, 8)) return "unspecified";
  if (zero(0, 7) && g[7] === 1) return "loopback";
  if (zero(0, 6)) return `IPv4-compatible ${dottedQuad(v4At(6))} (deprecated form)`;
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return `IPv4-translated ${dottedQuad(v4At(6))}`;
  // NAT64 well-known prefix: reaches the IPv4 address it carries (DNS64 networks synthesize these).
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return wrapped("NAT64", v4At(6));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local-use NAT64 (64:ff9b:1::/48)";
  if (g[0]! >= 0xff00) return "multicast";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "site-local";
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0]! & 0xe000) !== 0x2000) return "reserved (not global unicast)";
  if (g[0] === 0x2002) return wrapped("6to4", v4At(1));
  // Teredo's client address is obfuscated and the tunnel reaches anything: refused.
  if (g[0] === 0x2001 && g[1] === 0) return "Teredo";
  if (g[0] === 0x2001 && g[1]! < 0x200) return "IETF special-purpose (2001::/23)";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "documentation";
  if ((g[0]! & 0xfff0) === 0x3ff0 && g[1]! < 0x1000) return "documentation";
  return null;
}

/**
 * Why the crawler refuses to connect to this address, or null when it may. Anything that is not an IP
 * address is refused (the caller resolves names first).
 */
export function refusedReason(address: string): string | null {
  const text = address.trim();
  const v6 = parseIPv6(text);
  if (v6) return refusedV6(v6);
  const v4 = parseIPv4(text);
  if (v4 !== null) return refusedV4(v4);
  return "not an IP address";
}

/** An IPv4 (any form above) or IPv6 address, as opposed to a name. */
export const isIPAddress = (text: string): boolean => parseIPv6(text.trim()) !== null || parseIPv4(text.trim()) !== null;

export const isRefusedAddress = (address: string): boolean => refusedReason(address) !== null;

/** The error a refused address raises (FetchError kind `forbidden_address`). */
export class RefusedAddressError extends Error {
  readonly code = "EREFUSEDADDRESS";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(
      host === address || `[${address}]` === host
        ? `refused address ${address} (${reason})`
        : `refused address: ${host} resolves to ${address} (${reason})`,
    );
  }
}

export type LookupFunction = typeof dns.lookup;

/**
 * A dns.lookup for http.request / net.connect: asks `base` for every address of the name, refuses the
 * whole answer when any of them is refused (a name that also points inward is not crawled), and hands
 * the socket only checked addresses. `allowed` exempts exact addresses (tests).
 */
export function guardedLookup(base: LookupFunction = dns.lookup, allowed: ReadonlySet<string> = new Set()): LookupFunction {
  return ((hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const opts: dns.LookupOptions =
      typeof options === "number" ? { family: options } : typeof options === "object" && options !== null ? options : {};
    base(hostname, { ...opts, all: true }, (error, addresses) => {
      if (error) return cb(error);
      const list = addresses as unknown as dns.LookupAddress[];
      if (!list.length) return cb(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }));
      for (const { address } of list) {
        const reason = allowed.has(address) ? null : refusedReason(address);
        if (reason !== null) return cb(new RefusedAddressError(hostname, address, reason));
      }
      if (opts.all) return cb(null, list);
      cb(null, list[0]!.address, list[0]!.family);
    });
  }) as LookupFunction;
}

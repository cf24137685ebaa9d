/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 feeds to items, with fast-xml-parser and the quirks of real feeds:
 * a byte-order mark, an encoding other than the declared one (windows-1252 bytes in a "UTF-8" feed), CDATA,
 * HTML (escaped or not) in titles and descriptions, HTML entities XML does not define (`&nbsp;`), relative
 * links (against xml:base, the channel's link or the feed's URL), `<link>` versus `<guid isPermaLink>`,
 * FeedBurner's `origLink`, Atom's `link rel="alternate"`, `content:encoded`, missing or odd dates, and the
 * same item twice in one feed (kept once, by its canonical link).
 */
import * as cheerio from "cheerio";
import { XMLParser } from "fast-xml-parser";
import { nodeText } from "../../extraction/html";
import { parseFeedDate } from "./dates";
import { canonicalUrl } from "./urls";

export interface FeedItem {
  /** The item's link, absolute, without fragment and tracking parameters (the page to fetch); null when it has none. */
  link: string | null;
  /** The guid / Atom id, as written. */
  guid: string | null;
  title: string;
  author: string | null;
  /** The short text (RSS description, Atom summary), as plain text. */
  description: string | null;
  /** The longest text the feed gives (content:encoded, Atom content, else the description), as plain text. */
  text: string | null;
  publishedAt: Date | null;
}

export interface ParsedFeed {
  format: "rss" | "rdf" | "atom";
  title: string | null;
  /** The site the feed belongs to (RSS channel link, Atom alternate link). */
  siteUrl: string | null;
  items: FeedItem[];
  /** Items dropped because another item of the feed has the same link. */
  duplicates: number;
}

export class FeedParseError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  // Bodies are read raw (CDATA, escaped HTML or Atom's inline XHTML), then turned into text here.
  stopNodes: ["*.description", "*.content:encoded", "*.content", "*.summary", "*.title"],
  isArray: (name) => ["item", "entry", "link", "atom:link", "category", "author", "dc:creator"].includes(name),
});

/** windows-1252's 0x80-0x9F (Node's TextDecoder reads that label as ISO-8859-1, whose 0x80-0x9F are control codes). */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function windows1252(body: Buffer): string {
  let out = "";
  for (const byte of body) out += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

/** The feed's bytes as text: BOM dropped, the charset of the header or XML declaration, windows-1252 when UTF-8 is invalid. */
export function decodeFeed(body: Buffer | string, contentTypeHeader?: string): string {
  if (typeof body === "string") return body.replace(/^\uFEFF/, "");
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return decodeFeed(body.subarray(3), "charset=utf-8");
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder("utf-16le").decode(body.subarray(2));
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder("utf-16be").decode(body.subarray(2));
  const head = body.subarray(0, 200).toString("latin1");
  const declared =
    /<\?xml[^>]*encoding=["']([\w.-]+)["']/i.exec(head)?.[1] ?? /charset=["']?([\w.-]+)/i.exec(contentTypeHeader ?? "")?.[1] ?? "utf-8";
  const charset = declared.toLowerCase();
  if (charset === "utf-8" || charset === "utf8") {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      // Declared UTF-8, written in a Windows code page (a frequent CMS bug): read the bytes as such.
      return windows1252(body);
    }
  }
  // ISO-8859-1 as labelled on the web is windows-1252 (WHATWG Encoding).
  if (["windows-1252", "cp1252", "iso-8859-1", "latin1", "us-ascii", "ascii"].includes(charset)) return windows1252(body);
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return windows1252(body);
  }
}

const XML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** A raw element body: CDATA sections verbatim, the rest with XML's own entities decoded (numeric ones too). */
function rawToMarkup(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith("<![CDATA[")
        ? part.slice(9, -3)
        : part.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, name: string) => {
            if (name[0] === "#") {
              const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
              return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
            }
            return XML_ENTITIES[name.toLowerCase()] ?? whole;
          }),
    )
    .join("");
}

/** HTML (or plain text that may carry entities) to plain text, paragraphs on their own lines. */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html))
    return html
      .replace(/[ \t\r\f\v]+/g, " ")
      .replace(/\s*\n\s*/g, "\n")
      .trim();
  const $ = cheerio.load(html);
  $("script, style, noscript, iframe, object, template").remove();
  // An entity escaped twice (`&amp;nbsp;`) is text "&nbsp;" after one decoding: decode what is left once more.
  return nodeText($, $.root().get(0)!)
    .replace(/&(nbsp|amp|quot|apos|lt|gt|#\d+|#x[0-9a-f]+);/gi, (whole) => cheerio.load(whole).root().text())
    .trim();
}

/** A parsed element's text, whatever shape the parser gave it (string, {#text}, stop-node raw). */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "object") {
    const o = value as Record<string, unknown>;
    if ("#text" in o) return text(o["#text"]);
    if ("name" in o) return text(o.name); // Atom <author><name>
    return null;
  }
  const s = htmlToText(rawToMarkup(String(value)));
  return s.length ? s : null;
}

function attr(value: unknown, name: string): string | null {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = (value as Record<string, unknown>)[`@_${name}`];
    return typeof v === "string" ? v : null;
  }
  return null;
}

function plain(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return plain(value[0]);
  if (typeof value === "object") return plain((value as Record<string, unknown>)["#text"]);
  const s = String(value).trim();
  return s.length ? s : null;
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** Atom's alternate link (or one without rel), preferring HTML; RSS's first `<link>` text. */
function linkOf(node: Record<string, unknown>): string | null {
  const links = asArray(node.link as unknown[]);
  let best: string | null = null;
  for (const l of links) {
    if (typeof l === "string") {
      if (l.trim()) return l.trim();
      continue;
    }
    const href = attr(l, "href");
    const rel = attr(l, "rel") ?? "alternate";
    const type = attr(l, "type");
    if (!href || rel !== "alternate") {
      const inner = plain(l);
      if (!href && inner) best ??= inner;
      continue;
    }
    if (!type || /html/i.test(type)) return href.trim();
    best ??= href.trim();
  }
  return best;
}

function guidOf(node: Record<string, unknown>): { guid: string | null; permalink: boolean } {
  const guid = node.guid;
  const value = plain(guid) ?? plain(node.id) ?? attr(node, "rdf:about");
  const declared = attr(guid, "isPermaLink");
  return { guid: value, permalink: guid !== undefined && declared?.toLowerCase() !== "false" };
}

function authorOf(node: Record<string, unknown>): string | null {
  for (const key of ["author", "dc:creator", "itunes:author"]) {
    for (const a of asArray(node[key] as unknown[])) {
      const name = text(a);
      // RSS <author> is an e-mail address, often "x@y (Name)".
      const named = name ? (/\(([^)]+)\)\s*$/.exec(name)?.[1] ?? name) : null;
      if (named && !/^\S+@\S+$/.test(named)) return named.slice(0, 200);
    }
  }
  return null;
}

function itemOf(node: Record<string, unknown>, base: string | undefined): FeedItem {
  const itemBase = resolve(attr(node, "xml:base"), base) ?? base;
  const { guid, permalink } = guidOf(node);
  const raw =
    plain(node["feedburner:origLink"]) ??
    linkOf(node) ??
    (permalink && guid && /^https?:\/\//i.test(guid) ? guid : null) ??
    (guid && /^https?:\/\//i.test(guid) ? guid : null);
  const link = raw ? canonicalUrl(raw, itemBase) : null;
  const description = text(node.description) ?? text(node.summary);
  const content = text(node["content:encoded"]) ?? text(node.content);
  const body = content && (!description || content.length >= description.length) ? content : description;
  const date =
    parseFeedDate(plain(node.pubDate)) ??
    parseFeedDate(plain(node.published)) ??
    parseFeedDate(plain(node["dc:date"])) ??
    parseFeedDate(plain(node.updated)) ??
    parseFeedDate(plain(node.issued)) ??
    parseFeedDate(plain(node.modified));
  const title = text(node.title) ?? (description ? description.slice(0, 120) : "") ?? "";
  return {
    link,
    guid,
    title: title.replace(/\s+/g, " ").slice(0, 1000),
    author: authorOf(node),
    description: description ? description.slice(0, 5000) : null,
    text: body,
    publishedAt: date,
  };
}

function resolve(href: string | null | undefined, base: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    return new URL(href, base).toString();
  } catch {
    return undefined;
  }
}

/** Parses a feed. `feedUrl` resolves relative links (a feed read from a file has none: the channel's link does). */
export function parseFeed(body: Buffer | string, options: { feedUrl?: string; contentType?: string } = {}): ParsedFeed {
  const xml = decodeFeed(body, options.contentType);
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new FeedParseError(`not a readable XML feed: ${(error as Error).message}`);
  }
  let format: ParsedFeed["format"];
  let channel: Record<string, unknown>;
  let nodes: Record<string, unknown>[];
  if (doc.rss && typeof doc.rss === "object") {
    format = "rss";
    channel = asObject((doc.rss as Record<string, unknown>).channel);
    nodes = asArray(channel.item as Record<string, unknown>[]);
    // Some feeds put the items beside the channel.
    if (!nodes.length) nodes = asArray((doc.rss as Record<string, unknown>).item as Record<string, unknown>[]);
  } else if (doc["rdf:RDF"] && typeof doc["rdf:RDF"] === "object") {
    format = "rdf";
    const rdf = doc["rdf:RDF"] as Record<string, unknown>;
    channel = asObject(rdf.channel);
    nodes = asArray(rdf.item as Record<string, unknown>[]);
  } else if (doc.feed && typeof doc.feed === "object") {
    format = "atom";
    channel = doc.feed as Record<string, unknown>;
    nodes = asArray(channel.entry as Record<string, unknown>[]);
  } else {
    const root = Object.keys(doc).find((k) => !k.startsWith("?")) ?? "(nothing)";
    throw new FeedParseError(`not an RSS or Atom feed (root element ${root})`);
  }
  const feedBase = resolve(attr(channel, "xml:base"), options.feedUrl) ?? options.feedUrl;
  const siteRaw = linkOf(channel);
  const siteUrl = siteRaw ? (resolve(siteRaw, feedBase) ?? null) : null;
  // Relative item links resolve against the feed's URL; a feed from a file has only its channel's link.
  const base = feedBase ?? siteUrl ?? undefined;
  const items: FeedItem[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const node of nodes) {
    if (!node || typeof node !== "object") continue;
    const item = itemOf(node, base);
    const key = item.link ?? (item.guid ? `guid:${item.guid}` : null);
    if (key && seen.has(key)) {
      duplicates += 1;
      continue;
    }
    if (key) seen.add(key);
    items.push(item);
  }
  return { format, title: text(channel.title), siteUrl, items, duplicates };
}

function asObject(value: unknown): Record<string, unknown> {
  const v = Array.isArray(value) ? value[0] : value;
  return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
}

/**
 * HTML to text and links with a real parser (cheerio over parse5, the WHATWG algorithm browsers use):
 * scripts, styles, templates and hidden elements are dropped, block elements and `<br>` become line
 * breaks, entities are decoded. Links are resolved against `<base href>` or the page URL.
 */
import * as cheerio from "cheerio";
import type { AnyNode, Element } from "domhandler";

export type Html = cheerio.CheerioAPI;

export interface Link {
  url: string;
  text: string;
}

export interface HtmlPage {
  $: Html;
  title: string;
  text: string;
  links: Link[];
  /** `<time datetime>` or article:published_time (YYYY-MM-DD), when present: a dated post. */
  publishedAt: string | null;
  /** Parsed `<script type="application/ld+json">` blocks (schema.org Person records of staff pages). */
  jsonLd: unknown[];
}

const DROPPED = "script, style, noscript, template, svg, iframe, object, [hidden], [aria-hidden=true]";
const BLOCK = new Set(
  (
    "address article aside blockquote dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 " +
    "header hr li main nav ol p pre section summary table tbody thead tfoot tr ul caption"
  ).split(" "),
);
const CELL = new Set(["td", "th"]);

export function decodeHtml(body: Buffer, contentTypeHeader?: string): string {
  const declared = /charset=([\w-]+)/i.exec(contentTypeHeader ?? "")?.[1];
  const head = body.subarray(0, 2048).toString("latin1");
  const meta = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  const charset = (declared ?? meta ?? "utf-8").toLowerCase();
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return body.toString("utf8");
  }
}

export function parseHtml(html: string, pageUrl: string): HtmlPage {
  const $ = cheerio.load(html);
  const jsonLd: unknown[] = [];
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      jsonLd.push(JSON.parse($(el).text()));
    } catch {
      /* malformed structured data is ignored */
    }
  });
  $(DROPPED).remove();
  let base = pageUrl;
  const baseHref = $("base[href]").attr("href");
  if (baseHref)
    try {
      base = new URL(baseHref, pageUrl).toString();
    } catch {
      /* a broken <base> is ignored */
    }
  const links: Link[] = [];
  $("a[href]").each((_, el) => {
    const href = $(el).attr("href")!.trim();
    if (!href || /^(mailto|tel|javascript|data):/i.test(href)) return;
    try {
      const url = new URL(href, base);
      url.hash = "";
      links.push({ url: url.toString(), text: clean($(el).text()) });
    } catch {
      /* not a URL */
    }
  });
  const title = clean($("title").first().text()) || clean($("h1").first().text());
  const text = nodeText($, $.root().get(0)!);
  return { $, title, text, links, publishedAt: publishedAt($), jsonLd };
}

/** The visible text of a node: blocks on their own lines, table cells separated by " | ". */
export function nodeText($: Html, node: AnyNode): string {
  const out: string[] = [];
  const walk = (n: AnyNode) => {
    if (n.type === "text") {
      out.push((n as unknown as { data: string }).data.replace(/\s+/g, " "));
      return;
    }
    if (n.type !== "tag" && n.type !== "root" && n.type !== "script" && n.type !== "style") return;
    if (n.type === "script" || n.type === "style") return;
    const el = n as Element;
    const name = el.name?.toLowerCase();
    if (name === "br") {
      out.push("\n");
      return;
    }
    const block = name !== undefined && BLOCK.has(name);
    if (block) out.push("\n");
    for (const child of el.children ?? []) walk(child);
    if (name !== undefined && CELL.has(name)) out.push(" | ");
    if (block) out.push("\n");
  };
  walk(node);
  return out
    .join("")
    .split("\n")
    .map((line) =>
      line
        .replace(/\s+/g, " ")
        .replace(/(\s*\|\s*)+$/, "")
        .trim(),
    )
    .filter((line) => line.length > 0)
    .join("\n");
}

export const clean = (s: string): string => s.replace(/\s+/g, " ").trim();

function publishedAt($: Html): string | null {
  const time = $("time[datetime]").first().attr("datetime");
  if (time && /^\d{4}-\d{2}-\d{2}/.test(time)) return time.slice(0, 10);
  const meta = $('meta[property="article:published_time"]').attr("content");
  if (meta && /^\d{4}-\d{2}-\d{2}/.test(meta)) return meta.slice(0, 10);
  return null;
}

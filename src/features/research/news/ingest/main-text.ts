/**
 * The main text of an article page: boilerplate dropped first (navigation, header, footer, aside, forms, scripts,
 * and blocks whose class or id says share / related / comments / cookie banner / newsletter / ads), then Mozilla's
 * Readability (the Firefox reader view's algorithm) over a linkedom DOM picks the article body; when it finds
 * none, the pruned body's text stands in. Also the page's `<link rel=canonical>`, title, byline, description and
 * publication time.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToText } from "./feed-parser";

export interface MainText {
  text: string;
  title: string | null;
  canonical: string | null;
  author: string | null;
  description: string | null;
  publishedAt: string | null;
  /** Whether Readability found an article body (false: the pruned page's text). */
  readable: boolean;
}

const BOILERPLATE_TAGS =
  "script, style, noscript, template, svg, iframe, object, embed, canvas, form, button, select, input, textarea, nav, header, footer, aside, menu, dialog, " +
  "[role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=search], [role=dialog], [role=alertdialog], [hidden], [aria-hidden=true]";

/** Class or id words of blocks that are never the story (matched as whole words or word parts in kebab/snake case). */
const BOILERPLATE_NAMES =
  /(^|[\s_-])(share|sharing|social|related|recommended|more-stories|read-more|also-read|comments?|disqus|cookies?|consent|gdpr|newsletter|subscribe|subscription|signup|promo|advert|ads?|sponsor(ed)?|breadcrumbs?|pagination|pager|popup|modal|banner|masthead|site-header|site-footer|sidebar|widget|toolbar|skip-link|byline-social|tags|tag-list|author-bio|paywall)($|[\s_-])/i;

/** Elements that hold the story itself are never pruned by name (a `<body class="has-cookie-banner">`). */
const NEVER_PRUNED = new Set(["HTML", "BODY", "MAIN", "ARTICLE"]);

/** What is used of linkedom's DOM (the project compiles without the DOM library's types). */
interface DomElement {
  tagName: string;
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelector(selector: string): DomElement | null;
  remove(): void;
}
interface DomDocument {
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
}

const dom = (html: string): DomDocument => (parseHTML(html) as unknown as { document: DomDocument }).document;

export function extractMainText(html: string): MainText {
  const document = dom(html);
  const head = (selector: string, attribute: string) => document.querySelector(selector)?.getAttribute(attribute)?.trim() || null;
  const canonical = head('link[rel="canonical"]', "href") ?? head('link[rel~="canonical"]', "href");
  const metaDescription = head('meta[name="description"]', "content") ?? head('meta[property="og:description"]', "content");
  const metaAuthor = head('meta[name="author"]', "content") ?? head('meta[property="article:author"]', "content");
  const published =
    head('meta[property="article:published_time"]', "content") ??
    head('meta[name="pubdate"]', "content") ??
    head('meta[name="date"]', "content") ??
    head("time[datetime]", "datetime");
  const ogTitle = head('meta[property="og:title"]', "content");
  const documentTitle = document.querySelector("title")?.textContent?.trim() || null;

  for (const el of [...document.querySelectorAll(BOILERPLATE_TAGS)]) {
    // A <header> inside the article carries its headline and dateline: only page-level ones go.
    if (el.tagName === "HEADER" && el.closest("article, main")) continue;
    el.remove();
  }
  for (const el of [...document.querySelectorAll("[class], [id]")]) {
    if (NEVER_PRUNED.has(el.tagName)) continue;
    const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    if (BOILERPLATE_NAMES.test(names) && !el.querySelector("article, main")) el.remove();
  }

  let text = "";
  let readable = false;
  let byline: string | null = null;
  let title: string | null = null;
  try {
    // Readability works on a DOM it may mutate: the pruned document is that DOM.
    const article = new Readability(document as never, { charThreshold: 200, keepClasses: false }).parse();
    if (article?.content) {
      text = htmlToText(article.content);
      readable = text.length > 0;
      byline = article.byline?.trim() || null;
      title = article.title?.trim() || null;
    }
  } catch {
    /* a page Readability cannot walk: the pruned body below */
  }
  if (!readable) {
    const again = dom(html);
    for (const el of [...again.querySelectorAll(BOILERPLATE_TAGS)]) el.remove();
    const body = again.querySelector("main, article") ?? again.body;
    text = body ? htmlToText(body.innerHTML ?? "") : "";
  }
  return {
    text,
    title: ogTitle ?? title ?? documentTitle,
    canonical,
    author: metaAuthor ?? byline,
    description: metaDescription,
    publishedAt: published,
    readable,
  };
}

/**
 * Extractors over document text and structure (docs/extraction.md lists each rule). Every row they
 * return quotes or parses the document it names in `sourceUrl`; nothing is filled in from elsewhere.
 */
import type { Element } from "domhandler";
import type { SiteDocument } from "../crawl";
import { clean, nodeText, type Html } from "../html";
import { clip, deadlineAt, findAmounts, findDates, findFiscalYear, firstDate, sentences } from "../text-rules";
import type {
  ExtractedBid,
  ExtractedContract,
  ExtractedEvent,
  ExtractedFunding,
  ExtractedMinutes,
  ExtractedPainPoint,
  ExtractedVendor,
  ExtractionSubject,
} from "./types";
import { VENDOR_PATTERNS, vendorIn } from "./vendor-dictionary";

/** Each dictionary vendor named anywhere, once, with the first document naming it. */
export function extractVendors(documents: readonly SiteDocument[]): ExtractedVendor[] {
  const found = new Map<string, ExtractedVendor>();
  for (const doc of documents)
    for (const { entry, pattern } of VENDOR_PATTERNS)
      if (!found.has(entry.name) && pattern.test(doc.text))
        found.set(entry.name, { name: entry.name, category: entry.category, sourceUrl: doc.url });
  return [...found.values()];
}

/** Problem statements by category: a sentence is a pain point when it contains one of its phrases. */
export const PAIN_POINT_RULES: readonly [string, RegExp][] = [
  [
    "staffing",
    /\b(teacher|staff|staffing|substitute|bus driver|paraprofessional|workforce) shortages?\b|\bshortage of (teachers|staff|substitutes|bus drivers|paraprofessionals)\b|\bunfilled (positions|vacancies)\b|\bhard[- ]to[- ]fill\b|\bdifficult(y|ies) (hiring|recruiting|filling)\b|\b(recruit(ment)? and retention|retain(ing)? (teachers|staff)) (remains|is|are) (a )?(challenge|difficult)/i,
  ],
  [
    "budget",
    /\bbudget (shortfall|deficit|gap|cuts?|reductions?)\b|\b(structural|operating|projected) deficit\b|\bfunding cliff\b|\bshortfall of \$|\b(reduce|cut)( the)? (budget|spending|expenditures) by\b|\bdeficit spending\b/i,
  ],
  [
    "infrastructure",
    /\baging (buildings|facilities|infrastructure|hvac|roofs?|network|equipment)\b|\bdeferred maintenance\b|\boutdated (network|infrastructure|equipment|devices|wiring|technology)\b|\b(insufficient|inadequate|limited) (bandwidth|wi-?fi|network capacity)\b|\bend[- ]of[- ]life\b|\bovercrowd(ed|ing)\b/i,
  ],
  [
    "security",
    /\bransomware\b|\bcyber ?(attack|security incident|incident)s?\b|\bdata breach(es)?\b|\bphishing (attack|attempt|incident)s?\b|\bsecurity (incident|vulnerabilit(y|ies)|breach)\b|\bunauthorized access\b/i,
  ],
  [
    "integration",
    /\b(systems|platforms|applications) (do not|don't|cannot|can't) (talk|communicate|integrate|share data)\b|\bdata silos?\b|\bmanual (data entry|rostering|re-?entry)\b|\bdisconnected (systems|platforms|applications)\b|\black of (integration|interoperability)\b/i,
  ],
  [
    "compliance",
    /\baudit findings?\b|\bcorrective action( plan)?\b|\b(out of|non-?)compliance\b|\bfailed to (comply|meet (state|federal) requirements)\b|\bcitations? from the (state|department)\b/i,
  ],
  [
    "enrollment",
    /\bdeclin(e|ing) (in )?enrollment\b|\benrollment (has )?(declined|decline|dropped|fell|decreased|loss)\b|\bloss of (students|enrollment)\b|\bfewer students\b/i,
  ],
];

export function extractPainPoints(documents: readonly SiteDocument[]): ExtractedPainPoint[] {
  const out: ExtractedPainPoint[] = [];
  const seen = new Set<string>();
  for (const doc of documents)
    for (const sentence of sentences(doc.text))
      for (const [category, rule] of PAIN_POINT_RULES) {
        if (!rule.test(sentence)) continue;
        const description = clip(sentence, 500);
        const key = `${category}|${description.toLowerCase()}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.push({ category, description, sourceUrl: doc.url });
        }
        break;
      }
  return out;
}

/** Funding sources, in the order a sentence is tested. */
export const FUNDING_RULES: readonly [string, RegExp][] = [
  ["esser", /\bESSER\b|Elementary and Secondary School Emergency Relief/],
  ["erate", /\bE-?[Rr]ate\b/],
  ["title_i", /\bTitle I\b(?![-\w])|\bTitle I-A\b|\bTitle I, Part A\b/],
  [
    "bond",
    /\bbonds?\b.*\b(referendum|issue|measure|election|voters|proceeds|sale|program|series|approved|passed)\b|\b(referendum|voters|voter-approved|measure)\b.*\bbonds?\b/i,
  ],
  [
    "grant",
    /\bgrants?\b.*\b(award(ed)?|receiv(ed|e)|secur(ed|e)|won|approv(ed|e))\b|\b(award(ed)?|receiv(ed|e)|secur(ed|e)|won)\b.*\bgrants?\b/i,
  ],
];

/** A funding row needs its source named and a dollar amount or a fiscal year in the same sentence. */
export function extractFunding(documents: readonly SiteDocument[]): ExtractedFunding[] {
  const out: ExtractedFunding[] = [];
  const seen = new Set<string>();
  for (const doc of documents)
    for (const sentence of sentences(doc.text)) {
      const rule = FUNDING_RULES.find(([, re]) => re.test(sentence));
      if (!rule) continue;
      const amount = findAmounts(sentence)[0] ?? null;
      const fiscalYear = findFiscalYear(sentence);
      if (amount === null && fiscalYear === null) continue;
      const description = clip(sentence, 500);
      const key = `${rule[0]}|${description.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ source: rule[0], amount, fiscalYear, description, sourceUrl: doc.url });
    }
  return out;
}

const CONTRACT_NOUN = /\b(contracts?|agreements?|purchase|subscription|licen[cs]es?|renewal|services? agreement)\b/i;
const CONTRACT_ACT = /\b(approv(ed|e|al)|award(ed)?|authoriz(ed|e)|renew(ed|al)?|entered into|execut(ed|e)|ratif(ied|y))\b/i;
const COMPANY =
  /\b(?:with|to|from)\s+((?:[A-Z][\w&'.-]*|&)(?:\s+(?:[A-Z][\w&'.-]*|&|of)){0,5}?,?\s+(?:Inc\.?|LLC|L\.L\.C\.|Corporation|Corp\.?|Company|Co\.|Ltd\.?|Group|Technologies|Systems|Solutions|Partners))(?=[\s,.;)]|$)/;
const CATEGORY_WORDS: readonly [string, RegExp][] = [
  ["sis", /student information system/i],
  ["lms", /learning management/i],
  ["assessment", /assessment|screener|benchmark test/i],
  ["communication", /mass notification|communication|website hosting|parent notification/i],
  ["hr", /substitute|applicant tracking|human resources|staffing services/i],
  ["finance", /payroll|accounting|financial (system|software)|\berp\b/i],
  ["security", /cyber|firewall|security camera|surveillance|content filter|visitor management/i],
  ["sso", /single sign-on|identity management/i],
  ["devices", /chromebooks?|laptops?|tablets?|ipads?|interactive (panels|displays)|computers/i],
];

/** Approved or awarded contracts naming a vendor (dictionary or a company name with a legal suffix). */
export function extractContracts(documents: readonly SiteDocument[]): ExtractedContract[] {
  const out: ExtractedContract[] = [];
  const seen = new Set<string>();
  for (const doc of documents) {
    const documentDate = documentDateOf(doc);
    for (const sentence of sentences(doc.text)) {
      if (!CONTRACT_NOUN.test(sentence) || !CONTRACT_ACT.test(sentence)) continue;
      const known = vendorIn(sentence);
      const company = COMPANY.exec(sentence)?.[1]?.replace(/,$/, "") ?? null;
      const vendorName = known?.name ?? company;
      if (!vendorName) continue;
      const category = known?.category ?? CATEGORY_WORDS.find(([, re]) => re.test(sentence))?.[0] ?? "other";
      const { startsOn, expiresOn } = contractTerm(sentence);
      const description = clip(sentence, 500);
      const key = description.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        vendorName,
        vendorCategory: known?.category ?? null,
        category,
        amount: findAmounts(sentence)[0] ?? null,
        startsOn,
        expiresOn,
        description,
        sourceUrl: doc.url,
        documentDate,
      });
    }
  }
  return out;
}

/** "from July 1, 2026 through June 30, 2029"; "expiring June 30, 2027". */
function contractTerm(sentence: string): { startsOn: string | null; expiresOn: string | null } {
  const dates = findDates(sentence);
  for (let i = 0; i + 1 < dates.length; i += 1) {
    const between = sentence.slice(dates[i]!.end, dates[i + 1]!.index);
    if (/^\s*(through|thru|to|until|-|–)\s*$/i.test(between) && dates[i]!.date < dates[i + 1]!.date)
      return { startsOn: dates[i]!.date, expiresOn: dates[i + 1]!.date };
  }
  for (const d of dates) {
    const before = sentence.slice(Math.max(0, d.index - 30), d.index);
    if (/\b(expir(es|ing|ation)|ending|ends|through|until)( on)?\s*$/i.test(before)) return { startsOn: null, expiresOn: d.date };
  }
  return { startsOn: null, expiresOn: null };
}

const BID_TITLE =
  /\b(request for (proposals?|qualifications|quotes?|quotations|information)|rfp|rfq|rfi|ifb|itb|invitation (to|for) bids?|bid\b|solicitation)/i;
const DEADLINE_CUE =
  /\b(due|deadline|closing|closes|close date|submissions?|proposals? (are )?due|responses? (are )?due|bid opening|opening date)\b/i;
const POSTED_CUE = /\b(posted|issued|released?|release date|issue date|date issued|advertised)\b/i;

const looksLikeBidPage = (doc: SiteDocument) =>
  /\brfps?\b|\bbids?\b|procurement|purchasing|solicitation|proposals/i.test(`${doc.url} ${doc.title}`) ||
  /request for proposals?/i.test(doc.text);

/** RFPs and bids with a deadline, from tables (title and due-date columns) and headed sections. */
export function extractBids(documents: readonly SiteDocument[], subject: ExtractionSubject): ExtractedBid[] {
  const out: ExtractedBid[] = [];
  const seen = new Set<string>();
  const add = (bid: ExtractedBid) => {
    const key = bid.title.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(bid);
  };
  for (const doc of documents) {
    if (doc.kind !== "html" || !doc.page || !looksLikeBidPage(doc)) continue;
    const { $ } = doc.page;
    const used = new Set<Element>();
    $("table").each((_, table) => {
      for (const bid of tableBids($, table as Element, doc, subject)) add(bid);
      used.add(table as Element);
    });
    for (const section of headedSections($, doc.url)) {
      if (
        section.elements.some((el) =>
          $(el)
            .closest("table")
            .toArray()
            .some((t) => used.has(t as Element)),
        )
      )
        continue;
      // A heading over sub-headings ("Open Solicitations") is a group, not a bid: its sub-sections are read.
      if (section.elements.slice(1).some((el) => /^h[1-6]$/.test(el.name))) continue;
      const title = clean(section.heading);
      const text = section.text;
      if (!BID_TITLE.test(`${title} ${text.slice(0, 200)}`)) continue;
      const deadline = dateAfterCue(text, DEADLINE_CUE);
      if (!deadline) continue;
      const posted = dateAfterCue(text, POSTED_CUE);
      const link = section.links.find((l) => /\.pdf($|\?)/i.test(l) || /rfp|bid|solicitation|proposal/i.test(l));
      add({
        title: clip(title, 300),
        postedOn: posted?.date ?? null,
        deadlineAt: deadlineAt(text, deadline, subject.state),
        url: link ?? doc.url,
        sourceUrl: doc.url,
      });
    }
  }
  return out;
}

function tableBids($: Html, table: Element, doc: SiteDocument, subject: ExtractionSubject): ExtractedBid[] {
  const rows = $(table).find("tr").toArray();
  const header = rows.find((r) => $(r).find("th").length > 0);
  if (!header) return [];
  const headers = $(header)
    .find("th, td")
    .toArray()
    .map((c) => clean($(c).text()).toLowerCase());
  const col = (re: RegExp) => headers.findIndex((h) => re.test(h));
  const titleCol = col(/title|description|project|solicitation|name/);
  const dueCol = col(/due|deadline|closing|close|opening/);
  const postedCol = col(/posted|issued|release|advertised/);
  const numberCol = col(/#|number|\bno\.?$/);
  if (titleCol < 0 || dueCol < 0) return [];
  const out: ExtractedBid[] = [];
  for (const row of rows) {
    if (row === header) continue;
    const cells = $(row).find("td, th").toArray();
    if (cells.length <= Math.max(titleCol, dueCol)) continue;
    const name = clean($(cells[titleCol]!).text());
    const number = numberCol >= 0 && numberCol !== titleCol && cells[numberCol] ? clean($(cells[numberCol]!).text()) : "";
    const title = number && name && !name.includes(number) ? `${number}: ${name}` : name;
    const dueText = clean($(cells[dueCol]!).text());
    const due = findDates(dueText)[0];
    if (!title || !due) continue;
    const posted = postedCol >= 0 && cells[postedCol] ? firstDate(clean($(cells[postedCol]!).text())) : null;
    const href = $(row).find("a[href]").first().attr("href");
    let url = doc.url;
    if (href)
      try {
        url = new URL(href, doc.url).toString();
      } catch {
        /* the page itself */
      }
    out.push({ title: clip(title, 300), postedOn: posted, deadlineAt: deadlineAt(dueText, due, subject.state), url, sourceUrl: doc.url });
  }
  return out;
}

interface Section {
  heading: string;
  text: string;
  links: string[];
  elements: Element[];
}

/** Each h2-h4 with the siblings that follow it up to the next heading of the same or a higher level. */
function headedSections($: Html, pageUrl: string): Section[] {
  const sections: Section[] = [];
  $("h2, h3, h4").each((_, h) => {
    const level = Number((h as Element).name.slice(1));
    const elements: Element[] = [h as Element];
    for (let next = $(h).next(); next.length; next = next.next()) {
      const tag = next.get(0)!.name;
      if (/^h[1-6]$/.test(tag) && Number(tag.slice(1)) <= level) break;
      elements.push(next.get(0)!);
    }
    const links: string[] = [];
    for (const el of elements)
      $(el)
        .find("a[href]")
        .addBack("a[href]")
        .each((_, a) => {
          try {
            links.push(new URL($(a).attr("href")!, pageUrl).toString());
          } catch {
            /* not a URL */
          }
        });
    sections.push({ heading: clean($(h).text()), text: elements.map((el) => nodeText($, el)).join("\n"), links, elements });
  });
  return sections;
}

function dateAfterCue(text: string, cue: RegExp) {
  for (const line of text.split("\n")) {
    const m = cue.exec(line);
    if (!m) continue;
    const date = findDates(line.slice(m.index))[0];
    if (date) {
      const offset = text.indexOf(line) + m.index;
      return { ...date, index: date.index + offset, end: date.end + offset };
    }
  }
  return null;
}

/** Strategic priorities: the items under a heading naming the plan's priorities or goals. */
const PRIORITY_HEADING =
  /strategic (plan|priorities|goals|pillars|directions)|board goals|district goals|our (priorities|goals)|priorit(y|ies)|focus areas|pillars|goals/i;

export function extractPriorities(documents: readonly SiteDocument[]): { priorities: string[]; sourceUrl: string | null } {
  const ordered = [...documents].sort(
    (a, b) => Number(/strateg|priorit|goals|plan/i.test(b.url)) - Number(/strateg|priorit|goals|plan/i.test(a.url)),
  );
  for (const doc of ordered) {
    if (doc.kind !== "html" || !doc.page) continue;
    const { $ } = doc.page;
    // The innermost heading first: "Strategic Plan" (h1) over "Strategic Priorities" (h2) gives the latter's list.
    for (const heading of [...$("h3").toArray(), ...$("h2").toArray(), ...$("h1").toArray()]) {
      if (!PRIORITY_HEADING.test(clean($(heading).text()))) continue;
      const level = Number((heading as Element).name.slice(1));
      const items: string[] = [];
      for (let next = $(heading).next(); next.length && items.length < 8; next = next.next()) {
        const tag = next.get(0)!.name;
        if (/^h[1-6]$/.test(tag) && Number(tag.slice(1)) <= level) break;
        if (/^h[1-6]$/.test(tag)) items.push(clean(next.text()));
        next.find("li").each((_, li) => {
          if (items.length < 8) items.push(priorityText(nodeText($, li)));
        });
      }
      const unique = [...new Set(items.filter((i) => i.length >= 4))];
      if (unique.length >= 2) return { priorities: unique.slice(0, 8), sourceUrl: doc.url };
    }
  }
  return { priorities: [], sourceUrl: null };
}

/** "Literacy for all: every student reads ..." -> "Literacy for all". */
function priorityText(text: string): string {
  const line = clean(text.split("\n")[0]!);
  const head = line.split(/:\s|\s[–—-]\s/)[0]!;
  return clip(head.length >= 4 ? head : line, 150);
}

/** The date a document speaks for: a minutes PDF's first date, an HTML page's publication date. */
export function documentDateOf(doc: SiteDocument): string | null {
  if (doc.kind === "pdf") return firstDate(doc.text.slice(0, 600));
  return doc.page?.publishedAt ?? null;
}

const isMinutes = (doc: SiteDocument) => doc.kind === "pdf" && /minutes/i.test(`${doc.url} ${doc.anchorText} ${doc.text.slice(0, 400)}`);

/** Board meeting minutes PDFs (fetched and read), newest meeting first. */
export function extractMinutes(documents: readonly SiteDocument[]): ExtractedMinutes[] {
  return documents
    .filter(isMinutes)
    .map((doc) => ({
      url: doc.url,
      meetingDate: firstDate(doc.text.slice(0, 600)) ?? firstDate(doc.anchorText),
      title: clip(
        doc.text
          .split("\n")
          .find((l) => /meeting/i.test(l))
          ?.trim() ??
          (doc.anchorText || "Board meeting minutes"),
        200,
      ),
    }))
    .sort((a, b) => (b.meetingDate ?? "").localeCompare(a.meetingDate ?? ""));
}

const EVENT_RULES: readonly [string, RegExp][] = [
  ["budget_adopted", /\badopt(ed|s|ion of)\b.*\bbudget\b|\bbudget\b.*\b(was|were) adopted\b/i],
  ["grant_award", /\b(award(ed)?|receiv(ed)?|secur(ed)?|won)\b.*\bgrant\b/i],
  [
    "leadership_change",
    /\b(appoint(ed|s)|nam(ed|es)|hir(ed|es)|select(ed|s)|announc(ed|es)( the)? retirement of)\b.*\b(superintendent|principal|chief|director|assistant superintendent)\b/i,
  ],
];

/**
 * Timeline events: a board meeting per minutes PDF, an rfp_posted per bid with a posting date, a
 * contract_award per contract stated in a dated document, budget_adopted / grant_award /
 * leadership_change per sentence of a dated document, news per dated web page.
 */
export function extractEvents(
  documents: readonly SiteDocument[],
  minutes: readonly ExtractedMinutes[],
  bids: readonly ExtractedBid[],
  contracts: readonly ExtractedContract[],
): ExtractedEvent[] {
  const events: ExtractedEvent[] = [];
  const seen = new Set<string>();
  const add = (e: ExtractedEvent) => {
    const key = `${e.type}|${e.date}|${e.title.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    events.push(e);
  };
  for (const m of minutes)
    if (m.meetingDate)
      add({ date: m.meetingDate, type: "board_meeting", title: m.title, description: `Minutes: ${m.url}`, sourceUrl: m.url });
  for (const b of bids)
    if (b.postedOn)
      add({
        date: b.postedOn,
        type: "rfp_posted",
        title: b.title,
        description: b.deadlineAt ? `Responses due ${b.deadlineAt.toISOString()}` : null,
        sourceUrl: b.sourceUrl,
      });
  for (const c of contracts)
    if (c.documentDate)
      add({ date: c.documentDate, type: "contract_award", title: clip(c.description, 300), description: null, sourceUrl: c.sourceUrl });
  for (const doc of documents) {
    const date = documentDateOf(doc);
    if (!date) continue;
    if (doc.kind === "html" && doc.page?.publishedAt)
      add({ date, type: "news", title: clip(doc.title, 300), description: null, sourceUrl: doc.url });
    for (const sentence of sentences(doc.text))
      for (const [type, rule] of EVENT_RULES)
        if (rule.test(sentence)) {
          add({ date, type, title: clip(sentence, 300), description: null, sourceUrl: doc.url });
          break;
        }
  }
  return events;
}

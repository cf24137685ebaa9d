/**
 * Staff directories to contacts. Four layouts, each read only from what the page states:
 *
 * 1. Tables whose header names a name column and a title/position or e-mail column: one contact per row
 *    ("Last, First" names are turned around).
 * 2. schema.org `Person` records in JSON-LD (name, jobTitle, email, telephone).
 * 3. Cards: around each e-mail address (mailto link, plain or "name [at] host [dot] org" text) the
 *    smallest enclosing element that holds one address; its lines give the name (a line that reads as
 *    a person's name), the title (a line with a job-title word), the phone.
 * 4. "Title: Name" lines ("Superintendent: Dr. Maria Lopez") with a job-title word on the left.
 *
 * A contact needs a name and a title or an e-mail; the same person on several pages (same e-mail, else
 * same name) is merged, the first page's values kept and gaps filled.
 */
import type { Element } from "domhandler";
import type { SiteDocument } from "../crawl";
import { clean, nodeText, type Html } from "../html";
import type { ExtractedContact } from "./types";

const EMAIL = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-](\d{4})(?:\s*(?:ext\.?|x|extension)\s*(\d{1,6}))?/i;
const TITLE_WORD =
  /\b(superintendent|director|principal|coordinator|manager|officer|chief|supervisor|specialist|administrator|secretary|treasurer|clerk|president|counselor|teacher|librarian|nurse|assistant|associate|dean|registrar|controller|comptroller|analyst|technician|engineer|executive|chair(?:person)?|trustee|liaison|bookkeeper|receptionist|psychologist|therapist|coach|advisor|head of|board member|cfo|cto|cio|coo)\b/i;
const NOT_A_NAME =
  /\b(school|schools|district|department|office|board|education|services|service|center|centre|elementary|middle|high|academy|technology|human|resources|transportation|nutrition|finance|business|curriculum|instruction|student|students|special|public|county|city|contact|us|staff|directory|administration|welcome|home|menu|phone|email|fax|address|street|avenue|road|suite|main|the|and|of|for|plan|strategic|news|calendar|events?|programs?|report|minutes|agenda|meetings?|polic(y|ies)|athletics|lunch|menus?|enrollment|registration|careers|jobs|employment|community|famil(y|ies)|parents|about|links|quick|portal|login|website|facebook|twitter|instagram|youtube|bids|rfps|purchasing|annual|summer|learning|library|media|intranet|department|leadership)\b/i;
/** Shared mailboxes name an office, not a person: alone they do not make a contact. */
const ROLE_MAILBOX =
  /^(info|office|contact|webmaster|admin|communications|hr|support|helpdesk|help|noreply|no-reply|frontdesk|reception|enroll|registrar)@/i;
const NAME =
  /^(?:(?:Dr|Mr|Mrs|Ms|Mx)\.?\s+)?[A-Z][A-Za-z'’-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][A-Za-z'’-]+){1,2}(?:,?\s+(?:Jr\.?|Sr\.?|II|III|IV|Ed\.?\s?D\.?|Ph\.?\s?D\.?))?$/;

export function looksLikeName(text: string): boolean {
  const s = clean(text);
  return s.length >= 5 && s.length <= 50 && NAME.test(s) && !NOT_A_NAME.test(s.replace(/^(Dr|Mr|Mrs|Ms|Mx)\.?\s+/, ""));
}

const looksLikeTitle = (text: string) => text.length >= 3 && text.length <= 100 && TITLE_WORD.test(text) && !EMAIL.test(text);

/** "(402) 555-0142 ext. 12": the digits a page gives, in one format. */
export function normalizePhone(text: string): string | null {
  const m = PHONE.exec(text);
  if (!m) return null;
  return `(${m[1]}) ${m[2]}-${m[3]}${m[4] ? ` ext. ${m[4]}` : ""}`;
}

/** "name [at] host [dot] org" and "name(at)host.org" to an address. */
const deobfuscate = (text: string) => text.replace(/\s*[[(]\s*at\s*[\])]\s*/gi, "@").replace(/\s*[[(]\s*dot\s*[\])]\s*/gi, ".");

const emailIn = (text: string): string | null => EMAIL.exec(deobfuscate(text))?.[0].toLowerCase() ?? null;

/** "Smith, Jane" to "Jane Smith"; labels ("Name:") dropped. */
function personName(text: string): string | null {
  let s = clean(text.replace(/^name\s*:\s*/i, ""));
  const turned = /^([A-Z][A-Za-z'’-]+),\s+([A-Z][A-Za-z'’.-]+(?:\s+[A-Z]\.?)?)$/.exec(s);
  if (turned) s = `${turned[2]} ${turned[1]}`;
  return looksLikeName(s) ? s : null;
}

const stripLabel = (line: string) => clean(line.replace(/^(title|position|role|job title)\s*:\s*/i, ""));

export function extractContacts(documents: readonly SiteDocument[]): ExtractedContact[] {
  const found: ExtractedContact[] = [];
  for (const doc of documents) {
    if (doc.kind !== "html" || !doc.page) continue;
    const { $ } = doc.page;
    const inTables = new Set<Element>();
    tableContacts($, doc.url, found, inTables);
    jsonLdContacts(doc.page.jsonLd, doc.url, found);
    cardContacts($, doc.url, found, inTables);
    titleLineContacts(doc.text, doc.url, found);
  }
  return merge(found);
}

function tableContacts($: Html, url: string, out: ExtractedContact[], inTables: Set<Element>): void {
  $("table").each((_, table) => {
    const rows = $(table).find("tr").toArray();
    const headerRow = rows.find((row) => $(row).find("th").length > 0) ?? rows[0];
    if (!headerRow) return;
    const headers = $(headerRow)
      .find("th, td")
      .toArray()
      .map((cell) => clean($(cell).text()).toLowerCase());
    const col = (re: RegExp) => headers.findIndex((h) => re.test(h));
    const name = col(/\bname\b|^staff|employee/);
    const title = col(/title|position|role|job/);
    const email = col(/e-?mail/);
    const phone = col(/phone|tel|ext/);
    if (name < 0 || (title < 0 && email < 0)) return;
    inTables.add(table as Element);
    for (const row of rows) {
      if (row === headerRow) continue;
      const cells = $(row).find("td, th").toArray();
      if (cells.length < 2) continue;
      const cellText = (i: number) => (i >= 0 && cells[i] ? clean($(cells[i]).text()) : "");
      const person = personName(cellText(name));
      if (!person) continue;
      const mail = $(row).find('a[href^="mailto:"]').attr("href");
      out.push({
        name: person,
        title: cellText(title) || null,
        email: (mail ? emailIn(decodeURIComponent(mail.slice(7).split("?")[0]!)) : null) ?? emailIn(cellText(email)),
        phone: normalizePhone(phone >= 0 ? cellText(phone) : clean($(row).text())),
        sourceUrl: url,
      });
    }
  });
}

/**
 * schema.org Person records anywhere in the page's JSON-LD, in document order (an object's `@graph` first, then
 * the object, then its other values). An explicit stack, not recursion: crawled structured data can nest
 * 100,000 levels deep, which overflowed the call stack. `@graph` is walked once (it was walked twice per
 * level, exponential in a chain of them).
 */
function jsonLdContacts(blocks: unknown[], url: string, out: ExtractedContact[]): void {
  type Task = { visit: unknown } | { person: Record<string, unknown> };
  const stack: Task[] = [{ visit: blocks }];
  for (let task = stack.pop(); task; task = stack.pop()) {
    if ("person" in task) {
      personContact(task.person, url, out);
      continue;
    }
    const node = task.visit;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ visit: node[i] });
      continue;
    }
    if (!node || typeof node !== "object") continue;
    const record = node as Record<string, unknown>;
    // Pushed in reverse: popped as @graph, the record, then its other values in order.
    const values = Object.entries(record).filter(([key, value]) => key !== "@graph" && value && typeof value === "object");
    for (let i = values.length - 1; i >= 0; i--) stack.push({ visit: values[i]![1] });
    stack.push({ person: record });
    if (record["@graph"]) stack.push({ visit: record["@graph"] });
  }
}

function personContact(record: Record<string, unknown>, url: string, out: ExtractedContact[]): void {
  const type = record["@type"];
  if (type !== "Person" && !(Array.isArray(type) && type.includes("Person"))) return;
  const name = typeof record.name === "string" ? personName(record.name) : null;
  if (!name) return;
  const email = typeof record.email === "string" ? emailIn(record.email.replace(/^mailto:/i, "")) : null;
  const title = typeof record.jobTitle === "string" ? clean(record.jobTitle) : null;
  if (title || email)
    out.push({
      name,
      title: title || null,
      email,
      phone: typeof record.telephone === "string" ? normalizePhone(record.telephone) : null,
      sourceUrl: url,
    });
}

function cardContacts($: Html, url: string, out: ExtractedContact[], inTables: Set<Element>): void {
  const body = $("body").get(0);
  if (!body) return;
  // Every element that directly holds an address: mailto links and text nodes with an (obfuscated) address.
  const anchors = new Set<Element>();
  $('a[href^="mailto:"]').each((_, a) => void anchors.add(a as Element));
  $("body *").each((_, el) => {
    const own = $(el)
      .contents()
      .toArray()
      .filter((n) => n.type === "text")
      .map((n) => (n as unknown as { data: string }).data)
      .join(" ");
    if (emailIn(own)) anchors.add(el as Element);
  });
  const seenCards = new Set<Element>();
  for (const anchor of anchors) {
    if (
      $(anchor)
        .closest("table")
        .toArray()
        .some((t) => inTables.has(t as Element))
    )
      continue;
    // Site navigation and page chrome list links, not people.
    if ($(anchor).closest("nav, header, footer").length) continue;
    let card: Element | null = null;
    for (let el: Element | null = anchor; el && el !== body; el = el.parent as Element | null) {
      if (el.type !== "tag") break;
      if (addressCount($, el) > 1) break;
      card = el;
      const lines = nodeText($, el).split("\n");
      if (lines.some((l) => personName(l.split(/\s+[|,–—-]\s+|,\s+/)[0]!))) break;
    }
    if (!card || seenCards.has(card)) continue;
    seenCards.add(card);
    const contact = readCard($, card, url);
    if (contact) out.push(contact);
  }
}

function addressCount($: Html, el: Element): number {
  const addresses = new Set<string>();
  $(el)
    .find('a[href^="mailto:"]')
    .each((_, a) => {
      const e = emailIn(decodeURIComponent($(a).attr("href")!.slice(7).split("?")[0]!));
      if (e) addresses.add(e);
    });
  // Addresses written as text, except a mailto link's own text (its href is the address; a site's copy
  // error between the two must not split one card into two).
  const clone = $(el).clone();
  clone.find('a[href^="mailto:"]').remove();
  for (const m of deobfuscate(nodeText($, clone.get(0)!)).matchAll(new RegExp(EMAIL.source, "g"))) addresses.add(m[0].toLowerCase());
  return addresses.size;
}

function readCard($: Html, card: Element, url: string): ExtractedContact | null {
  const lines = nodeText($, card)
    .split("\n")
    .map((l) => clean(l))
    .filter(Boolean);
  const mail = $(card).find('a[href^="mailto:"]').attr("href");
  const email = (mail ? emailIn(decodeURIComponent(mail.slice(7).split("?")[0]!)) : null) ?? emailIn(lines.join(" "));
  let name: string | null = null;
  let title: string | null = null;
  for (const line of lines) {
    if (!name) {
      // "Jane Smith, Superintendent" or "Jane Smith – Superintendent" on one line.
      const [head, ...rest] = line.split(/\s+[|–—-]\s+|,\s+(?=[A-Z])/);
      const candidate = personName(head!);
      if (candidate) {
        name = candidate;
        const tail = rest.map(stripLabel).find(looksLikeTitle);
        if (!title && tail) title = tail;
        continue;
      }
    }
    const stripped = stripLabel(line);
    if (!title && looksLikeTitle(stripped) && !PHONE.test(stripped)) title = stripped;
  }
  if (!name || (!title && (!email || ROLE_MAILBOX.test(email)))) return null;
  // A fax number is not the person's phone.
  const phoneText = lines.join(" ").replace(/\bfax\b[:\s]*(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}/gi, "");
  return { name, title, email, phone: normalizePhone(phoneText), sourceUrl: url };
}

function titleLineContacts(text: string, url: string, out: ExtractedContact[]): void {
  for (const line of text.split("\n")) {
    const m = /^([A-Z][A-Za-z ,&/'-]{2,80}?):\s+((?:(?:Dr|Mr|Mrs|Ms|Mx)\.?\s+)?[A-Z][A-Za-z'’. -]{2,48})$/.exec(line.trim());
    if (!m) continue;
    const title = clean(m[1]!);
    const name = personName(m[2]!);
    if (!name || !TITLE_WORD.test(title) || /^(title|position|role|name|email|phone)$/i.test(title)) continue;
    out.push({ name, title, email: null, phone: null, sourceUrl: url });
  }
}

/** One contact per person: same e-mail, else same name (case-insensitive); first values win, gaps filled. */
function merge(found: ExtractedContact[]): ExtractedContact[] {
  const byKey = new Map<string, ExtractedContact>();
  const byName = new Map<string, ExtractedContact>();
  const result: ExtractedContact[] = [];
  for (const c of found) {
    const nameKey = c.name.toLowerCase().replace(/^(dr|mr|mrs|ms|mx)\.?\s+/, "");
    const existing = (c.email ? byKey.get(c.email) : undefined) ?? byName.get(nameKey);
    if (existing && (!existing.email || !c.email || existing.email === c.email)) {
      existing.title ??= c.title;
      existing.email ??= c.email;
      existing.phone ??= c.phone;
      if (existing.email) byKey.set(existing.email, existing);
      continue;
    }
    const copy = { ...c };
    result.push(copy);
    if (copy.email) byKey.set(copy.email, copy);
    byName.set(nameKey, copy);
  }
  return result;
}

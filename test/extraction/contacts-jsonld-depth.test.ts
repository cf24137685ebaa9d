/**
 * Issue 20 follow-up (crawled input): the contacts extractor walks a crawled page's JSON-LD. It recursed once per
 * nesting level, so a page whose structured data nests 100,000 levels deep overflowed the stack
 * (RangeError) and failed the whole extraction. The walk is iterative now: any depth extracts.
 */
import type { SiteDocument } from "../../src/features/research/extraction/crawl";
import { extractContacts } from "../../src/features/research/extraction/extractors/contacts";
import { parseHtml } from "../../src/features/research/extraction/html";

const DEPTH = 100_000;
const PERSON = { "@type": "Person", name: "Jane Smith", jobTitle: "Superintendent", email: "jsmith@example.org" };

function page(jsonLd: string): SiteDocument {
  const url = "https://district.example.org/staff";
  const html = `<html><head><title>Staff</title><script type="application/ld+json">${jsonLd}</script></head><body><p>Staff</p></body></html>`;
  const parsed = parseHtml(html, url);
  return {
    url,
    kind: "html",
    title: parsed.title,
    text: parsed.text,
    links: [],
    depth: 0,
    anchorText: "",
    bytes: html.length,
    page: parsed,
  };
}

describe("JSON-LD walk of the contacts extractor (issue 20 follow-up)", () => {
  it("a 100,000-deep JSON-LD document extracts without throwing, finding the Person at its bottom", () => {
    // {"a":{"a":...{"a":[PERSON]}...}}: objects nested DEPTH levels deep, built as text (no recursion here either).
    const json = `${'{"member":'.repeat(DEPTH)}[${JSON.stringify(PERSON)}]${"}".repeat(DEPTH)}`;
    const doc = page(json);
    expect(doc.page!.jsonLd).toHaveLength(1);
    expect(extractContacts([doc])).toEqual([
      expect.objectContaining({ name: "Jane Smith", title: "Superintendent", email: "jsmith@example.org" }),
    ]);
  });

  it("a 100,000-deep chain of @graph (each level was walked twice) and of arrays extracts", () => {
    const graph = `${'{"@graph":'.repeat(DEPTH)}${JSON.stringify(PERSON)}${"}".repeat(DEPTH)}`;
    expect(extractContacts([page(graph)])).toEqual([expect.objectContaining({ name: "Jane Smith", email: "jsmith@example.org" })]);
    const arrays = `${"[".repeat(DEPTH)}${JSON.stringify(PERSON)}${"]".repeat(DEPTH)}`;
    expect(extractContacts([page(arrays)])).toEqual([expect.objectContaining({ name: "Jane Smith", email: "jsmith@example.org" })]);
  });

  it("Person records are found in document order, @graph first, as before", () => {
    const doc = page(
      JSON.stringify([
        {
          "@graph": [{ ...PERSON, name: "Ann Lee", email: "alee@example.org" }],
          author: { ...PERSON, name: "Bob Ray", email: "bray@example.org" },
        },
        PERSON,
      ]),
    );
    expect(extractContacts([doc]).map((c) => c.name)).toEqual(["Ann Lee", "Bob Ray", "Jane Smith"]);
  });
});

/** Stage 3 of the pipeline: every extractor over the crawled documents of one entity. */
import { extractContacts } from "./contacts";
import {
  extractBids,
  extractContracts,
  extractEvents,
  extractFunding,
  extractMinutes,
  extractPainPoints,
  extractPriorities,
  extractVendors,
} from "./documents";
import type { Extraction, ExtractorInput } from "./types";

export function runExtractors({ subject, documents }: ExtractorInput): Extraction {
  const contracts = extractContracts(documents);
  const bids = extractBids(documents, subject);
  const minutes = extractMinutes(documents);
  // Vendors: dictionary mentions, and the companies contracts were awarded to.
  const vendors = extractVendors(documents);
  for (const c of contracts)
    if (c.vendorName && !vendors.some((v) => v.name === c.vendorName))
      vendors.push({ name: c.vendorName, category: c.vendorCategory ?? c.category ?? "other", sourceUrl: c.sourceUrl });
  return {
    contacts: extractContacts(documents),
    vendors,
    painPoints: extractPainPoints(documents),
    funding: extractFunding(documents),
    contracts,
    bids,
    // Only districts have the column.
    priorities: subject.kind === "district" ? extractPriorities(documents).priorities : [],
    minutes,
    events: extractEvents(documents, minutes, bids, contracts),
  };
}

export type { Extraction, ExtractionSubject, ExtractorInput } from "./types";

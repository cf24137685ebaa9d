/** What the extractors read (the crawled documents of one entity) and what they return. */
import type { SiteDocument } from "../crawl";

export interface ExtractionSubject {
  kind: "district" | "school";
  id: string;
  name: string;
  state: string | null;
}

export interface ExtractedContact {
  name: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  sourceUrl: string;
}

export interface ExtractedVendor {
  name: string;
  category: string;
  sourceUrl: string;
}

export interface ExtractedPainPoint {
  category: string;
  description: string;
  sourceUrl: string;
}

export interface ExtractedFunding {
  source: string;
  amount: number | null;
  fiscalYear: number | null;
  description: string;
  sourceUrl: string;
}

export interface ExtractedContract {
  vendorName: string | null;
  /** The vendor's category when the vendor dictionary knows it (else the contract's). */
  vendorCategory: string | null;
  category: string | null;
  amount: number | null;
  startsOn: string | null;
  expiresOn: string | null;
  description: string;
  sourceUrl: string;
  /** The date of the document that states it (meeting or post), when known. */
  documentDate: string | null;
}

export interface ExtractedBid {
  title: string;
  postedOn: string | null;
  deadlineAt: Date | null;
  url: string;
  sourceUrl: string;
}

export interface ExtractedEvent {
  date: string;
  type: string;
  title: string;
  description: string | null;
  sourceUrl: string;
}

export interface ExtractedMinutes {
  url: string;
  meetingDate: string | null;
  title: string;
}

export interface Extraction {
  contacts: ExtractedContact[];
  vendors: ExtractedVendor[];
  painPoints: ExtractedPainPoint[];
  funding: ExtractedFunding[];
  contracts: ExtractedContract[];
  bids: ExtractedBid[];
  priorities: string[];
  minutes: ExtractedMinutes[];
  events: ExtractedEvent[];
}

export interface ExtractorInput {
  subject: ExtractionSubject;
  documents: readonly SiteDocument[];
  /** "Now" of the run: bid status and nothing else depends on it. */
  now: Date;
}

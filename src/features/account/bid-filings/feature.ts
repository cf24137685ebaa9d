import { defineFeature } from "../../../graphql/feature";
import { bidFilingsDictionary } from "./bid-filing.dictionary";
import { bidFilingTools } from "./bid-filing.mcp";
import { BidFilingResolver } from "./bid-filing.resolver";

/** An organization's filings of bids: save, set aside, not useful (PUT /bids/{id}/filing; docs/outreach.md). */
export const bidFilingsFeature = defineFeature({
  name: "bid-filings",
  dictionary: bidFilingsDictionary,
  resolvers: [BidFilingResolver],
  rest: [{ method: "PUT", path: "/bids/:id/filing", operation: "FileBid", input: "json-body", select: ["file_bid"], wrap: true }],
  mcp: bidFilingTools,
});

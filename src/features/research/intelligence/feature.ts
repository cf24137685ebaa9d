import { defineFeature } from "../../../graphql/feature";
import { bidsBlock, contractsBlock, fundingBlock, painPointsBlock, vendorsBlock } from "./intelligence.blocks";
import { intelligenceDictionary } from "./intelligence.dictionary";

/** Extracted intelligence of districts and schools: pain points, vendors, funding, contracts, bids (gated blocks). */
export const intelligenceFeature = defineFeature({
  name: "intelligence",
  blocks: [painPointsBlock, vendorsBlock, fundingBlock, contractsBlock, bidsBlock],
  dictionary: intelligenceDictionary,
});

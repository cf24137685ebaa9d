/** The intelligence lists as the MCP details tool selects them on a district or school (null until unlocked). */
export const INTELLIGENCE_SELECTION = `
  painPoints { category description detectedAt sourceUrl }
  vendors { name category }
  funding { source amount fiscalYear description }
  contracts { vendorName category amount startsOn expiresOn }
  bids { title status postedOn deadlineAt url }`;

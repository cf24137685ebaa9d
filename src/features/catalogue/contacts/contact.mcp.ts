import { parse } from "graphql";
import { MCP_ACCESS, MCP_PAGINATION, type McpRecordSpec } from "../../../graphql/mcp-tool";

/** Contacts in the MCP tools search and details. */
export const contactRecords: McpRecordSpec = {
  plural: "contacts",
  singular: "contact",
  filterType: "ContactFilter",
  orderType: "ContactOrderField",
  search: parse(`
  query McpSearchContacts($filter: ContactFilter, $unique: Boolean, $orderBy: ContactOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
    contacts(filter: $filter, unique: $unique, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
      data {
        id name title state districtId schoolId isDistrictContact enrichmentStatus qualificationScore email phone linkedinUrl
        ${MCP_ACCESS}
      }
      ${MCP_PAGINATION}
      _accessSummary { totalResults unlocked lockedProcessed lockedUnprocessed unlockAllCost }
    }
  }`),
  details: parse(`
  query McpContact($id: UUID!) {
    contact(id: $id) {
      id name title state districtId schoolId isDistrictContact enrichmentStatus qualificationScore
      qualificationJustification email phone linkedinUrl profileSummary keyFacts source sourceUrl dataSource
      discoveredAt lastUpdatedAt
      district { id name fedId }
      school { id name fedId }
      ${MCP_ACCESS}
    }
  }`),
  searchArgs: {
    unique: {
      variable: "unique",
      schema: { type: "boolean", description: "Contacts only: true (default) lists one row per person across sources." },
    },
  },
};

import { parse } from "graphql";
import { MCP_ACCESS, MCP_PAGINATION, mcpMetricQuery, type McpRecordSpec } from "../../../graphql/mcp-tool";
import { INTELLIGENCE_SELECTION } from "../../research/intelligence/intelligence.mcp";

/** Schools in the MCP tools search and details (and metric_query). */
export const schoolRecords: McpRecordSpec = {
  plural: "schools",
  singular: "school",
  filterType: "SchoolFilter",
  orderType: "SchoolOrderField",
  search: parse(`
  query McpSearchSchools($filter: SchoolFilter, $orderBy: SchoolOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
    schools(filter: $filter, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
      data {
        id fedId districtId name state physicalCity county schoolType gradeLevels localeType studentCount teachersFte
        studentTeacherRatio status
        ${MCP_ACCESS}
      }
      ${MCP_PAGINATION}
    }
  }`),
  details: parse(`
  query McpSchool($id: UUID!) {
    school(id: $id) {
      id fedId districtId name state stateSchoolId schoolType gradeLevels localeType county websiteUrl phone
      physicalAddress physicalCity physicalState physicalZip studentCount teachersFte studentTeacherRatio fedDataYear
      status aiSummary lastUpdatedAt
      district { id name fedId }
      ${MCP_ACCESS}
      annualStatistics {
        historyGated historyYearsAvailable caveat
        latest {
          schoolYearStart totalEnrollment teachersFte studentTeacherRatio freeOrReducedPriceLunchEligible
          freeOrReducedPriceLunchPct charterStatus schoolType
        }
      }
      ${INTELLIGENCE_SELECTION}
    }
  }`),
  metricQuery: mcpMetricQuery("McpSchoolMetrics", "schools", "SchoolFilter"),
};

import { parse } from "graphql";
import { MCP_ACCESS, MCP_PAGINATION, mcpMetricQuery, type McpRecordSpec } from "../../../graphql/mcp-tool";
import { INTELLIGENCE_SELECTION } from "../../research/intelligence/intelligence.mcp";

/** Districts in the MCP tools search and details (and metric_query). */
export const districtRecords: McpRecordSpec = {
  plural: "districts",
  singular: "district",
  filterType: "DistrictFilter",
  orderType: "DistrictOrderField",
  search: parse(`
  query McpSearchDistricts($filter: DistrictFilter, $orderBy: DistrictOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
    districts(filter: $filter, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
      data {
        id fedId name state physicalCity county districtType localeType gradeSpan studentCount schoolCount teachersFte
        studentTeacherRatio totalRevenue revenuePerStudent totalExpenditures expendituresPerStudent websiteUrl status
        ${MCP_ACCESS}
      }
      ${MCP_PAGINATION}
    }
  }`),
  details: parse(`
  query McpDistrict($id: UUID!) {
    district(id: $id) {
      id fedId name state stateDistrictId districtType gradeSpan localeType county websiteUrl phone
      physicalAddress physicalCity physicalState physicalZip mailingAddress mailingCity mailingState mailingZip
      studentCount schoolCount teachersFte totalStaff studentTeacherRatio totalRevenue revenuePerStudent totalExpenditures
      expendituresPerStudent instructionalExpenditures instructionalExpendituresPercent supportServicesExpenditures
      fedDataYear status aiSummary strategicPriorities meetingMinutesPdfs lastUpdatedAt
      ${MCP_ACCESS}
      annualStatistics {
        historyGated historyYearsAvailable caveat
        latest {
          schoolYearStart totalEnrollment teachersFte totalStaffFte studentTeacherRatio totalPopulation schoolAgePopulation
          schoolAgeChildrenInPoverty schoolAgePovertyPct
        }
        latestFinance {
          schoolYearStart financeFiscalYear totalRevenue localRevenue stateRevenue federalRevenue totalExpenditures
          currentExpenditures revenuePerStudent currentExpendituresPerStudent
        }
      }
      ${INTELLIGENCE_SELECTION}
    }
  }`),
  metricQuery: mcpMetricQuery("McpDistrictMetrics", "districts", "DistrictFilter"),
};

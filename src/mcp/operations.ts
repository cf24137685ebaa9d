/**
 * The GraphQL operations the MCP tools run: fixed documents, parsed once, executed by the one execution
 * engine (src/graphql/execution.ts, the same compiled path, admission checks and errors as REST).
 * Response keys are REST's snake_case.
 */
import { parse } from "graphql";

const PAGINATION = "pagination { total limit offset hasMore }";
const ACCESS = "_access { isUnlocked isUnlocking unlockedAt creditsSpent unlockCost }";
const INTELLIGENCE = `
  painPoints { category description detectedAt sourceUrl }
  vendors { name category }
  funding { source amount fiscalYear description }
  contracts { vendorName category amount startsOn expiresOn }
  bids { title status postedOn deadlineAt url }`;

export const SEARCH = {
  districts: parse(`
    query McpSearchDistricts($filter: DistrictFilter, $orderBy: DistrictOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
      districts(filter: $filter, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
        data {
          id fedId name state physicalCity county districtType localeType gradeSpan studentCount schoolCount teachersFte
          studentTeacherRatio totalRevenue revenuePerStudent totalExpenditures expendituresPerStudent websiteUrl status
          ${ACCESS}
        }
        ${PAGINATION}
      }
    }`),
  schools: parse(`
    query McpSearchSchools($filter: SchoolFilter, $orderBy: SchoolOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
      schools(filter: $filter, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
        data {
          id fedId districtId name state physicalCity county schoolType gradeLevels localeType studentCount teachersFte
          studentTeacherRatio status
          ${ACCESS}
        }
        ${PAGINATION}
      }
    }`),
  contacts: parse(`
    query McpSearchContacts($filter: ContactFilter, $unique: Boolean, $orderBy: ContactOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
      contacts(filter: $filter, unique: $unique, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
        data {
          id name title state districtId schoolId isDistrictContact enrichmentStatus qualificationScore email phone linkedinUrl
          ${ACCESS}
        }
        ${PAGINATION}
        _accessSummary { totalResults unlocked lockedProcessed lockedUnprocessed unlockAllCost }
      }
    }`),
};

export const DETAILS = {
  district: parse(`
    query McpDistrict($id: UUID!) {
      district(id: $id) {
        id fedId name state stateDistrictId districtType gradeSpan localeType county websiteUrl phone
        physicalAddress physicalCity physicalState physicalZip mailingAddress mailingCity mailingState mailingZip
        studentCount schoolCount teachersFte totalStaff studentTeacherRatio totalRevenue revenuePerStudent totalExpenditures
        expendituresPerStudent instructionalExpenditures instructionalExpendituresPercent supportServicesExpenditures
        fedDataYear status aiSummary strategicPriorities meetingMinutesPdfs lastUpdatedAt
        ${ACCESS}
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
        ${INTELLIGENCE}
      }
    }`),
  school: parse(`
    query McpSchool($id: UUID!) {
      school(id: $id) {
        id fedId districtId name state stateSchoolId schoolType gradeLevels localeType county websiteUrl phone
        physicalAddress physicalCity physicalState physicalZip studentCount teachersFte studentTeacherRatio fedDataYear
        status aiSummary lastUpdatedAt
        district { id name fedId }
        ${ACCESS}
        annualStatistics {
          historyGated historyYearsAvailable caveat
          latest {
            schoolYearStart totalEnrollment teachersFte studentTeacherRatio freeOrReducedPriceLunchEligible
            freeOrReducedPriceLunchPct charterStatus schoolType
          }
        }
        ${INTELLIGENCE}
      }
    }`),
  contact: parse(`
    query McpContact($id: UUID!) {
      contact(id: $id) {
        id name title state districtId schoolId isDistrictContact enrichmentStatus qualificationScore
        qualificationJustification email phone linkedinUrl profileSummary keyFacts source sourceUrl dataSource
        discoveredAt lastUpdatedAt
        district { id name fedId }
        school { id name fedId }
        ${ACCESS}
      }
    }`),
};

export const METRIC_QUERY = {
  districts: parse(`
    query McpDistrictMetrics($metricQuery: String!, $filter: DistrictFilter, $limit: Int, $offset: Int) {
      districts(metricQuery: $metricQuery, filter: $filter, limit: $limit, offset: $offset) {
        data { id fedId name state metricValues }
        ${PAGINATION}
      }
    }`),
  schools: parse(`
    query McpSchoolMetrics($metricQuery: String!, $filter: SchoolFilter, $limit: Int, $offset: Int) {
      schools(metricQuery: $metricQuery, filter: $filter, limit: $limit, offset: $offset) {
        data { id fedId name state metricValues }
        ${PAGINATION}
      }
    }`),
};

export const METRIC_CATALOGUE = parse(`
  query McpMetrics($entityType: MetricEntityType!) {
    metrics(entityType: $entityType) { metric type source years }
  }`);

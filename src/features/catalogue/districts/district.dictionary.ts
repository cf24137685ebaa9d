/** Field dictionary: districts (District, DistrictFilter, DistrictOrderField, DistrictPage, root fields). */
import { ADDRESS, limitArg, listArgs, METRIC_QUERY, page, SOURCES, UNLOCK_GATED, USD } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { DISTRICT_LIST } from "./district.inputs";

const SUMMARY = "District summary (data/README.md, 'District record fields: which year'):";

/** Extracted intelligence and the timeline, shared by District and School. */
export const ENTITY_INTELLIGENCE_FIELDS: Record<string, string> = {
  painPoints: "Extracted pain points, newest first. Null unless the caller's organization has unlocked this entity.",
  vendors: "Vendors in use, by name. Null unless the caller's organization has unlocked this entity.",
  funding: "Funding sources, latest fiscal year first. Null unless the caller's organization has unlocked this entity.",
  contracts: "Vendor contracts, soonest expiry first. Null unless the caller's organization has unlocked this entity.",
  bids: "Bids (RFPs), latest posted first, with the caller's filing. Null unless the caller's organization has unlocked this entity.",
  events: "Timeline events, chronological (event_date, created_at, id): the latest `limit` of them.",
  "events(limit)": limitArg(200),
};

/** Extraction-pipeline bookkeeping shared by District and School. */
export const PIPELINE_FIELDS = (what: string): Record<string, string> => ({
  status: `Extraction pipeline status of the ${what}: pending, processing, completed or error (PipelineStatus).`,
  websiteMappedAt: "When the extraction pipeline last mapped the website (robots.txt, sitemaps); null before any run.",
  contentFetchedAt: "When the extraction pipeline last fetched the website's pages.",
  contentExtractedAt: "When the extraction pipeline last extracted intelligence from the fetched pages.",
  crawledAt: "When the website was last crawled (a completed fetch, or the failed attempt's time).",
  lastAnalysisJobId: "Job id of the latest extraction run (a new uuid for a CLI run).",
  errorMessage: "Why the last extraction run failed (at most 500 characters); null unless status is error.",
  retryCount: "Retries the latest extraction run has made.",
  aiSummary: `Summary of the ${what} generated from its extracted public documents (demo records: text starting 'Demo summary'). ${UNLOCK_GATED}`,
  summaryGeneratedAt: `When aiSummary was generated. ${UNLOCK_GATED}`,
  notes: `Free-form notes kept with the ${what}; no bundled source writes them.`,
  lastUpdatedAt: `When the ${what} record last changed (ingest, extraction, edit); updatedSince filters on it.`,
  createdAt: `When the ${what} record was first stored here (UTC).`,
  id: `Our stable id of the ${what} (UUID); not the NCES id (fedId).`,
  _access: `The caller's organization's unlock state of this ${what} and what unlocking it costs (6 credits).`,
  annualStatistics: `Federal statistics of the ${what} by school year (school_year_start = the fall year). History-gated: on the free plan trend holds only the latest year unless the ${what} is followed.`,
});

export const districtsDictionary: Dictionary = {
  District: {
    [TYPE]:
      "A US school district (local education agency, LEA) from the NCES CCD directory, with yearly federal statistics, finance and, once unlocked, extracted intelligence.",
    ...PIPELINE_FIELDS("district"),
    fedId: `NCES district id (LEAID): 7 characters, leading zeros kept. ${SOURCES.ccdDirectory}`,
    name: `District name as NCES publishes it (LEA_NAME). ${SOURCES.ccdDirectory}`,
    state: `Two-letter state (postal) abbreviation. ${SOURCES.ccdDirectory}`,
    websiteUrl: `District website (CCD WEBSITE); the extraction pipeline crawls it. ${SOURCES.ccdDirectory}`,
    studentCount: `Enrolled students (persons). ${SUMMARY} total_enrollment of the latest school year that has it (CCD membership, mostly 2023-24 via ELSI).`,
    schoolCount: `Operational schools (count). ${SOURCES.ccdDirectory} (OPERATIONAL_SCHOOLS).`,
    gradeSpan: `Lowest and highest grade offered, as CCD grade codes LOW-HIGH (PK, KG, 01-13), e.g. KG-12. ${SOURCES.ccdDirectory}`,
    localeType: `NCES urban-centric locale of the district. ${SOURCES.schoolSearch} Null in other states.`,
    totalRevenue: `Total revenue, ${USD} ${SUMMARY} the latest F-33 fiscal year that has it. ${SOURCES.f33}`,
    revenuePerStudent: `Revenue per enrolled student, ${USD} ${SUMMARY} the published per-pupil revenue (ELSI 2023-24 file, FY2021) or total revenue / enrollment of the same year.`,
    totalExpenditures: `Total expenditures, ${USD} ${SUMMARY} the latest F-33 fiscal year that has it (FY2021 via ELSI nationally; Tennessee FY2018 via the Urban Institute where ELSI has none).`,
    expendituresPerStudent: `Total expenditures per enrolled student, ${USD} ${SUMMARY} expenditures / enrollment of the same year row (2 decimals).`,
    instructionalExpenditures: `Current instruction expenditures, ${USD} F-33 FY2018 via the Urban Institute Education Data Portal; Tennessee only, null elsewhere.`,
    instructionalExpendituresPercent: "Instruction as a percent (0-100) of current expenditures, F-33 FY2018; Tennessee only.",
    supportServicesExpenditures: `Current support-services expenditures, ${USD} F-33 FY2018 via the Urban Institute; Tennessee only.`,
    studentTeacherRatio: `Students per FTE teacher (a ratio, not a percent). ${SUMMARY} the latest year with both enrollment and teachers: the published ratio, else enrollment / teachers of that year.`,
    totalStaff: `All staff, in FTE. ${SUMMARY} total_staff_fte of the latest year that has it (only the 2023-24 ELSI file carries it).`,
    teachersFte: `Teachers, in full-time equivalents (FTE). ${SUMMARY} teachers_fte of the latest school year that has it (CCD staff via ELSI).`,
    meetingMinutesPdfs: `URLs of board meeting minutes (PDF) found by the extraction pipeline. ${UNLOCK_GATED}`,
    strategicPriorities: `Strategic priorities extracted from the district's public documents. ${UNLOCK_GATED}`,
    strategicPrioritiesDataSource: `Where strategicPriorities come from: "demo" when the demo layer invented them (docs/demo-data.md), "extraction" when the extraction pipeline read them from the district's documents, null when the district has none. ${UNLOCK_GATED}`,
    ...ADDRESS(SOURCES.ccdDirectory),
    physicalState: `State of the location (two letters). ${SOURCES.ccdDirectory}`,
    mailingAddress: `Mailing street address. ${SOURCES.ccdDirectory}`,
    mailingCity: `Mailing city. ${SOURCES.ccdDirectory}`,
    mailingState: `Mailing state (two letters). ${SOURCES.ccdDirectory}`,
    mailingZip: `Mailing 5-digit ZIP code. ${SOURCES.ccdDirectory}`,
    phone: `Phone number as published. ${SOURCES.ccdDirectory}`,
    county:
      "County name(s) from the Census school district county list (2021); a district in several counties lists all, joined by '; ' in file order.",
    stateDistrictId: `The state's own id of the district (ST_LEAID). ${SOURCES.ccdDirectory}`,
    districtType: `NCES LEA type text, e.g. 'Regular public school district that is NOT a component of a supervisory union'. ${SOURCES.ccdDirectory}`,
    fedDataYear: "School year (fall year) of the NCES directory the record comes from: 2023 = 2023-24.",
    latitude: "Latitude, WGS84 decimal degrees. No bundled file carries district geocodes (NCES EDGE is not included), so usually null.",
    longitude: "Longitude, WGS84 decimal degrees. Usually null (see latitude).",
    dataSource: "The publisher file that created the record, e.g. nces_ccd_lea_2324; demo for demo-layer records.",
    ...listArgs("schools", "schools", { filter: false, defaultOrder: "name" }),
    ...listArgs("headStartPrograms", "Head Start programs", { defaultOrder: "name" }),
    ...listArgs("contacts", "contacts", { filter: false, defaultOrder: "name" }),
    metricValues: "Values selected by metricQuery, keyed by their `as` name.",
    schools: "A page of the district's schools (default order: name).",
    "schools(limit)": limitArg(200),
    headStartPrograms:
      "A page of the Head Start programs the district runs as recipient (the list's filters, default status active; default order name).",
    "headStartPrograms(limit)": limitArg(200),
    contacts:
      "A page of the district's listed contacts, district and school level (as the districtId filter; deduplicated unless unique: false; default order name).",
    "contacts(limit)": limitArg(200),
    "contacts(unique)": "true (default): the deduplicated view, one row per person across sources (docs/contacts.md).",
    assessmentSummary:
      "The latest assessment summary (highest school year); null when none is loaded. No real assessment file is bundled: the demo layer writes them (sourceId demo-assessment).",
    assessmentGradeRows:
      "The district's assessment results of the latest school year that has any, one per grade, subject and student group (demo layer: sourceId demo-assessment).",
    assessmentStateRows: "The district's state's rows for the school year of its grade rows.",
    specialEducationFinance: `IDEA child counts with F-33 special-education finance, by fiscal year (F-33 FY N = school year N-1); trend history-gated like annualStatistics. ${SOURCES.demo}`,
    ...ENTITY_INTELLIGENCE_FIELDS,
  },
  ...DISTRICT_LIST.dictionary,
  DistrictPage: page("districts", "GET /districts"),
  Query: {
    "districts(filter)": "Which districts to return (DistrictFilter); omitted: all.",
    "districts(orderBy)": "Sort column (default name); nulls last, ties by ascending id.",
    "districts(orderAscending)": "true (default): ascending; false: descending.",
    "districts(offset)": "Records to skip before the page, 0 or more (default 0).",
    district: "One district by our id (GET /districts/{id}); null when none has it.",
    "district(id)": "Our district id (UUID).",
    "districtByFedId(fedId)": "NCES LEAID, 7 digits (leading zeros kept).",
    "districtEvents(id)": "Our district id (UUID).",
    districts: "Search districts. Same filters as GET /api/v1/districts.",
    "districts(limit)": limitArg(200),
    "districts(metricQuery)": METRIC_QUERY,
    districtByFedId: "A district by its NCES id (LEAID, 7 digits); null when no district has it.",
    districtEvents: "A district's timeline events, chronological; null for an unknown district.",
  },
};

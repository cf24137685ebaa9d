/** Field dictionary: schools (School, SchoolFilter, SchoolOrderField, SchoolPage, UpdateSchoolInput, root fields). */
import { limitArg, listArgs, METRIC_QUERY, page, SOURCES } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { SCHOOL_LIST } from "./school.inputs";
import { ENTITY_INTELLIGENCE_FIELDS, PIPELINE_FIELDS } from "../districts/district.dictionary";

const EXPORT = SOURCES.schoolSearch;

export const schoolsDictionary: Dictionary = {
  School: {
    [TYPE]:
      "A US public school: from the NCES CCD School Search export in CA, FL, MI and WA (2023-24, with yearly federal statistics), elsewhere from the national NCES CCD 2019-20 list (ids, name, city, grade span only; fed_data_year 2019); once unlocked, extracted intelligence.",
    ...PIPELINE_FIELDS("school"),
    districtId: "Our id of the parent district (matched by the school's NCES id: its first 7 digits are the district's LEAID).",
    fedId: `NCES school id (NCESSCH): 12 digits, the district's LEAID followed by 5 digits. ${EXPORT}`,
    name: `School name as NCES publishes it. ${EXPORT}`,
    state: `Two-letter state (postal) abbreviation. ${EXPORT}`,
    websiteUrl: "School website; the NCES export carries none, so it is null unless set by an edit.",
    studentCount: `Enrolled students (persons), CCD membership 2022-23. ${EXPORT}`,
    gradeLevels: `Grade span LOW-HIGH in CCD grade codes (PK, KG, 01-13), e.g. KG-05. ${EXPORT}`,
    stateSchoolId: `The state's own id of the school. ${EXPORT}`,
    schoolType: `NCES school type text, e.g. Regular School. ${EXPORT} (2023-24 directory).`,
    localeType: `NCES urban-centric locale of the school. ${EXPORT}`,
    fedDataYear:
      "School year (fall year) of the NCES directory the record comes from: 2023 = 2023-24 (School Search export), 2019 = 2019-20 (national list).",
    teachersFte: `Teachers in full-time equivalents (FTE), CCD staff 2022-23. ${EXPORT}`,
    studentTeacherRatio: `Students per FTE teacher (a ratio), 2022-23, as published. ${EXPORT}`,
    physicalAddress: `Street address. ${EXPORT}`,
    physicalCity: `City. ${EXPORT}`,
    physicalState: `State (two letters). ${EXPORT}`,
    physicalZip: `5-digit ZIP code. ${EXPORT}`,
    mailingAddress: "Mailing street address; the NCES export carries none, so null unless set by an edit.",
    mailingCity: "Mailing city (null unless set by an edit).",
    mailingState: "Mailing state, two letters (null unless set by an edit).",
    mailingZip: "Mailing ZIP code (null unless set by an edit).",
    phone: `Phone number as published. ${EXPORT}`,
    county: `County name. ${EXPORT}`,
    latitude: "Latitude, WGS84 decimal degrees. No bundled file carries school geocodes (NCES EDGE is not included), so usually null.",
    longitude: "Longitude, WGS84 decimal degrees. Usually null (see latitude).",
    source:
      "Name of the source the record comes from: NCES CCD School Search, or NCES CCD school directory 2019-20 via Urban Institute Education Data Portal.",
    sourceUrl: "The NCES School Search page of this school.",
    ...listArgs("contacts", "contacts", { filter: false, defaultOrder: "name" }),
    metricValues: "Values selected by metricQuery, keyed by their `as` name.",
    district: "The parent district (matched by the first 7 digits of the NCES school id); null when none matched.",
    contacts: "A page of the school's listed contacts (deduplicated unless unique: false; default order name).",
    "contacts(limit)": limitArg(200),
    "contacts(unique)": "true (default): the deduplicated view, one row per person across sources (docs/contacts.md).",
    assessmentSummary:
      "The latest assessment summary (highest school year); null when none is loaded. No real assessment file is bundled: the demo layer writes them (sourceId demo-assessment).",
    assessmentGradeRows:
      "The school's assessment results of the latest school year that has any, one per grade, subject and student group (demo layer: sourceId demo-assessment).",
    assessmentStateRows: "The school's state's rows for the school year of its grade rows.",
    parentDistrictSpecialEducationFinance: "The parent district's special-education finance; null when the school has no parent district.",
    ...ENTITY_INTELLIGENCE_FIELDS,
  },
  ...SCHOOL_LIST.dictionary,
  SchoolPage: page("schools", "GET /schools, District.schools"),
  UpdateSchoolInput: {
    [TYPE]:
      "PATCH /schools/{id} body (internal plan only): at least one property; null clears a column, values are trimmed, an empty string is refused.",
    studentCount: "Enrolled students (persons), an integer >= 0.",
    localeType: "NCES urban-centric locale text, as NCES writes it.",
    schoolType: "NCES school type text, e.g. Regular School.",
    phone: "Phone number.",
    county: "County name.",
    physicalAddress: "Street address.",
    physicalCity: "City.",
    mailingAddress: "Mailing street address.",
    mailingCity: "Mailing city.",
    studentTeacherRatio: "Students per FTE teacher, a number >= 0.",
    name: "School name; cannot be cleared (null is refused).",
    websiteUrl: "An http(s) URL.",
    gradeLevels: "A CCD grade span LOW-HIGH, e.g. KG-05, 09-12, PK-08.",
    fedId: "NCES school id (NCESSCH); cannot be cleared (null is refused) and must be unique among schools.",
    physicalState: "Two-letter abbreviation.",
    physicalZip: "ZIP or ZIP+4.",
    mailingState: "Two-letter abbreviation.",
    mailingZip: "ZIP or ZIP+4.",
  },
  Query: {
    "schools(filter)": "Which schools to return (SchoolFilter); omitted: all.",
    "schools(orderBy)": "Sort column (default name); nulls last, ties by ascending id.",
    "schools(orderAscending)": "true (default): ascending; false: descending.",
    "schools(offset)": "Records to skip before the page, 0 or more (default 0).",
    school: "One school by our id (GET /schools/{id}); null when none has it.",
    "school(id)": "Our school id (UUID).",
    "schoolByFedId(fedId)": "NCES school id (NCESSCH), 12 digits.",
    "schoolEvents(id)": "Our school id (UUID).",
    schools: "Search schools. Same filters as GET /api/v1/schools.",
    "schools(limit)": limitArg(200),
    "schools(metricQuery)": METRIC_QUERY,
    schoolByFedId: "A school by its NCES id (NCESSCH, 12 digits); null when no school has it.",
    schoolEvents: "A school's timeline events, chronological; null for an unknown school.",
  },
  Mutation: {
    "updateSchool(id)": "Our school id (UUID).",
    "updateSchool(input)": "The properties to change.",
    updateSchool: "Edit a school's directory fields (internal plan only). PATCH /api/v1/schools/{id}.",
  },
};

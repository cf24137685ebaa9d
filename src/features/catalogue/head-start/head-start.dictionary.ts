/** Field dictionary: Head Start programs (docs/early-childhood.md). */
import { limitArg, listArgs, page, SOURCES, USD } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { HEAD_START_LIST, HEAD_START_STATUS, NO_FUNDED_SLOTS } from "./head-start.inputs";

const PIR_LACKS =
  "The PIR extract loaded here has no addresses, contacts, sites or grant amounts, so it is null unless another source fills it.";

export const headStartDictionary: Dictionary = {
  HeadStartProgram: {
    [TYPE]: `A Head Start / Early Head Start grant (the recipient's program) or a delegate agency's part of one. ${SOURCES.headStart}`,
    id: "Our id of the program (UUID).",
    slug: "Readable unique key: name, state and a short hash.",
    name: "Program name as reported in the PIR (the recipient's name when none).",
    grantNumber: "HHS grant number, e.g. 04CH011174.",
    parentProgramName: "Name of the delegate's grant (recipient) program.",
    recipientName: "Grant recipient (grantee) name.",
    state: "Two-letter state the program serves (PIR service_state).",
    physicalAddress: `Street address. ${PIR_LACKS}`,
    physicalCity: `City. ${PIR_LACKS}`,
    physicalZip: `ZIP code. ${PIR_LACKS}`,
    county: `County. ${PIR_LACKS}`,
    phone: `Phone. ${PIR_LACKS}`,
    websiteUrl: `Website. ${PIR_LACKS}`,
    email: `Email. ${PIR_LACKS}`,
    districtName: "Name of the school district running it, when a district is the recipient.",
    openSiteCount: `Sites currently open (count). ${PIR_LACKS}`,
    siteCount: `Sites (count). ${PIR_LACKS}`,
    grantAmount: `Grant amount, ${USD} ${PIR_LACKS}`,
    grantStart: `Grant start date. ${PIR_LACKS}`,
    grantEnd: `Grant end date. ${PIR_LACKS}`,
    sourceUrl: "The publisher page of the source.",
    sourceVersion: "Which PIR year the record was built from, e.g. 'PIR 2022 (ACF pir_clean_2019_2022)'.",
    createdAt: "When the record was first stored (UTC).",
    updatedAt: "When the record last changed (UTC); updatedSince filters on it.",
    ...listArgs("delegates", "delegate programs", { defaultOrder: "name" }),
    delegateNumber: "PIR program number of a delegate agency (the 001 of 01CH010841-001); null for a grant recipient's program.",
    parentProgramId: "A delegate's grant (recipient) program.",
    districtId: "The school district running it, when a district is the recipient.",
    programTypes: "Any of head_start, early_head_start, migrant_seasonal, aian_head_start, aian_early_head_start.",
    fundedSlots: `Funded seats at open sites (children). ${NO_FUNDED_SLOTS}`,
    status: "active: reported in the latest PIR year (2022); no_open_site: not reported in 2022 (grant ended or re-competed).",
    operatorId: "The operator running it (grant recipients that are not school districts).",
    operator: "The operator running it (not for school-district recipients or delegates).",
    delegates:
      "A page of the delegate agencies running part of this grant (the list's filters, default status active; default order name).",
    "delegates(limit)": limitArg(200),
    district: "The school district running it, when a district is the recipient.",
    parentProgram: "A delegate's grant (recipient) program.",
  },
  ...HEAD_START_LIST.dictionary,
  HeadStartProgramPage: page("Head Start programs", "GET /head-start-programs"),
  HeadStartProgramType: {
    [TYPE]: "Head Start program types (PIR program type).",
    head_start: "Head Start (ages 3-5).",
    early_head_start: "Early Head Start (infants, toddlers, pregnant women).",
    migrant_seasonal: "Migrant and Seasonal Head Start.",
    aian_head_start: "American Indian and Alaska Native Head Start.",
    aian_early_head_start: "American Indian and Alaska Native Early Head Start.",
  },
  HeadStartStatusFilter: {
    [TYPE]: `Which Head Start programs a list returns by status: ${HEAD_START_STATUS}`,
    active: "Reported in the latest PIR year (2022).",
    no_open_site: "Not reported in 2022 (grant ended or re-competed).",
    all: "Every program, active or not.",
  },
  DelegatesFilter: {
    [TYPE]: "include (default): recipients and delegates; exclude: grant recipients only; only: delegate agencies only.",
    include: "Recipients and delegates.",
    exclude: "Grant recipients only.",
    only: "Delegate agencies only.",
  },
  Query: {
    ...listArgs("headStartPrograms", "Head Start programs", { defaultOrder: "name" }),
    headStartProgram: "One Head Start program by our id (GET /head-start-programs/{id}); null when none has it.",
    "headStartProgram(id)": "Our program id (UUID).",
    headStartPrograms: "Search Head Start programs. Same filters as GET /api/v1/head-start-programs.",
    "headStartPrograms(limit)": limitArg(200),
  },
};

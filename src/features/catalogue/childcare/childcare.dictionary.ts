/** Field dictionary: childcare centers (docs/early-childhood.md). */
import { limitArg, listArgs, page, SOURCES } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { CHILDCARE_LIST, CHILDCARE_STATUS } from "./childcare.inputs";

const ROSTER = SOURCES.childcare;
const NO_ROSTER = "Neither bundled roster gives it, so it is null unless another source fills it.";

export const childcareDictionary: Dictionary = {
  ChildcareCenter: {
    [TYPE]: `A licensed childcare center, preschool or school-age program (home-based care is not included). ${ROSTER}`,
    id: "Our id of the center (UUID).",
    slug: "Readable unique key: name, state and a short hash.",
    name: "Center name as licensed.",
    state: "Two-letter state abbreviation.",
    licenseNumber: "The state's license (or facility) number.",
    ...{
      physicalAddress: `Street address. ${ROSTER}`,
      physicalCity: `City. ${ROSTER}`,
      physicalZip: `ZIP code. ${ROSTER}`,
    },
    county: `County name. ${ROSTER}`,
    latitude: `Latitude, WGS84 decimal degrees. ${NO_ROSTER}`,
    longitude: `Longitude, WGS84 decimal degrees. ${NO_ROSTER}`,
    phone: "Phone, when the roster gives it.",
    email: `Email. ${NO_ROSTER}`,
    websiteUrl: `Website. ${NO_ROSTER}`,
    licenseTypeRaw: "The license type as the roster writes it.",
    licenseStatusRaw: "The license status as the roster writes it.",
    firstLicensed: "Date first licensed or approved to operate.",
    licenseExpires: "License end date (Indiana; Nebraska's roster has none).",
    capacity: `Licensed capacity (children). ${ROSTER}`,
    agesServed: "Ages served, as the roster gives them.",
    licenseeName: "The license holder's name (an organization, or a person kept only here).",
    directorName: `The director's name. ${NO_ROSTER}`,
    qualityRating: "State quality rating: Nebraska Step Up to Quality step, Indiana Paths to QUALITY level.",
    acceptsSubsidy: "Accepts childcare subsidy (Nebraska: currently accepts subsidy; Indiana: CCDF eligible).",
    districtOperated: "Run by a school district (the licensee is a district).",
    sourceUrl: "The publisher page of the roster.",
    sourceVersion: "Which roster release the record comes from.",
    createdAt: "When the record was first stored (UTC).",
    updatedAt: "When the record last changed (UTC); updatedSince filters on it.",
    source: "The state roster the center comes from.",
    licenseType: "center, preschool, school_age, infant_toddler or other.",
    licenseStatus: "active or inactive (Nebraska's roster lists active centers only; Indiana: an Open... status is active).",
    capacityByAge: "Licensed capacity per age group, as the roster names them.",
    chain: "Chain key when its licensee holds several licenses; null for an independent center.",
    operatorId: "The operator running it, when its licensee is one.",
    districtId: "The school district running it, when matched.",
    people: "People named for the center (GET /childcare-centers/{id} serves them).",
    operator: "The operator running it, when its licensee is one.",
  },
  ChildcareLicenseType: {
    [TYPE]: "Normalized license types (licenseTypeRaw keeps the roster's own).",
    center: "Childcare center.",
    preschool: "Preschool.",
    school_age: "School-age program.",
    infant_toddler: "Center serving only ages under 3.",
    other: "Any other type.",
  },
  ...CHILDCARE_LIST.dictionary,
  ChildcareCenterPage: page("childcare centers", "GET /childcare-centers"),
  ChildcarePerson: {
    [TYPE]: "A person named for a childcare center (director, owner, staff).",
    id: "Our id of the person (UUID).",
    name: "The person's name (demo people are fictional).",
    title: "Job title.",
    role: "Role at the center, e.g. director, owner, staff.",
  },
  ChildcareStatusFilter: {
    [TYPE]: `Which childcare centers a list returns by license status: ${CHILDCARE_STATUS}`,
    active: "License status active (Nebraska: every roster center; Indiana: an Open... status).",
    inactive: "Any other license status (licenseStatusRaw keeps the roster's own).",
    all: "Every center, active or not.",
  },
  Query: {
    ...listArgs("childcareCenters", "childcare centers", { defaultOrder: "name" }),
    childcareCenter: "One childcare center by our id (GET /childcare-centers/{id}); null when none has it.",
    "childcareCenter(id)": "Our center id (UUID).",
    childcareCenters: "Search childcare centers. Same filters as GET /api/v1/childcare-centers.",
    "childcareCenters(limit)": limitArg(200),
  },
};

/** Field dictionary: operators of early-childhood programs (docs/early-childhood.md). */
import { limitArg, listArgs, page, SOURCES, USD } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { OPERATOR_LIST } from "./operator.inputs";

const NOT_IN_BMF = "No bundled file fills it (null unless another source writes it).";
/** Operator money: a Form 990 return on file wins over the IRS master file (docs/early-childhood.md, "990 figures"). */
const FORM_990 =
  "From the operator's latest current Form 990 return, else the IRS EO BMF REVENUE_AMT (Apr 2026 file) of the tax year ending fiscalYearEnd; no bundled file loads Form 990 returns, so today it is the BMF figure. May be negative.";

export const operatorsDictionary: Dictionary = {
  Operator: {
    [TYPE]: `An organization that runs childcare centers or Head Start programs and is not a school district (chains from the licensing rosters, Head Start recipients, IRS childcare charities). ${SOURCES.irs}`,
    id: "Our id of the operator (UUID).",
    slug: "Readable unique key: name-state-<8 hex of the identity>.",
    name: "Organization name.",
    uei: `Unique Entity ID (SAM.gov). ${NOT_IN_BMF}`,
    nteeCode: `NTEE activity code from the IRS EO BMF, e.g. P33 (child day care), B21 (preschools). ${SOURCES.irs}`,
    physicalAddress: `Street address, when a source gives it (the IRS EO BMF STREET for organizations it matched). ${SOURCES.irs}`,
    physicalCity: "City, when a source gives it (the IRS EO BMF CITY).",
    state: "Two-letter state of the organization.",
    physicalZip: "5-digit ZIP code, when a source gives it (the IRS EO BMF ZIP).",
    websiteUrl: `Website. ${NOT_IN_BMF}`,
    websiteDomain: `Website domain. ${NOT_IN_BMF}`,
    brandFaviconUrl: `Favicon URL of the website. ${NOT_IN_BMF}`,
    brandHeroUrl: `Hero image URL of the website. ${NOT_IN_BMF}`,
    brandColor: `Brand color of the website. ${NOT_IN_BMF}`,
    createdAt: "When the record was first stored (UTC).",
    updatedAt: "When the record last changed (UTC); updatedSince filters on it.",
    ...listArgs("headStartPrograms", "Head Start programs", { defaultOrder: "name" }),
    ...listArgs("childcareCenters", "childcare centers", { defaultOrder: "name" }),
    kind: "nonprofit, company, government, tribe, church or other.",
    ein: `IRS employer identification number, 9 digits (no dash); null when no IRS record matched. ${SOURCES.irs}`,
    chainKey: "Chain key shared by its childcare centers (childcare_centers.chain).",
    centerCount: "Active childcare centers it runs (in the filtered states when `state` is given).",
    centerSeats: "Summed licensed capacity (children) of those centers (null when none reports a capacity).",
    headStartCount: "Head Start programs with an open site it runs (in the filtered states when `state` is given).",
    headStartSlots: "Summed funded slots (children) of those programs (null when none reports slots; the PIR extract has none).",
    programStates: "States where it runs active centers or open Head Start programs (all states).",
    totalRevenue: `Total revenue, ${USD} ${FORM_990}`,
    governmentGrants: `Government grants (contributions) received, ${USD} From the latest current Form 990 return; null without one (the IRS EO BMF has no grants figure and no bundled file loads returns).`,
    fiscalYearEnd:
      "Last day of the fiscal year of totalRevenue, YYYY-MM-DD: the tax period of the latest Form 990 return, else of the IRS EO BMF record.",
    latest990Form: "Form of the latest Form 990 return: 990, 990EZ or 990PF; null without a return on file.",
    latest990ObjectId: "IRS e-file object id of the latest Form 990 return; null without a return on file.",
    contractorMatches:
      "Contractors the latest Form 990 return reports paying over $100,000, largest first; empty without a return on file.",
    contractorPaid: "With a `contractor` filter: the matching contractors' names as filed (several joined by '; '); otherwise null.",
    headStartPrograms:
      "A page of the Head Start programs the operator runs, with those of operators merged into it (the list's filters, default status active: unfiltered, the total is its headStartCount; default order name).",
    "headStartPrograms(limit)": limitArg(200),
    childcareCenters:
      "A page of the childcare centers the operator runs, with those of operators merged into it (the list's filters, default status active: unfiltered, the total is its centerCount; default order name).",
    "childcareCenters(limit)": limitArg(200),
  },
  ...OPERATOR_LIST.dictionary,
  OperatorPage: page("operators", "GET /operators"),
  ContractorMatch: {
    [TYPE]: "A contractor the operator's latest Form 990 reports paying over $100,000 (Schedule/Part VII section B).",
    name: "The contractor's name as filed.",
    amount: `Compensation reported for the contractor, ${USD}`,
    services: "Services described on the return.",
    lineKey: "Where on the return the line sits (e-file line key), as filed.",
    fiscalYearEnd: "Fiscal year end of the return, YYYY-MM-DD.",
  },
  ContractorMode: {
    [TYPE]: "Which of an operator's Form 990 returns the contractor filter reads: any current return, or only the latest.",
    any: "Any current return of the operator.",
    latest: "Only the latest return.",
  },
  Query: {
    ...listArgs("operators", "operators", { defaultOrder: "name" }),
    "operator(id)": "Our operator id (UUID); a merged id returns the operator it became.",
    operators: "Search operators. Same filters as GET /api/v1/operators.",
    "operators(limit)": limitArg(10_000),
    operator: "One operator; a merged id returns the operator it became.",
  },
};

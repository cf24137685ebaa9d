/** Field dictionary: extracted intelligence (unlock-gated lists) and timeline events. */
import { SOURCES, USD } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

const EXTRACTED = SOURCES.extraction;
/** The five lists of extracted intelligence are gated as a whole (contract section 4). */
const GATED_LIST = "Served only in a district's or school's list that is null until the caller's organization unlocks it (6 credits).";

/** The label every item of the five lists carries (issue 25 point 3, docs/demo-data.md). */
const ITEM_DATA_SOURCE =
  'Where the item comes from: "demo" for a demo row (invented by the demo layer for a demo-completed record), "extraction" when the extraction pipeline found it.';

export const intelligenceDictionary: Dictionary = {
  Bid: {
    [TYPE]: `A bid (RFP) the district or school posted, extracted from its website (demo titles start 'Demo RFP:'). ${GATED_LIST}`,
    dataSource: ITEM_DATA_SOURCE,
    id: "Our id of the bid (UUID).",
    title: `Title of the bid or RFP as posted. ${EXTRACTED}`,
    postedOn: "Date the bid was posted (YYYY-MM-DD).",
    deadlineAt: "Submission deadline (UTC; parsed in the entity's state's time zone).",
    url: "Where the bid is posted.",
    status: "open while still taking bids (status open, deadline not passed), else closed.",
    filing: "The caller's organization's filing of this bid; null when not filed.",
  },
  BidFiling: {
    [TYPE]: "How the caller's organization filed a bid (PUT /bids/{id}/filing).",
    reasonCode: "Why it was marked not useful (BidFilingReasonCode values; with not_useful only), when given.",
    reasonNote: "Free-text note of a not_useful filing, when given.",
    filedAt: "When the organization filed the bid (UTC).",
    action: "save, set_aside, not_useful.",
  },
  BidStatus: {
    [TYPE]: "open: still taking bids (deadline not passed); closed: any other.",
    open: "Still taking bids: status open and the deadline not passed.",
    closed: "Any other bid.",
  },
  Contract: {
    [TYPE]: `A contract of the district or school with a vendor, extracted from its public documents. ${GATED_LIST}`,
    dataSource: ITEM_DATA_SOURCE,
    id: "Our id of the contract (UUID).",
    vendorId: "Our id of the vendor, when known.",
    vendorName: "The vendor's name.",
    category: "Vendor category of the contract (VendorCategory values).",
    amount: `Contract value, ${USD}`,
    startsOn: "Contract start date (YYYY-MM-DD).",
    expiresOn: "Contract expiry date, YYYY-MM-DD (hasExpiringContracts: from today to 6 months ahead).",
  },
  Funding: {
    [TYPE]: `A funding source the district or school receives, extracted from its public documents. ${GATED_LIST}`,
    dataSource: ITEM_DATA_SOURCE,
    id: "Our id of the funding row (UUID).",
    amount: `Amount, ${USD}`,
    fiscalYear: "Fiscal year the funding applies to, as extracted.",
    description: "What the funding is for, as extracted.",
    source: "esser, erate, title_i, bond, grant, state, other.",
  },
  FundingSource: {
    [TYPE]: "Funding sources of extracted funding rows.",
    esser: "Elementary and Secondary School Emergency Relief (ESSER).",
    erate: "E-Rate (Schools and Libraries Program).",
    title_i: "Title I.",
    bond: "A bond measure.",
    grant: "A grant.",
    state: "State funding.",
    other: "Any other source.",
  },
  PainPoint: {
    [TYPE]: `A problem the district or school has, extracted from its public documents. ${GATED_LIST}`,
    dataSource: ITEM_DATA_SOURCE,
    id: "Our id of the pain point (UUID).",
    description: `The problem, as extracted from public documents. ${EXTRACTED}`,
    sourceUrl: "The document it was found in.",
    detectedAt: "When it was extracted (UTC).",
    category: "staffing, budget, infrastructure, security, integration, compliance, enrollment, other.",
  },
  PainPointCategory: {
    [TYPE]: "Categories of extracted pain points.",
    staffing: "Staffing (hiring, retention, shortages).",
    budget: "Budget pressure.",
    infrastructure: "Buildings, networks and equipment.",
    security: "Safety and security.",
    integration: "Systems that do not work together.",
    compliance: "Regulatory compliance.",
    enrollment: "Enrollment changes.",
    other: "Anything else.",
  },
  Vendor: {
    [TYPE]: `A vendor whose product the district or school uses, extracted from its public documents. ${GATED_LIST}`,
    dataSource: ITEM_DATA_SOURCE,
    id: "Our id of the vendor (UUID).",
    name: "Vendor name (demo vendors use sample names such as Contoso).",
    category: "sis, lms, assessment, communication, hr, finance, security, sso, devices, other.",
  },
  VendorCategory: {
    [TYPE]: "Product categories of vendors.",
    sis: "Student information system.",
    lms: "Learning management system.",
    assessment: "Assessment.",
    communication: "Family and staff communication.",
    hr: "Human resources.",
    finance: "Finance and business office.",
    security: "Safety and security.",
    sso: "Single sign-on and identity.",
    devices: "Devices and hardware.",
    other: "Anything else.",
  },
  TimelineEvent: {
    [TYPE]: `A dated event in a district's or school's timeline (board meeting, press release ...). Public, but an event restating gated intelligence (eventType board_meeting, rfp_posted, contract_award, grant_award, budget_adopted, leadership_change) is served in a public form until the caller's organization unlocks the district or school: a generic title, description and sourceUrl null. ${EXTRACTED}`,
    id: "Our id of the event (UUID).",
    entityId: "Our id of the district or school.",
    eventDate: "Date of the event.",
    title: `Title of the event; for a gated event type of a locked entity, the type's generic title (e.g. 'Contract award recorded'). ${EXTRACTED}`,
    description: "What happened, when known; null for a gated event type of a locked entity.",
    sourceUrl: "Where the event was found; null for a gated event type of a locked entity.",
    createdAt: "When the event was stored (UTC).",
    entityType: "district or school.",
    eventType: "board_meeting, press_release, news, rfp_posted, budget_adopted, leadership_change, contract_award, grant_award.",
  },
};

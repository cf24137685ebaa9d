/** Field dictionary: extracted intelligence (unlock-gated lists) and timeline events. */
import { SOURCES, USD } from "./common";
import { TYPE, type Dictionary } from "./dictionary";

const EXTRACTED = SOURCES.extraction;

export const intelligenceDictionary: Dictionary = {
  Bid: {
    id: "Our id of the bid (UUID).",
    title: `Title of the bid or RFP as posted. ${EXTRACTED}`,
    postedOn: "Date the bid was posted.",
    deadlineAt: "Submission deadline (UTC; parsed in the entity's state's time zone).",
    url: "Where the bid is posted.",
  },
  BidFiling: {
    reasonCode: "Why it was set aside or marked not useful (a code), when given.",
    reasonNote: "Free-text note of the filing.",
    filedAt: "When the organization filed the bid (UTC).",
  },
  BidStatus: {
    open: "Still taking bids: status open and the deadline not passed.",
    closed: "Any other bid.",
  },
  Contract: {
    id: "Our id of the contract (UUID).",
    vendorId: "Our id of the vendor, when known.",
    vendorName: "The vendor's name.",
    category: "Vendor category of the contract (VendorCategory values).",
    amount: `Contract value, ${USD}`,
    startsOn: "Start date.",
    expiresOn: "Expiry date (hasExpiringContracts: within 6 months).",
  },
  Funding: {
    id: "Our id of the funding row (UUID).",
    amount: `Amount, ${USD}`,
    fiscalYear: "Fiscal year of the funding.",
    description: "What the funding is for, as extracted.",
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
    id: "Our id of the pain point (UUID).",
    description: `The problem, as extracted from public documents. ${EXTRACTED}`,
    sourceUrl: "The document it was found in.",
    detectedAt: "When it was extracted (UTC).",
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
    id: "Our id of the vendor (UUID).",
    name: "Vendor name (demo vendors use sample names such as Contoso).",
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
    id: "Our id of the event (UUID).",
    entityId: "Our id of the district or school.",
    eventDate: "Date of the event.",
    title: `Title of the event. ${EXTRACTED}`,
    description: "What happened, when known.",
    sourceUrl: "Where the event was found.",
    createdAt: "When the event was stored (UTC).",
  },
};

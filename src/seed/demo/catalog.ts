/**
 * Fixed vocabularies of the demo layer: the contract's value lists, invented people and fictional
 * companies, and prose templates that always say they are demo content.
 */

import { DEMO_DATA_SOURCE, DEMO_SUMMARY_PREFIX } from "../../features/kits/common/data-source";

export const DEMO_SOURCE = DEMO_DATA_SOURCE;
export const DEMO_HOST = "https://demo.example.org";
export const DEMO_EMAIL_DOMAIN = "demo.example.org";

/** Markers the seeder writes into district/school columns it does not own, so it can find and undo them. */
export { DEMO_SUMMARY_PREFIX };
export const DEMO_ERROR_PREFIX = "Demo: ";

/** States the demo subset prefers, in this order (the largest districts of each come first). */
export const PREFERRED_STATES = ["NE", "CA", "FL", "MI", "WA", "TN", "IN"] as const;

// ---------------------------------------------------------------- contract value lists (section 4 and 9)

export const VENDOR_CATEGORIES = [
  "sis",
  "lms",
  "assessment",
  "communication",
  "hr",
  "finance",
  "security",
  "sso",
  "devices",
  "other",
] as const;
export type VendorCategory = (typeof VENDOR_CATEGORIES)[number];

export const PAIN_POINT_CATEGORIES = [
  "staffing",
  "budget",
  "infrastructure",
  "security",
  "integration",
  "compliance",
  "enrollment",
  "other",
] as const;
export type PainPointCategory = (typeof PAIN_POINT_CATEGORIES)[number];

export const FUNDING_SOURCES = ["esser", "erate", "title_i", "bond", "grant", "state", "other"] as const;
export type FundingSource = (typeof FUNDING_SOURCES)[number];

export const EVENT_TYPES = [
  "board_meeting",
  "press_release",
  "news",
  "rfp_posted",
  "budget_adopted",
  "leadership_change",
  "contract_award",
  "grant_award",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

// The signal types and buying intents of the news feature (contract section 9), one list for the demo and the service.
import { BUYING_INTENTS, SIGNAL_TYPES, type BuyingIntent, type SignalType } from "../../features/research/news/analysis/types";

export { BUYING_INTENTS, SIGNAL_TYPES, type BuyingIntent, type SignalType };

export const ENRICHMENT_STATUSES = ["pending", "processing", "completed", "error"] as const;
export const EMAIL_STATUSES = ["pending", "sent", "failed"] as const;
export const CRM_SYNC_STATUSES = ["pending", "synced", "failed"] as const;

export const ASSOCIATION_KINDS = [
  "state_athletic_association",
  "state_activities_association",
  "superintendents_association",
  "school_boards_association",
  "principals_association",
  "other",
] as const;
export type AssociationKind = (typeof ASSOCIATION_KINDS)[number];

// ---------------------------------------------------------------- invented people

/** Ordinary first names paired with invented surnames: no real person has these full names. */
export const FIRST_NAMES = [
  "Avery",
  "Briar",
  "Caspian",
  "Delphine",
  "Ellery",
  "Fenna",
  "Gideon",
  "Harlow",
  "Isolde",
  "Jasper",
  "Kestrel",
  "Linnea",
  "Marisol",
  "Nico",
  "Orla",
  "Percival",
  "Quinn",
  "Rowan",
  "Sable",
  "Tamsin",
] as const;

export const LAST_NAMES = [
  "Quillfeather",
  "Brambleworth",
  "Thistledown",
  "Marrowby",
  "Wrenhallow",
  "Larkmere",
  "Fernhollow",
  "Dapplewood",
  "Corvantis",
  "Pellingrove",
  "Sablethorn",
  "Mistlebrook",
  "Tindlewick",
  "Ravensmere",
  "Gildercrest",
  "Amberlocke",
  "Brindlemoor",
  "Cobblestow",
  "Duskwater",
  "Foxglade",
] as const;

export const DISTRICT_CONTACT_TITLES = [
  "Superintendent",
  "Director of Technology",
  "Chief Financial Officer",
  "Director of Curriculum and Instruction",
  "Director of Special Education",
  "Chief Human Resources Officer",
  "Assistant Superintendent",
] as const;

export const SCHOOL_CONTACT_TITLES = ["Principal", "Assistant Principal", "Instructional Technology Coach", "School Counselor"] as const;

// ---------------------------------------------------------------- fictional vendors (Microsoft-style sample company names)

export const DEMO_VENDORS: readonly { name: string; category: VendorCategory }[] = [
  { name: "Contoso Student Records", category: "sis" },
  { name: "Northwind SIS Cloud", category: "sis" },
  { name: "Fabrikam Learning Hub", category: "lms" },
  { name: "Tailspin Classroom", category: "lms" },
  { name: "Adventure Works Assessment Suite", category: "assessment" },
  { name: "Wide World Benchmarks", category: "assessment" },
  { name: "Litware Family Messenger", category: "communication" },
  { name: "Consolidated Messenger for Schools", category: "communication" },
  { name: "Lamna Staffing Cloud", category: "hr" },
  { name: "Proseware HR", category: "hr" },
  { name: "Woodgrove School Finance", category: "finance" },
  { name: "Trey Research Budgeting", category: "finance" },
  { name: "Alpine Secure Campus", category: "security" },
  { name: "Coho Threat Watch", category: "security" },
  { name: "Relecloud Identity", category: "sso" },
  { name: "A. Datum Single Sign-On", category: "sso" },
  { name: "VanArsdel Device Fleet", category: "devices" },
  { name: "Wingtip Chromebook Services", category: "devices" },
  { name: "Blue Yonder Transportation Routing", category: "other" },
  { name: "Lucerne Library Services", category: "other" },
];

// ---------------------------------------------------------------- prose templates (all of it says "demo")

export const STRATEGIC_PRIORITIES = [
  "Raise early literacy proficiency by grade 3",
  "Reduce chronic absenteeism",
  "Modernize the student information system",
  "Expand career and technical education pathways",
  "Strengthen cybersecurity and data privacy",
  "Recruit and retain certified teachers",
  "Close the post-ESSER budget gap",
  "Upgrade aging facilities and HVAC systems",
  "Expand mental health and counseling supports",
  "Refresh the 1:1 student device program",
  "Improve family communication and engagement",
  "Grow dual-enrollment and advanced coursework",
] as const;

export const PAIN_POINT_TEXT: Record<PainPointCategory, readonly string[]> = {
  staffing: ["Persistent vacancies in special education and bus driver positions.", "High turnover among first-year teachers."],
  budget: ["Structural deficit expected as one-time federal relief funds end.", "Rising health-benefit costs squeeze the general fund."],
  infrastructure: ["Aging network switches and Wi-Fi in older buildings.", "Deferred maintenance backlog on roofs and HVAC."],
  security: ["Phishing attempts against staff accounts increased this year.", "Building access control is inconsistent across campuses."],
  integration: [
    "Student data is re-keyed between the SIS and the LMS by hand.",
    "Rostering between assessment and SIS tools breaks each term.",
  ],
  compliance: ["State reporting deadlines strain a small data team.", "Accessibility review of digital materials is behind schedule."],
  enrollment: ["Enrollment has declined for three consecutive years.", "Rapid growth in the east attendance zone crowds two schools."],
  other: ["Transportation routes run long after boundary changes.", "Library collections are dated and under-circulated."],
};

export const FUNDING_TEXT: Record<FundingSource, { text: string; min: number; max: number }> = {
  esser: { text: "Federal relief allocation directed to learning recovery.", min: 250_000, max: 6_000_000 },
  erate: { text: "E-rate discount for network equipment and internet access.", min: 40_000, max: 900_000 },
  title_i: { text: "Title I, Part A allocation for schoolwide programs.", min: 150_000, max: 4_000_000 },
  bond: { text: "Voter-approved bond for facility renovation and safety upgrades.", min: 5_000_000, max: 120_000_000 },
  grant: { text: "Competitive grant for STEM and computer science expansion.", min: 50_000, max: 1_500_000 },
  state: { text: "State categorical aid for literacy and school safety.", min: 100_000, max: 3_000_000 },
  other: { text: "Local education foundation gift for classroom technology.", min: 10_000, max: 250_000 },
};

export const BID_TITLES: Record<VendorCategory, string> = {
  sis: "Student information system replacement",
  lms: "Learning management system platform",
  assessment: "K-8 interim assessment platform",
  communication: "Mass notification and family messaging service",
  hr: "Applicant tracking and HR management system",
  finance: "ERP and financial management software",
  security: "Managed detection and response services",
  sso: "Single sign-on and identity management",
  devices: "Student Chromebooks and device management",
  other: "Student transportation routing software",
};

export const EVENT_TEXT: Record<EventType, { title: string; description: string }> = {
  board_meeting: { title: "Regular board meeting", description: "The board reviewed the monthly finance report and technology plan." },
  press_release: { title: "District press release", description: "The district announced a new family engagement initiative." },
  news: { title: "Local news coverage", description: "Local coverage of enrollment trends and school staffing." },
  rfp_posted: { title: "Request for proposals posted", description: "A request for proposals for software services was posted." },
  budget_adopted: { title: "Budget adopted", description: "The board adopted the annual operating budget." },
  leadership_change: { title: "Leadership change", description: "A new cabinet-level administrator was appointed." },
  contract_award: { title: "Contract awarded", description: "The board approved a multi-year software contract." },
  grant_award: { title: "Grant awarded", description: "The district received a competitive state grant." },
};

export interface SignalTemplate {
  headline: string;
  summary: string;
  intent: BuyingIntent;
  reason: string;
}

export const SIGNAL_TEXT: Record<SignalType, SignalTemplate> = {
  chronic_absenteeism: {
    headline: "chronic absenteeism climbs above 20 percent",
    summary: "Chronic absenteeism rose and leaders are looking at attendance-tracking tools.",
    intent: "medium",
    reason: "Leaders named attendance interventions as a funded priority.",
  },
  staffing_shortage: {
    headline: "faces teacher and paraprofessional shortages",
    summary: "Open teaching positions remain unfilled mid-year.",
    intent: "medium",
    reason: "Staffing gaps often lead to recruiting and substitute-management purchases.",
  },
  budget_deficit: {
    headline: "projects a budget deficit for next year",
    summary: "The finance office projects a deficit and is reviewing contracts.",
    intent: "low",
    reason: "Cost pressure may delay new purchases but opens consolidation deals.",
  },
  budget_surplus: {
    headline: "closes the year with a surplus",
    summary: "A year-end surplus gives room for one-time investments.",
    intent: "medium",
    reason: "One-time funds are often spent on technology and facilities.",
  },
  technology_initiative: {
    headline: "launches a district-wide technology initiative",
    summary: "A new technology plan calls for platform consolidation.",
    intent: "high",
    reason: "The plan names software categories to be procured this year.",
  },
  curriculum_adoption: {
    headline: "begins a K-8 math curriculum adoption",
    summary: "A curriculum adoption committee is reviewing materials.",
    intent: "high",
    reason: "Adoption cycles come with purchasing timelines.",
  },
  facility_bond: {
    headline: "voters consider a facilities bond",
    summary: "A bond measure would fund renovations and security upgrades.",
    intent: "medium",
    reason: "Bond proceeds fund construction, security and network work.",
  },
  safety_incident: {
    headline: "reviews campus safety after an incident",
    summary: "An incident prompted a review of building access and communication.",
    intent: "medium",
    reason: "Safety reviews often lead to access-control and notification purchases.",
  },
  leadership_change: {
    headline: "names a new superintendent",
    summary: "A new superintendent takes office and starts an entry plan.",
    intent: "low",
    reason: "New leaders often revisit vendor relationships in their first year.",
  },
  enrollment_change: {
    headline: "sees enrollment shift across attendance zones",
    summary: "Enrollment changes are driving boundary and staffing decisions.",
    intent: "low",
    reason: "Enrollment shifts affect staffing and transportation planning.",
  },
  grant_award: {
    headline: "wins a state innovation grant",
    summary: "A new grant funds computer science and STEM programs.",
    intent: "high",
    reason: "Grant funds must be spent within the grant period.",
  },
  rfp_released: {
    headline: "releases a request for proposals",
    summary: "A request for proposals was released with a short response window.",
    intent: "high",
    reason: "An open procurement with a deadline.",
  },
  noise: {
    headline: "students celebrate homecoming week",
    summary: "A community feature with no purchasing relevance.",
    intent: "none",
    reason: "No purchasing relevance.",
  },
};

export const STATE_NAMES: Record<string, string> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
  PR: "Puerto Rico",
  GU: "Guam",
  VI: "U.S. Virgin Islands",
  AS: "American Samoa",
  MP: "Northern Mariana Islands",
};

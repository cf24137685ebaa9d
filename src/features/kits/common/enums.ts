/**
 * Value lists of the contract, as GraphQL enums. Their value names are exactly the REST strings
 * (lower snake case), so the REST adapter passes query strings through unchanged.
 */
import { registerEnumType } from "type-graphql";

export enum LocaleBucket {
  city = "city",
  suburban = "suburban",
  town = "town",
  rural = "rural",
}
/** The first digit of the NCES locale code of each bucket. */
export const LOCALE_CODE_PREFIX: Readonly<Record<LocaleBucket, string>> = { city: "1", suburban: "2", town: "3", rural: "4" };

export enum GradeLevel {
  pre_k = "pre_k",
  elementary = "elementary",
  middle = "middle",
  high = "high",
}
export enum PipelineStatus {
  pending = "pending",
  processing = "processing",
  completed = "completed",
  error = "error",
}
export enum VendorCategory {
  sis = "sis",
  lms = "lms",
  assessment = "assessment",
  communication = "communication",
  hr = "hr",
  finance = "finance",
  security = "security",
  sso = "sso",
  devices = "devices",
  other = "other",
}
export enum PainPointCategory {
  staffing = "staffing",
  budget = "budget",
  infrastructure = "infrastructure",
  security = "security",
  integration = "integration",
  compliance = "compliance",
  enrollment = "enrollment",
  other = "other",
}
export enum FundingSource {
  esser = "esser",
  erate = "erate",
  title_i = "title_i",
  bond = "bond",
  grant = "grant",
  state = "state",
  other = "other",
}
export enum BidStatus {
  open = "open",
  closed = "closed",
}

// Each registered under its TypeScript name.
for (const [name, values] of Object.entries({
  LocaleBucket,
  GradeLevel,
  PipelineStatus,
  VendorCategory,
  PainPointCategory,
  FundingSource,
  BidStatus,
})) {
  registerEnumType(values, { name });
}

/** Signal types (contract section 9): what a news signal is about; `noise` is stored but never listed. */
export const SIGNAL_TYPES = [
  "chronic_absenteeism",
  "staffing_shortage",
  "budget_deficit",
  "budget_surplus",
  "technology_initiative",
  "curriculum_adoption",
  "facility_bond",
  "safety_incident",
  "leadership_change",
  "enrollment_change",
  "grant_award",
  "rfp_released",
  "noise",
] as const;

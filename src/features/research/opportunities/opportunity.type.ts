/**
 * Opportunities (spec "Opportunity record", "Opportunity verification"; contract sections 6 and 7). Descriptions
 * live in the field dictionary (opportunity.dictionary.ts).
 */
import { ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

export enum VerificationStatus {
  unverified = "unverified",
  confirmed = "confirmed",
  unreachable = "unreachable",
  verifying = "verifying",
}
registerEnumType(VerificationStatus, { name: "VerificationStatus" });

export enum WindowStatusValue {
  unknown = "unknown",
  open = "open",
  closing = "closing",
  durable = "durable",
  closed = "closed",
}
registerEnumType(WindowStatusValue, { name: "WindowStatus" });

/** One check of one source in the last verification run. */
@ObjectType()
export class SourceCheck {
  @Col("string", { required: true }) url: string;
  @Col("datetime", { required: true }) checked_at: Timestamp;
  @Col("string", { required: true }) status: string;
  @Col("string") note: string | null;
}

/** A contact named on an opportunity: the entity's listed contact, email only where the organization unlocked it. */
@ObjectType()
export class OpportunityContact {
  @Col("uuid", { required: true }) contact_id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") title: string | null;
  @Col("string") email: string | null;
  @Col("string") email_status: string | null;
  @Col("string") source: string | null;
}

@ObjectType()
export class Opportunity {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid", { required: true }) project_id: string;
  @Col("string", { required: true }) entity_type: string;
  @Col("uuid") district_id: string | null;
  @Col("uuid") school_id: string | null;
  @Col("string") geo_scope: string | null;
  @Col("string", { required: true }) title: string;
  @Col("string") signal_type: string | null;
  @Col("date") event_date: string | null;
  @Col("string") event_date_basis: string | null;
  @Col("string") why_now: string | null;
  @Col("string") suggested_action: string | null;
  @Col("string") caveats: string | null;
  @Col("float") confidence: number | null;
  @Col("strings", { required: true }) source_urls: string[];
  @Col("strings", { required: true }) signal_ids: string[];
  @Col(() => [OpportunityContact], { required: true }) contacts?: OpportunityContact[];
  @Col("strings", { required: true }) suggested_prompts: string[];
  @Col("bool", { required: true }) supplementary: boolean;
  @Col(() => VerificationStatus, { required: true }) verification_status: VerificationStatus;
  @Col(() => WindowStatusValue, { required: true }) window_status: WindowStatusValue;
  @Col("datetime") last_verified_at: Timestamp | null;
  @Col("string") verification_note: string | null;
  @Col("date") window_ends_on: string | null;
  @Col(() => [SourceCheck], { required: true }) source_checks?: SourceCheck[];
  @Col("string", { required: true }) data_source: string;
  @Col("datetime", { required: true }) created_at: Timestamp;
  @Col("datetime", { required: true }) updated_at: Timestamp;
}

export const OpportunityPage = Page(Opportunity, "OpportunityPage");

/** GET /opportunities/{id}/verification. */
@ObjectType()
export class OpportunityVerification {
  @Col(() => VerificationStatus, { required: true }) verification_status: VerificationStatus;
  @Col(() => WindowStatusValue, { required: true }) window_status: WindowStatusValue;
  @Col("datetime") last_verified_at: Timestamp | null;
  @Col("string") verification_note: string | null;
  @Col(() => [SourceCheck], { required: true }) source_checks: SourceCheck[];
}

/** POST /opportunities/{id}/refresh (202). */
@ObjectType()
export class RefreshOutcome {
  @Col(() => VerificationStatus, { required: true }) verification_status: VerificationStatus;
  @Col("bool", { required: true }) started: boolean;
}

/**
 * Extracted intelligence (contract section 4): five lists on districts and schools, revealed only to
 * organizations that unlocked the entity. Category-like values are plain strings (documented value
 * lists in the descriptions) so one unexpected extracted value cannot fail a whole page.
 */
import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../graphql/fields";
import { BidStatus } from "../common/enums";

@ObjectType({ description: "A problem the entity has, extracted from its public documents." })
export class PainPoint {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true, description: "staffing, budget, infrastructure, security, integration, compliance, enrollment, other." })
  category: string;
  @Col("string", { required: true }) description: string;
  @Col("string") source_url: string | null;
  @Col("datetime") detected_at: Timestamp | null;
}

@ObjectType({ description: "A vendor whose product the entity uses." })
export class Vendor {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true, description: "sis, lms, assessment, communication, hr, finance, security, sso, devices, other." })
  category: string;
}

@ObjectType({ description: "A funding source the entity receives." })
export class Funding {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true, description: "esser, erate, title_i, bond, grant, state, other." }) source: string;
  @Col("float") amount: number | null;
  @Col("int") fiscal_year: number | null;
  @Col("string") description: string | null;
}

@ObjectType({ description: "A contract of the entity with a vendor." })
export class Contract {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid") vendor_id: string | null;
  @Col("string") vendor_name: string | null;
  @Col("string") category: string | null;
  @Col("float") amount: number | null;
  @Col("date") starts_on: string | null;
  @Col("date") expires_on: string | null;
}

@ObjectType({ description: "How the caller's organization filed a bid (PUT /bids/{id}/filing)." })
export class BidFiling {
  @Col("string", { required: true, description: "save, set_aside, not_useful." }) action: string;
  @Col("string") reason_code: string | null;
  @Col("string") reason_note: string | null;
  @Col("datetime", { required: true }) filed_at: Timestamp;
}

@ObjectType({ description: "A bid (RFP) the entity posted." })
export class Bid {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) title: string;
  @Field(() => BidStatus, { description: "open while still taking bids (status open, deadline not passed), else closed." })
  status: BidStatus;
  @Col("date") posted_on: string | null;
  @Col("datetime") deadline_at: Timestamp | null;
  @Col("string") url: string | null;
  @Field(() => BidFiling, { nullable: true, description: "The caller's organization's filing of this bid; null when not filed." })
  filing: BidFiling | null;
}

/**
 * Extracted intelligence (contract section 4): five lists on districts and schools, revealed only to
 * organizations that unlocked the entity. Category-like values are plain strings (documented value
 * lists in the descriptions) so one unexpected extracted value cannot fail a whole page.
 */
import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { BidStatus } from "../../kits/common/enums";

@ObjectType()
export class PainPoint {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true })
  category: string;
  @Col("string", { required: true }) description: string;
  @Col("string") source_url: string | null;
  @Col("datetime") detected_at: Timestamp | null;
}

@ObjectType()
export class Vendor {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true })
  category: string;
}

@ObjectType()
export class Funding {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true }) source: string;
  @Col("float") amount: number | null;
  @Col("int") fiscal_year: number | null;
  @Col("string") description: string | null;
}

@ObjectType()
export class Contract {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) data_source: string;
  @Col("uuid") vendor_id: string | null;
  @Col("string") vendor_name: string | null;
  @Col("string") category: string | null;
  @Col("float") amount: number | null;
  @Col("date") starts_on: string | null;
  @Col("date") expires_on: string | null;
}

@ObjectType()
export class BidFiling {
  @Col("string", { required: true }) action: string;
  @Col("string") reason_code: string | null;
  @Col("string") reason_note: string | null;
  @Col("datetime", { required: true }) filed_at: Timestamp;
}

@ObjectType()
export class Bid {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) data_source: string;
  @Col("string", { required: true }) title: string;
  @Field(() => BidStatus)
  status: BidStatus;
  @Col("date") posted_on: string | null;
  @Col("datetime") deadline_at: Timestamp | null;
  @Col("string") url: string | null;
  @Field(() => BidFiling, { nullable: true })
  filing: BidFiling | null;
}

import { ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

export enum BidFilingAction {
  save = "save",
  set_aside = "set_aside",
  not_useful = "not_useful",
}
registerEnumType(BidFilingAction, { name: "BidFilingAction" });

/** Why a bid is not useful (reason_code, with action not_useful only; docs/outreach.md). */
export enum BidFilingReasonCode {
  not_relevant = "not_relevant",
  wrong_region = "wrong_region",
  too_small = "too_small",
  too_large = "too_large",
  already_served = "already_served",
  deadline_too_soon = "deadline_too_soon",
  other = "other",
}
registerEnumType(BidFilingReasonCode, { name: "BidFilingReasonCode" });

/** The answer of PUT /bids/{id}/filing: the caller's organization's filing of the bid. */
@ObjectType()
export class FiledBid {
  @Col("uuid", { required: true }) bid_id: string;
  @Col(() => BidFilingAction, { required: true }) action: BidFilingAction;
  @Col(() => BidFilingReasonCode) reason_code: BidFilingReasonCode | null;
  @Col("string") reason_note: string | null;
  @Col("datetime", { required: true }) filed_at: Timestamp;
}

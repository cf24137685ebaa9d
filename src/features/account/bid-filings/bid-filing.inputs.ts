import { Field, InputType } from "type-graphql";
import { BidFilingAction, BidFilingReasonCode } from "./bid-filing.type";

/** reason_note's length limit (characters). */
export const REASON_NOTE_MAX = 1000;

/** PUT /bids/{id}/filing body: action required; reason_code and reason_note only with not_useful. */
@InputType()
export class BidFilingInput {
  @Field(() => BidFilingAction) action: BidFilingAction;
  @Field(() => BidFilingReasonCode, { nullable: true }) reasonCode?: BidFilingReasonCode | null;
  @Field(() => String, { nullable: true }) reasonNote?: string | null;
}

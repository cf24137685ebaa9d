/** Bid filings (docs/outreach.md). Rules, authorization and the transaction live in bid-filing.service.ts. */
import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { BidFilingInput } from "./bid-filing.inputs";
import { fileBid } from "./bid-filing.service";
import { FiledBid } from "./bid-filing.type";

@Resolver(() => FiledBid)
export class BidFilingResolver {
  @Mutation(() => FiledBid)
  fileBid(
    @Arg("bidId", () => UUIDScalar) bidId: string,
    @Arg("input", () => BidFilingInput) input: BidFilingInput,
    @Ctx() ctx: Context,
  ): Promise<FiledBid> {
    return fileBid(ctx.db, ctx.viewer, bidId, input);
  }
}

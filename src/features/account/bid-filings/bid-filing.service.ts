/**
 * Bid filings (PUT /bids/{id}/filing; contract sections 4 and 7; docs/outreach.md): an organization files a bid
 * it can see as save, set_aside or not_useful, with a reason (reason_code, reason_note) only when not_useful.
 * One filing per (organization, bid): filing again replaces it (an identical filing changes nothing, filed_at
 * included). Shown as bids[].filing of the bid's district or school to that organization only
 * (src/features/research/intelligence/intelligence.blocks.ts).
 *
 * Bids are gated: a bid whose district or school the organization has not unlocked (the access feature's rule,
 * hasUnlocked) is not found, exactly like an unknown bid id, so a filing never reveals that a gated bid exists.
 */
import type { Db } from "../../../db/client";
import { MONEY_TX } from "../../../db/transaction";
import { advisoryXactLock } from "../../../db/locks";
import { BadRequestError, NotFoundError } from "../../../graphql/errors";
import { hasUnlocked } from "../access/access.service";
import type { Viewer } from "../auth/viewer";
import { REASON_NOTE_MAX, type BidFilingInput } from "./bid-filing.inputs";
import { BidFilingAction, type BidFilingReasonCode, type FiledBid } from "./bid-filing.type";

/** The body's rules beyond its types (400 naming the property). */
function checkInput(input: BidFilingInput): { reasonCode: string | null; reasonNote: string | null } {
  const reasonCode = input.reasonCode ?? null;
  const reasonNote = input.reasonNote ?? null;
  if (input.action !== BidFilingAction.not_useful) {
    const given = [reasonCode !== null && "reason_code", reasonNote !== null && "reason_note"].filter(Boolean);
    if (given.length)
      throw new BadRequestError(
        `${given.join(" and ")} ${given.length > 1 ? "are" : "is"} accepted only with action not_useful; got action ${input.action}`,
      );
  }
  if (reasonNote !== null) {
    if (reasonNote.includes("\u0000")) throw new BadRequestError("reason_note must not contain NUL characters");
    if ([...reasonNote].length > REASON_NOTE_MAX)
      throw new BadRequestError(`reason_note must be at most ${REASON_NOTE_MAX} characters; got ${[...reasonNote].length}`);
  }
  return { reasonCode, reasonNote: reasonNote === null || reasonNote.trim() === "" ? null : reasonNote.trim() };
}

const present = (
  bidId: string,
  row: { action: string; reason_code: string | null; reason_note: string | null; filed_at: Date },
): FiledBid => ({
  bid_id: bidId,
  action: row.action as BidFilingAction,
  reason_code: row.reason_code as BidFilingReasonCode | null,
  reason_note: row.reason_note,
  filed_at: row.filed_at,
});

/** PUT /bids/{id}/filing: the organization's filing of the bid, written or replaced (rules: module comment). */
export async function fileBid(db: Db, viewer: Viewer, bidId: string, input: BidFilingInput): Promise<FiledBid> {
  const { reasonCode, reasonNote } = checkInput(input);
  const org = viewer.organizationId;
  return db.prisma.$transaction(async (tx) => {
    const bid = await tx.bid.findUnique({ where: { id: bidId }, select: { district_id: true, school_id: true } });
    // The bid's own record: its school when it has one, else its district (the bids block's owner).
    const owner = bid?.school_id
      ? { type: "school", id: bid.school_id }
      : bid?.district_id
        ? { type: "district", id: bid.district_id }
        : null;
    if (!owner || !(await hasUnlocked(tx, org, owner.type, owner.id))) throw new NotFoundError(`bid ${bidId}`);

    await advisoryXactLock(tx, `bid-filing:${org}:${bidId}`); // concurrent filings of one bid: one row, the last wins
    const key = { organization_id_bid_id: { organization_id: org, bid_id: bidId } };
    const select = { action: true, reason_code: true, reason_note: true, filed_at: true } as const;
    const existing = await tx.bidFiling.findUnique({ where: key, select });
    if (existing && existing.action === input.action && existing.reason_code === reasonCode && existing.reason_note === reasonNote)
      return present(bidId, existing); // the same filing again: nothing changes
    const data = { action: input.action, reason_code: reasonCode, reason_note: reasonNote, filed_at: new Date() };
    const row = await tx.bidFiling.upsert({ where: key, create: { organization_id: org, bid_id: bidId, ...data }, update: data, select });
    return present(bidId, row);
  }, MONEY_TX);
}

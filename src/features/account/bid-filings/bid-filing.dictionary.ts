/** Field dictionary: bid filings (PUT /bids/{id}/filing; docs/outreach.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { REASON_NOTE_MAX } from "./bid-filing.inputs";

export const bidFilingsDictionary: Dictionary = {
  BidFilingAction: {
    [TYPE]: "How an organization files a bid.",
    save: "Keep it: the organization is considering the bid.",
    set_aside: "Put it aside for now.",
    not_useful: "Not useful to the organization; may say why (reason_code, reason_note).",
  },
  BidFilingReasonCode: {
    [TYPE]: "Why a bid is not useful (with action not_useful only).",
    not_relevant: "Not what the organization sells.",
    wrong_region: "Outside the organization's territory.",
    too_small: "Too small to pursue.",
    too_large: "Too large for the organization to deliver.",
    already_served: "The buyer is already a customer, or served by a partner.",
    deadline_too_soon: "Not enough time before the deadline to respond.",
    other: "Another reason (reason_note may say which).",
  },
  FiledBid: {
    [TYPE]:
      "The caller's organization's filing of a bid (PUT /bids/{id}/filing), as bids[].filing of its district or school shows it to that organization only.",
    bidId: "Our id of the bid (UUID).",
    action: "save, set_aside or not_useful.",
    reasonCode: "Why the bid is not useful (not_useful only); null when not given.",
    reasonNote: `Free-text note (not_useful only, at most ${REASON_NOTE_MAX} characters); null when not given.`,
    filedAt: "When the organization filed the bid this way (UTC); filing it again the same way keeps it.",
  },
  BidFilingInput: {
    [TYPE]:
      "PUT /bids/{id}/filing body. Filing again replaces the organization's filing of the bid; reason_code and reason_note are accepted only with action not_useful (400 otherwise).",
    action: "save, set_aside or not_useful (required).",
    reasonCode: "With not_useful only: not_relevant, wrong_region, too_small, too_large, already_served, deadline_too_soon or other.",
    reasonNote: `With not_useful only: a note, at most ${REASON_NOTE_MAX} characters (blank is none).`,
  },
  Mutation: {
    fileBid:
      "Files a bid for the caller's organization (PUT /api/v1/bids/{id}/filing): save, set_aside or not_useful; replaces an earlier filing. A bid of a district or school the organization has not unlocked is not found.",
    "fileBid(bidId)": "Our id of the bid (bids[].id of an unlocked district or school).",
    "fileBid(input)": "The action and, with not_useful, the reason.",
  },
};

/** Field dictionary: the caller's organization, its credits and follow slots. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const organizationsDictionary: Dictionary = {
  Organization: {
    [TYPE]: "The caller's organization (GET /org).",
    id: "Our id of the organization (UUID).",
    name: "Organization name.",
    credits: "Credit balance, holds and what is available to spend.",
    followSlots: "Follow slots used and the plan's limit.",
    plan: "free, pro, enterprise or internal.",
    entitlements: "Module names, e.g. signals.",
  },
  Credits: {
    [TYPE]: "Credits of an organization (contract section 5): available = balance - held.",
    balance: "Credits owned, open holds included.",
    held: "Credits reserved by open holds (pending unlocks).",
    available: "Credits that can be spent now.",
  },
  FollowSlots: {
    [TYPE]:
      "Follow slots: entities the organization follows or unfollowed with the slot not yet released (one slot each, however many of its projects follow it) and its plan's limit.",
    used: "Entities the organization follows, plus unfollowed ones whose slot_released_at is still ahead (one slot each, however many of its projects follow it).",
    limit: "null: unlimited (paid plans); FREE_FOLLOW_SLOTS on the free plan.",
  },
  Query: {
    organization: "The caller's organization: plan, entitlements, credits and follow slots (GET /org).",
  },
};

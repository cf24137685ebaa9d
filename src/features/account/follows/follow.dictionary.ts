/** Field dictionary: follows of the caller's projects. */
import { limitArg, listArgs, orderEnum, page } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const followsDictionary: Dictionary = {
  Follow: {
    [TYPE]: "A project's follow of a district or school (POST /follows). Unfollowed: unfollowed_at set.",
    id: "Our id of the follow (UUID).",
    projectId: "The project that follows.",
    entityType: "What is followed: district or school.",
    entityId: "Our id of the followed district or school.",
    followedAt: "When the follow started (UTC).",
    unfollowedAt: "When it was unfollowed (UTC); null while active.",
    createdAt: "When the follow record was created (UTC).",
    slotReleasedAt:
      "When its follow slot is given back (set by unfollowing): the later of the unfollow and followedAt + FOLLOW_SLOT_MIN_DAYS (default 30); until then the slot stays used and a free plan keeps the entity's history.",
  },
  FollowEntityType: {
    [TYPE]: "What a project follows.",
    district: "A district.",
    school: "A school.",
  },
  FollowFilter: {
    [TYPE]: "Filters of a project's follows (GET /projects/{id}/follows).",
    entityType: "Only follows of districts or of schools.",
    includeUnfollowed: "Also list unfollowed follows (default false: only active ones).",
  },
  FollowInput: {
    [TYPE]: "POST /follows body.",
    entityType: "What to follow: district or school.",
    entityId: "Our id of the district or school.",
    projectId: "A project of the caller's organization.",
  },
  FollowOrderField: orderEnum("follows", {
    followed_at: "When the follow started (default).",
    created_at: "When the follow record was created.",
  }),
  FollowOutcome: {
    [TYPE]: "The answer of POST /follows: the follow, and whether this call created it (false: already followed).",
    created: "true when this call created the follow; false when the project already followed the entity.",
    follow: "The follow.",
  },
  FollowPage: page("follows", "GET /projects/{id}/follows"),
  Query: {
    ...listArgs("projectFollows", "follows", { defaultOrder: "followed_at" }),
    "projectFollows(projectId)": "A project of the caller's organization.",
    projectFollows: "A project's follows, active ones unless includeUnfollowed (GET /api/v1/projects/{id}/follows).",
    "projectFollows(limit)": limitArg(200),
  },
  Mutation: {
    "follow(input)": "The project and the entity to follow.",
    "unfollow(id)": "Our id of the follow.",
    follow: "A project follows a district or school (POST /api/v1/follows); free plans within FREE_FOLLOW_SLOTS, else FOLLOW_LIMIT.",
    unfollow:
      "Unfollows: unfollowed_at now, slot_released_at the later of now and followed_at + FOLLOW_SLOT_MIN_DAYS (default 30); the slot stays used until then (DELETE /api/v1/follows/{id}).",
  },
};

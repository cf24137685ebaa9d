/** Field dictionary: the caller's organization, lists, projects, follows, unlocks and the metric catalogue. */
import { listArgs, orderEnum, page } from "./common";
import { TYPE, type Dictionary } from "./dictionary";

export const workspaceDictionary: Dictionary = {
  Organization: {
    id: "Our id of the organization (UUID).",
    name: "Organization name.",
    credits: "Credit balance, holds and what is available to spend.",
    followSlots: "Follow slots used and the plan's limit.",
  },
  FollowSlots: {
    used: "Entities the organization follows (one slot each, however many of its projects follow it).",
  },
  List: {
    id: "Our id of the list (UUID).",
    name: "List name (1 to 200 characters).",
    entityType: "What the list holds: district, school or contact.",
    createdAt: "When the list was created (UTC).",
  },
  ListEntityType: {
    district: "Districts.",
    school: "Schools.",
    contact: "Contacts.",
  },
  CreateListInput: {
    [TYPE]: "POST /lists body.",
    entityType: "What the list will hold; fixed once created.",
  },
  AddListItemsInput: { [TYPE]: "POST /lists/{id}/items body." },
  CreateProjectInput: { [TYPE]: "POST /projects body." },
  Project: {
    id: "Our id of the project (UUID).",
    name: "Project name (1 to 200 characters).",
    createdAt: "When the project was created (UTC).",
  },
  Follow: {
    id: "Our id of the follow (UUID).",
    projectId: "The project that follows.",
    entityType: "What is followed: district or school.",
    entityId: "Our id of the followed district or school.",
    followedAt: "When the follow started (UTC).",
    unfollowedAt: "When it was unfollowed (UTC); null while active.",
    createdAt: "When the follow record was created (UTC).",
  },
  FollowEntityType: {
    district: "A district.",
    school: "A school.",
  },
  FollowFilter: {
    [TYPE]: "Filters of a project's follows (GET /projects/{id}/follows).",
    entityType: "Only follows of districts or of schools.",
  },
  FollowInput: {
    [TYPE]: "POST /follows body.",
    entityType: "What to follow: district or school.",
    entityId: "Our id of the district or school.",
  },
  FollowOrderField: orderEnum("follows", {
    followed_at: "When the follow started (default).",
    created_at: "When the follow record was created.",
  }),
  FollowOutcome: {
    created: "true when this call created the follow; false when the project already followed the entity.",
    follow: "The follow.",
  },
  FollowPage: page("follows", "GET /projects/{id}/follows"),
  MetricEntityType: {
    district: "Districts (district_annual_stats and assessments).",
    school: "Schools (school_annual_stats and assessments).",
  },
  UnlockChannel: {
    dashboard: "The web dashboard.",
    mcp: "The MCP server (AI assistants' tools).",
    api: "The REST or GraphQL API.",
  },
  UnlockEntityType: {
    district: "A district (6 credits).",
    school: "A school (6 credits).",
    contact: "A contact (2 credits; its parent must be unlocked first).",
  },
  UnlockEntityInput: {
    entityType: "What to unlock.",
    entityId: "Our id of the district, school or contact.",
  },
  UnlockInput: {
    entityType: "Single unlock: what to unlock (with entityId).",
    entityId: "Single unlock: our id of the entity (with entityType).",
    channel: "Where the unlock was requested, recorded with the unlock (null when not given).",
  },
  UnlockBatchItem: {
    statusCode: "The HTTP status this item would have had as a single unlock.",
    result: "The item's outcome; null when it failed.",
    error: "The item's error; null when it succeeded.",
  },
  UnlockItemError: {
    error: "Error code as in the error body, e.g. insufficient_credits, PARENT_ENTITY_LOCKED, not_found.",
    message: "What went wrong.",
    balance: "Available credits (insufficient_credits).",
    required: "Credits the unlock needs (insufficient_credits).",
    parentEntityType: "The locked parent's type, district or school (PARENT_ENTITY_LOCKED).",
    parentEntityId: "The locked parent's id (PARENT_ENTITY_LOCKED).",
    unlockCost: "Credits unlocking the parent costs (PARENT_ENTITY_LOCKED).",
  },
  UnlockPayload: {
    result: "A single unlock's outcome (null for a batch).",
    results: "A batch's outcomes, in input order (null for a single unlock).",
  },
  UnlockResult: {
    entityType: "district, school or contact.",
    entityId: "Our id of the entity.",
    unlocked: "true when the entity is unlocked now (gated fields readable).",
    alreadyUnlocked: "true when the organization had already unlocked it (nothing charged).",
    creditsCharged: "Credits charged by this call.",
    creditsHeld: "Credits held for a pending unlock (charged when it completes, released if it fails).",
    holdId: "Our id of the credit hold of a pending unlock.",
    operationKey: "The Idempotency-Key, or a generated key, shared by every item of one request.",
    jobId: "Id of the job that completes a pending unlock.",
    message: "A human-readable summary of the outcome.",
  },
  UnlockStatus: {
    entityType: "district, school or contact.",
    entityId: "Our id of the entity.",
    jobId: "Id of the unlock job, when one ran or runs.",
    holdId: "Our id of the credit hold, when any.",
    startedAt: "When the unlock job started (UTC).",
    finishedAt: "When it finished (UTC).",
    error: "Why the unlock failed, when state is failed.",
  },
  Query: {
    "metrics(entityType)": "district or school.",
    ...listArgs("projectFollows", "follows", { defaultOrder: "followed_at" }),
    "projectFollows(projectId)": "A project of the caller's organization.",
    "unlockStatus(entityType)": "district, school or contact.",
    "unlockStatus(entityId)": "Our id of the entity.",
  },
  Mutation: {
    "createProject(input)": "The project's name and ideal-customer profile.",
    "createList(input)": "The list's name and entity type.",
    "addListItems(listId)": "A list of the caller's organization.",
    "addListItems(input)": "The ids to add.",
    "removeListItem(listId)": "A list of the caller's organization.",
    "removeListItem(entityId)": "The id to remove.",
    "follow(input)": "The project and the entity to follow.",
    "unfollow(id)": "Our id of the follow.",
    "unlock(input)": "A single unlock or a batch.",
  },
};

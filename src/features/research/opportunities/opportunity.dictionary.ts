/** Field dictionary: opportunities, their verification and windows (docs/opportunities.md). */
import { limitArg, listArgs, page } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { OPPORTUNITY_LIST, OPPORTUNITY_MAX_LIMIT } from "./opportunity.inputs";
import { CLOSING_DAYS } from "./opportunity.window";

const CHECK_STATUS =
  "ok (reachable and still saying it), changed (reachable, the claim is gone), gone (HTTP 404 or 410), unreachable (no answer, timeout, other HTTP error, robots.txt, refused address).";

export const opportunitiesDictionary: Dictionary = {
  VerificationStatus: {
    [TYPE]: "The verdict of the last verification run (spec Opportunity verification state table).",
    unverified: "Written by the agent and never re-checked (last_verified_at null).",
    confirmed: "The last run found the claim still standing at a source.",
    unreachable: "The last run could not settle the claim (sources gone, changed or not answering): unconfirmed.",
    verifying: "A run is in flight (POST /opportunities/{id}/refresh); poll the verdict.",
  },
  WindowStatus: {
    [TYPE]: "How long acting on it makes sense, decided from dates and today, independently of the verdict.",
    unknown: "No date to decide from.",
    open: `The window ends in more than ${CLOSING_DAYS} days.`,
    closing: `The window ends within ${CLOSING_DAYS} days.`,
    durable: "Nothing expires (a standing staffing gap, a trend in federal data).",
    closed: "The window ended: if confirmed, the claim is true and the opportunity is dead.",
  },
  SourceCheck: {
    [TYPE]: "One source's check in the last verification run.",
    url: "The source URL checked (a catalogue reason: the source of its figures, re-read from the ingested files).",
    checkedAt: "When it was checked (UTC).",
    status: CHECK_STATUS,
    note: "What was found, in words.",
  },
  OpportunityContact: {
    [TYPE]: "A listed contact of the opportunity's district or school.",
    contactId: "Our id of the contact (GET /contacts/{id}).",
    name: "The contact's name.",
    title: "The contact's job title.",
    email: "Gated: null unless the caller's organization unlocked the contact (2 credits).",
    emailStatus: "The contact's email status.",
    source: "Where the contact was found.",
  },
  Opportunity: {
    [TYPE]:
      "A sales opportunity the agent wrote for a project: what to do, for whom, by when, and whether it still stands. Written once (unverified, last_verified_at null), never re-checked on its own.",
    id: "Our id of the opportunity (UUID).",
    projectId: "The project of the caller's organization it was written for.",
    entityType: "district or school.",
    districtId: "The district (of a school's opportunity: the school's district).",
    schoolId: "The school; null for a district's opportunity.",
    geoScope: "Where it is: the entity's city and state.",
    title: "What it is, in a line.",
    signalType: "The signal's type (GET /signals); null for a supplementary prospect.",
    eventDate: "The date of the event behind it (YYYY-MM-DD).",
    eventDateBasis:
      "Where eventDate comes from: signal_date, article_published_at, bid_posted_on, unlocked_at, federal_school_year (fall of the latest year counted), federal_fiscal_year.",
    whyNow: "Why act now: the signal's summary and source, or the catalogue's figures behind a prospect.",
    suggestedAction: "What to do about it.",
    caveats: "What to bear in mind: match confidence, assumed windows, lagging federal data, demo sources.",
    confidence:
      "The agent's confidence, 0 to 1: extraction confidence x entity match confidence x buying intent (high 1, medium 0.85, low 0.7, none 0.5); fixed per reason for prospects.",
    sourceUrls: "The sources of the claim (the article; the bid; the federal files behind a prospect's figures).",
    signalIds: "The signals it was written from (GET /news/{id} of their article); empty for a prospect.",
    contacts: "Up to 3 listed contacts of the entity (district-level first); email only where unlocked.",
    suggestedPrompts: "Questions to ask next (a brief, the MCP tools).",
    supplementary:
      "false: written from a signal; true: fallback prospecting against the ideal customer profile (no signal matched the project).",
    verificationStatus: "unverified, verifying, confirmed or unreachable (see VerificationStatus).",
    windowStatus: "unknown, open, closing, durable or closed, as of today (see WindowStatus).",
    lastVerifiedAt: "When the last verification run ended (UTC); null when never re-checked.",
    verificationNote: "The last run's verdict in words.",
    windowEndsOn:
      "When the window ends (YYYY-MM-DD): a date the source names, else the usual span of the signal type; null when durable or unknown.",
    sourceChecks: "The last verification run's check of each source.",
    dataSource: "agent; demo when written from a demo signal (not a real event).",
    createdAt: "When the agent wrote it (UTC).",
    updatedAt: "When it last changed (a verification run) (UTC).",
  },
  OpportunityVerification: {
    [TYPE]: "GET /opportunities/{id}/verification: the stored verdict, the window as of today and the last run's checks.",
    verificationStatus: "unverified, verifying, confirmed or unreachable.",
    windowStatus: "unknown, open, closing, durable or closed, as of today.",
    lastVerifiedAt: "When the last run ended (UTC); null when never re-checked.",
    verificationNote: "The last run's verdict in words.",
    sourceChecks: "The last run's check of each source.",
  },
  RefreshOutcome: {
    [TYPE]: "The answer of POST /opportunities/{id}/refresh (202).",
    verificationStatus: "verifying: poll GET /opportunities/{id}/verification.",
    started: "true when this request started a run; false when one was already in flight (no second run).",
  },
  ...OPPORTUNITY_LIST.dictionary,
  OpportunityPage: page("opportunities", "GET /opportunities"),
  Project: {
    opportunities: "The project's opportunities (as GET /opportunities?project_id=).",
    ...listArgs("opportunities", "opportunities", { defaultOrder: "created_at" }),
    "opportunities(limit)": limitArg(OPPORTUNITY_MAX_LIMIT),
  },
  Query: {
    opportunities: "Opportunities of the caller's organization's projects (GET /api/v1/opportunities).",
    ...listArgs("opportunities", "opportunities", { defaultOrder: "created_at" }),
    "opportunities(limit)": limitArg(OPPORTUNITY_MAX_LIMIT),
    opportunity: "One opportunity of the caller's organization (GET /api/v1/opportunities/{id}); null otherwise.",
    "opportunity(id)": "Our id of the opportunity (UUID).",
    opportunityVerification: "The verdict of one opportunity (GET /api/v1/opportunities/{id}/verification); not_found otherwise.",
    "opportunityVerification(id)": "Our id of the opportunity (UUID).",
  },
  Mutation: {
    refreshOpportunity: "Re-checks an opportunity at its sources (POST /api/v1/opportunities/{id}/refresh).",
    "refreshOpportunity(id)": "Our id of the opportunity (UUID).",
  },
};

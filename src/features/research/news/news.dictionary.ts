/** Field dictionary: the signals feed (docs/signals.md, "Reading the feed"). */
import { limitArg, page } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { FEED_LIST } from "./news.inputs";

const FEED_ARGS = (field: string): Record<string, string> => ({
  [`${field}(filter)`]: "Which articles to list; every given condition must hold (omitted: every article with a signal other than noise).",
  [`${field}(limit)`]: limitArg(200),
  [`${field}(offset)`]: "Articles to skip before the page, 0 or more (default 0).",
});

/** The feed's filter type and its fields (its order enum is not part of the schema: the feed has one order). */
const { SignalFeedFilter } = FEED_LIST.dictionary;

export const newsDictionary: Dictionary = {
  SignalFeedFilter,
  FeedSignalType: {
    [TYPE]: "Signal types a feed filter may name (contract section 9); noise, a signal of nothing a vendor cares about, is never listed.",
    chronic_absenteeism: "Chronic absenteeism: attendance problems reported.",
    staffing_shortage: "Staffing shortage: unfilled teacher or staff positions.",
    budget_deficit: "Budget deficit: a shortfall, cuts or layoffs.",
    budget_surplus: "Budget surplus: money beyond the budget.",
    technology_initiative: "Technology initiative: devices, software or infrastructure programs.",
    curriculum_adoption: "Curriculum adoption: new instructional materials chosen.",
    facility_bond: "Facility bond: a bond or levy for buildings, proposed or passed.",
    safety_incident: "Safety incident: a threat, violence or emergency.",
    leadership_change: "Leadership change: a superintendent, principal or board change.",
    enrollment_change: "Enrollment change: students gained or lost.",
    grant_award: "Grant award: a grant received.",
    rfp_released: "RFP released: a request for proposals or bid opened.",
  },
  FeedBuyingIntent: {
    [TYPE]: "Buying intents a feed filter may name.",
    low: "Low: a possible need, no purchase in view.",
    medium: "Medium: a need with money or a decision in view.",
    high: "High: a purchase under way (RFP, bond passed, grant awarded for a purchase).",
  },
  NewsArticle: {
    [TYPE]:
      "A news article with its signals (the spec's signals feed article). Demo articles (dataSource demo) are invented by the demo layer and labelled in their title.",
    id: "Our id of the article (UUID); GET /api/v1/news/{id}.",
    url: "The article's canonical URL (articles are deduplicated by it).",
    title: "Headline.",
    domain: "Host of the URL (the outlet).",
    author: "Byline, when the source gives one.",
    description: "The source's summary or lead of the article.",
    publishedAt: "When the article was published (UTC); the feed's order, newest first (null: unknown, listed last).",
    ingestedAt: "When the article was stored here (UTC): the since cursor of a nightly sync compares with it.",
    dataSource:
      "Where the article comes from: feed (a news feed), cli (a feed given once), extraction (a district's own site), demo (invented).",
    signals: "Its signals other than noise, high buying intent first, then medium, low and none, then by id.",
  },
  Signal: {
    [TYPE]:
      "A finding of an article a vendor cares about (the spec's signal item): its type, buying intent, date, evidence and the district or school it is about.",
    id: "Our id of the signal (UUID); opportunities name their signals by it (signalIds).",
    signalType:
      "What happened (contract section 9): chronic_absenteeism, staffing_shortage, budget_deficit, budget_surplus, technology_initiative, curriculum_adoption, facility_bond, safety_incident, leadership_change, enrollment_change, grant_award, rfp_released.",
    buyingIntent: "How near a purchase it reads: none, low, medium or high.",
    buyingIntentReason: "Why the buying intent was rated so.",
    summary: "What the signal says, in one or two sentences.",
    signalDate: "When the event happened or happens (YYYY-MM-DD); may differ from the article's date.",
    signalDateConfidence: "Confidence in signalDate, 0 to 1 (read from the text, or inferred from the publication date).",
    extractionConfidence: "Confidence that the article says this, 0 to 1.",
    evidence: "The sentences the signal rests on, with their offsets in the article's text (free-form JSON).",
    payload: "Values parsed from the text: amounts, counts, dates, vendor names (free-form JSON).",
    entityType: "What the signal is about: district, school, or null when unresolved.",
    entityResolutionStatus: "resolved (district or school set), ambiguous (several candidates, none chosen) or unresolved (no candidate).",
    entityMatchConfidence: "Confidence of the match to the district or school, 0 to 1.",
    entityMatchReason: "Why the article was matched to the district or school (or why not).",
    district: "The district it is about (a school's district for a school signal); null when not resolved to one.",
    school: "The school it is about; null for a district-level or unresolved signal.",
    dataSource: "Who derived it: demo (invented by the demo layer) or the extraction's provider.",
  },
  SignalDistrict: {
    [TYPE]: "The district a signal is about (GET /api/v1/districts/{id} has the record).",
    id: "Our id of the district (UUID).",
    name: "District name.",
    state: "Two-letter state abbreviation.",
    fedId: "NCES LEAID (7 digits).",
  },
  SignalSchool: {
    [TYPE]: "The school a signal is about (GET /api/v1/schools/{id} has the record).",
    id: "Our id of the school (UUID).",
    name: "School name.",
    state: "Two-letter state abbreviation.",
  },
  FeedPagination: {
    [TYPE]: "Paging of the signals feed: the list pagination, with totalExact because the count stops at 10,000 articles.",
    total: "How many articles match over all pages, at most 10,000 (totalExact false when more match).",
    limit: "The page size used (the limit argument or its default).",
    offset: "Articles skipped before this page.",
    hasMore: "true when articles follow this page.",
    totalExact: "false when more than 10,000 articles match and total is that cap; true when total is the exact count.",
  },
  NewsArticlePage: page("news articles with their signals", "GET /signals, GET /news"),
  Query: {
    signals:
      "The catalog-wide signals feed (GET /api/v1/signals): articles with at least one signal other than noise matching the filter, newest first. Needs the signals module (entitlement_required otherwise).",
    ...FEED_ARGS("signals"),
    news: "The signals feed within the districts and schools the caller's organization follows (active follows) or has unlocked (GET /api/v1/news); no module needed.",
    ...FEED_ARGS("news"),
    newsArticle:
      "One article with every signal but noise (GET /api/v1/news/{id}); null when no signal of it is about a district or school the organization follows or has unlocked.",
    "newsArticle(id)": "Our id of the article (UUID).",
  },
  District: {
    signals:
      "The signals feed within this district: articles with a signal other than noise about it (school signals included), newest first. With the signals module, every article; without, only when the organization follows or unlocked the district (or the school a signal is about).",
    ...FEED_ARGS("signals"),
  },
  School: {
    signals:
      "The signals feed within this school: articles with a signal other than noise about it, newest first. With the signals module, every article; without, only when the organization follows or unlocked the school or its district.",
    ...FEED_ARGS("signals"),
  },
};

/** Field dictionary: semantic search (docs/semantic-search.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const semanticSearchDictionary: Dictionary = {
  SemanticSearchEntityType: {
    [TYPE]: "What a semantic search returns.",
    district: "School districts.",
    school: "Schools.",
    contact: "Contacts at districts and schools (listed contacts only, as on GET /contacts).",
  },
  SemanticSearchInput: {
    [TYPE]: "POST /semantic-search body.",
    query: "What to find, in plain words: at least 2 characters, at most 1000. A state named in it narrows the search like `state`.",
    entityType: "What to return: district, school or contact.",
    state: "Two-letter state abbreviation.",
    districtId: "Schools or contacts of this district (our id, UUID); not for districts.",
    schoolId: "Contacts of this school (our id, UUID); contacts only.",
    limit: "Results to return, 1 to 500 (default 50).",
  },
  SemanticSearchCoverage: {
    [TYPE]: "How much of the searched records (after the filters) have vectors of the active embedding model.",
    embedded: "Records with a vector of their profile.",
    total: "Records the search covers.",
  },
  SemanticSearchResult: {
    [TYPE]:
      "A semantic search's results, best first: records served exactly as the catalogue serves them (gated fields null unless unlocked).",
    entityType: "The entity type searched: the one of districts, schools and contacts that is not null.",
    districts: "The districts found, best first (entityType district); REST answers them as `data`.",
    schools: "The schools found, best first (entityType school); REST answers them as `data`.",
    contacts: "The contacts found, best first (entityType contact); REST answers them as `data`.",
    relevance: "Record id -> relevance from 0 to 1 (1 for the best record): its fused rank score relative to the best.",
    matches:
      "Record id -> the passages that matched, best first, at most 3: { content, source_type, url, source_id }. source_type is " +
      "profile, timeline_event, article, or (unlocked records only) pain_point, bid, funding.",
    coverage: "How far the background embedding has come for these records.",
    _accessSummary: "Access counts over the results: unlocked, locked processed or unprocessed, and what unlocking the locked ones costs.",
  },
  Mutation: {
    semanticSearch:
      "Natural-language search over districts, schools or contacts (POST /semantic-search): 1 credit per search, charged only when it answers.",
    "semanticSearch(input)": "The query, the entity type, filters and limit.",
  },
};

/**
 * What things cost in credits: the one place these numbers live (contract section 4). Unlocks and semantic
 * search are priced; a new price (a brief) goes here beside them, and its feature reads it from here.
 * Query cost (src/graphql/limits.ts) is a different unit: rate-limit tokens, never credits.
 */

/** Credits an unlock costs, per gated entity kind (`_access.unlock_cost`, the unlock's charge or hold). */
export const UNLOCK_COST = { district: 6, school: 6, contact: 2 } as const;

/** Credits one semantic search costs (POST /semantic-search, spec "Limits": 1 per search). */
export const SEMANTIC_SEARCH_COST = 1;

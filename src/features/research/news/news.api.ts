import type { Feature } from "../../../graphql/feature";

/** The read side of the feed: resolvers, loaders, dictionary, REST endpoints and MCP tools (GET /signals, /news). */
export const newsApi: Pick<Feature, "resolvers" | "loaders" | "dictionary" | "rest" | "mcp"> = {};

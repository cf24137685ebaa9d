import type { Feature } from "../../../graphql/feature";
import { createNewsLoaders } from "./news.loaders";
import { newsDictionary } from "./news.dictionary";
import { newsTools } from "./news.mcp";
import { DistrictSignalsResolver, NewsResolver, SchoolSignalsResolver } from "./news.resolver";

/** The read side of the feed: resolvers, loaders, dictionary, REST endpoints and MCP tools (GET /signals, /news). */
export const newsApi: Pick<Feature, "resolvers" | "loaders" | "dictionary" | "rest" | "mcp"> = {
  resolvers: [NewsResolver, DistrictSignalsResolver, SchoolSignalsResolver],
  loaders: { news: createNewsLoaders },
  dictionary: newsDictionary,
  rest: [
    { method: "GET", path: "/signals", operation: "Signals", input: "query", select: ["signals"], errors: ["ENTITLEMENT_REQUIRED"] },
    { method: "GET", path: "/news", operation: "News", input: "query", select: ["news"] },
    { method: "GET", path: "/news/:id", operation: "NewsArticle", input: "query", select: ["news_article"], wrap: true },
  ],
  mcp: newsTools,
};

import { defineFeature } from "../../../graphql/feature";
import { newsApi } from "./news.api";
import { newsJobs } from "./news.jobs";

/**
 * News and signals (docs/signals.md): feeds polled by the worker, articles and their main text, the signals
 * derived from them with their districts and schools, and the feed's read API (GET /signals, /news, /news/{id}).
 */
export const newsFeature = defineFeature({
  name: "news",
  ...newsApi,
  jobs: newsJobs,
});

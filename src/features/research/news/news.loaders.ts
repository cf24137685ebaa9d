/**
 * Per-request loaders of the feed: articles by id in the caller's /news scope (newsArticle, GET /news/{id}),
 * and the feed within each district or school (District.signals, School.signals; one loader per distinct
 * arguments). One statement per batch, results in key order.
 */
import DataLoader from "dataloader";
import type { Db } from "../../../db/client";
import type { Viewer } from "../../account/auth/viewer";
import { relationLoaders } from "../../kits/common/list-kit";
import type { FeedArgs } from "./news.inputs";
import { loadFeedArticles, loadFeedPagesOf, relationScope, type FeedPage } from "./news.service";
import type { NewsArticle } from "./news.type";

export function createNewsLoaders(db: Db, viewer: Viewer) {
  return {
    /** An article with its signals, or null outside the organization's follows and unlocks (GET /news/{id}). */
    scopedArticle: new DataLoader<string, NewsArticle | null>((ids) =>
      loadFeedArticles(db, { kind: "scoped", organizationId: viewer.organizationId }, ids),
    ),
    /** The feed of each district (District.signals). */
    ofDistrict: relationLoaders<FeedArgs, FeedPage>((args) => (ids) => loadFeedPagesOf(db, relationScope(viewer), "district", ids, args)),
    /** The feed of each school (School.signals). */
    ofSchool: relationLoaders<FeedArgs, FeedPage>((args) => (ids) => loadFeedPagesOf(db, relationScope(viewer), "school", ids, args)),
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    news: ReturnType<typeof createNewsLoaders>;
  }
}

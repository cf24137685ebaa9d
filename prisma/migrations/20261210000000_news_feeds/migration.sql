-- Issue 22: news feeds polled by the worker, the text of each article (its page's main text, or the feed item's own
-- text when the page cannot be read), where it came from, and when its signals were last derived.
CREATE TABLE "news_feeds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "url" TEXT NOT NULL,
    "title" TEXT,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_polled_at" TIMESTAMPTZ(3),
    "last_status" TEXT,
    "last_error" TEXT,
    "last_item_count" INTEGER,
    "etag" TEXT,
    "last_modified" TEXT,

    CONSTRAINT "news_feeds_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "news_feeds_url_key" ON "news_feeds" ("url");

ALTER TABLE "articles"
    ADD COLUMN "feed_id" UUID,
    ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'feed',
    ADD COLUMN "origin_district_id" UUID,
    ADD COLUMN "text" TEXT,
    ADD COLUMN "text_source" TEXT,
    ADD COLUMN "fetch_status" TEXT,
    ADD COLUMN "analyzed_at" TIMESTAMPTZ(3);

ALTER TABLE "articles" ADD CONSTRAINT "articles_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "news_feeds"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE INDEX "articles_feed_id_idx" ON "articles" ("feed_id");

-- The demo seed's articles predate origins.
UPDATE "articles" SET "origin" = 'demo' WHERE "data_source" = 'demo';

-- Issue 22 (noticed at stop 30): a feed item whose article is stored under another URL (the page's canonical) was
-- fetched again on every poll, because the item's link matched no article. Each such link is kept here, so the next
-- poll finds the article by the item's link before fetching its page.
CREATE TABLE "article_links" (
    "url" TEXT NOT NULL,
    "article_id" UUID NOT NULL,

    CONSTRAINT "article_links_pkey" PRIMARY KEY ("url")
);

CREATE INDEX "article_links_article_id_idx" ON "article_links" ("article_id");

ALTER TABLE "article_links" ADD CONSTRAINT "article_links_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "articles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

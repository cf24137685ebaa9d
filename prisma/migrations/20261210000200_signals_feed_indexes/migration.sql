-- Issue 22, the read side of the signals feed (GET /signals, GET /news; bench/signals-api.ts):
-- `query` matches signal summaries, buying-intent reasons and article titles with ILIKE '%text%': trigram indexes
-- find the matching rows without reading every one; `buying_intent` and `signal_type` find an article's
-- matching signals by index, with the article id in the index so the feed's semi-join needs no heap read.
CREATE INDEX "articles_title_trgm_idx" ON "articles" USING GIN ("title" gin_trgm_ops);
CREATE INDEX "signals_summary_trgm_idx" ON "signals" USING GIN ("summary" gin_trgm_ops);
CREATE INDEX "signals_buying_intent_reason_trgm_idx" ON "signals" USING GIN ("buying_intent_reason" gin_trgm_ops);
CREATE INDEX "signals_buying_intent_article_id_idx" ON "signals" ("buying_intent", "article_id");
CREATE INDEX "signals_signal_type_article_id_idx" ON "signals" ("signal_type", "article_id");

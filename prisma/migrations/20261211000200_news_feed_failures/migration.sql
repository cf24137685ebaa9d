-- Issue 22 (noticed at stop 30): a feed whose poll failed waited a whole NEWS_POLL_MINUTES for the next try. The count
-- of consecutive failed polls sets a shorter wait (NEWS_RETRY_MINUTES, doubling per failure, never over the period).
ALTER TABLE "news_feeds" ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0;

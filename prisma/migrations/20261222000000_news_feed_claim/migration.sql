-- Issue 26 (faults): a feed poll's claim names the job holding it, so a retry of that job (its worker was killed
-- mid-poll) takes its own claim over at once instead of skipping the feed as "being polled" for 15 minutes.
ALTER TABLE "news_feeds" ADD COLUMN "claimed_by" TEXT;

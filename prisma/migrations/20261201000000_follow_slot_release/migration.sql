-- Issue 20 point 6 (contract section 7): an unfollow no longer releases a free follow slot at once; the slot stays
-- used until slot_released_at = the later of the unfollow and followed_at + FOLLOW_SLOT_MIN_DAYS (default 30).
-- Earlier unfollows were written with slot_released_at = unfollowed_at; they get the same rule (the default 30
-- days: a migration cannot read the environment), so a follow-read-unfollow loop run before this migration does
-- not leave its slots free. No schema change.
UPDATE "follows"
   SET "slot_released_at" = GREATEST("unfollowed_at", "followed_at" + interval '30 days')
 WHERE "unfollowed_at" IS NOT NULL;

-- Issue 25 point 4: one-time backfill of the derived yearly metrics on a database loaded before the rule existed.
-- The rule itself lives in src/ingest/derived-stats.ts (applied by every statistics ingest and the first start);
-- this is the same rule, frozen, so an already-loaded database lists the years in GET /metrics without a reload.
-- student_teacher_ratio: enrollment / teachers (2 decimals) where both > 0 and no ratio is stored (a published one is kept).
UPDATE "district_annual_stats"
   SET "student_teacher_ratio" = round(("total_enrollment"::float8 / "teachers_fte")::numeric, 2)::float8
 WHERE "student_teacher_ratio" IS NULL AND "total_enrollment" > 0 AND "teachers_fte" > 0;
UPDATE "school_annual_stats"
   SET "student_teacher_ratio" = round(("total_enrollment"::float8 / "teachers_fte")::numeric, 2)::float8
 WHERE "student_teacher_ratio" IS NULL AND "total_enrollment" > 0 AND "teachers_fte" > 0;
-- federal_revenue_share_pct: federal / total revenue * 100 (2 decimals) where federal is present and total > 0.
UPDATE "district_annual_stats"
   SET "federal_revenue_share_pct" = round(("federal_revenue" / "total_revenue" * 100)::numeric, 2)::float8
 WHERE "federal_revenue" IS NOT NULL AND "total_revenue" > 0;

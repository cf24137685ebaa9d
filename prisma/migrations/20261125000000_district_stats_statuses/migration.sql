-- NCES ELSI exports carry the agency type per school year, and codes (missing, not applicable, below
-- quality standards) on teachers, staff and finance values as well as on enrollment: keep them.
ALTER TABLE "district_annual_stats" ADD COLUMN "agency_type" TEXT;
-- Column name -> status for values a source did not report as a number (only non-"reported" entries).
ALTER TABLE "district_annual_stats" ADD COLUMN "value_statuses" JSONB;

-- Breakdown rows are identified by their natural key (entity, breakdown, year, category, subgroup); the
-- surrogate uuid was never read. Dropping it removes one random-uuid index write per row: the 272,188
-- breakdown rows of the 2023-24 ELSI file load in about half the time (data/README.md, first start).

-- district_stat_breakdowns
ALTER TABLE "district_stat_breakdowns" DROP CONSTRAINT "district_stat_breakdowns_pkey";
ALTER TABLE "district_stat_breakdowns" DROP COLUMN "id";
DROP INDEX "district_stat_breakdowns_district_id_breakdown_key_school_year_";
ALTER TABLE "district_stat_breakdowns" ADD CONSTRAINT "district_stat_breakdowns_pkey" PRIMARY KEY ("district_id", "breakdown_key", "school_year_start", "category", "subgroup");

-- school_stat_breakdowns
ALTER TABLE "school_stat_breakdowns" DROP CONSTRAINT "school_stat_breakdowns_pkey";
ALTER TABLE "school_stat_breakdowns" DROP COLUMN "id";
DROP INDEX "school_stat_breakdowns_school_id_breakdown_key_school_year_star";
ALTER TABLE "school_stat_breakdowns" ADD CONSTRAINT "school_stat_breakdowns_pkey" PRIMARY KEY ("school_id", "breakdown_key", "school_year_start", "category", "subgroup");

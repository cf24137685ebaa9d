import { sql } from "../../../db/sql-template";
import { LIST_FILTER } from "../../../graphql/dictionary/common";
import type { Viewer } from "../../account/auth/viewer";
import {
  callerListsFilter,
  cityFilter,
  containsFilter,
  defineList,
  equalsIgnoringCaseFilter,
  fedIdsFilter,
  gradeLevelsFilter,
  idsFilter,
  localeFilter,
  pipelineStatusFilter,
  rangeFilter,
  stateFilter,
  updatedSinceFilter,
  Uuid,
} from "../../kits/common/define-list";
import { type ListArgsOf } from "../../kits/common/list-kit";
import { intelligenceDescriptions, intelligenceFilters, recordOwner } from "../../research/intelligence/intelligence.service";

export const DISTRICT_MAX_LIMIT = 200;

/**
 * The district list (GET /districts, `districts`): every filter and sort, once. The filter's SQL is over
 * the district `d` and its access join `u` (record.service.ts). Intelligence filters (vendors, pain
 * points, funding, contracts, bids) only match districts the caller's organization has unlocked.
 */
export const DISTRICT_LIST = defineList({
  name: "District",
  items: "districts",
  description: "Filters of the district list (GET /districts); every given filter must hold.",
  filters: [
    stateFilter(sql`d.state`),
    containsFilter("search", sql`d.name`, "Text contained in the district name (case-insensitive)."),
    pipelineStatusFilter(sql`d.status`),
    idsFilter(sql`d.id`, "Our district ids (UUID)."),
    fedIdsFilter(sql`d.fed_id`, 7, "NCES district ids (LEAID, 7 digits), at most 1,000."),
    updatedSinceFilter(
      sql`d.last_updated_at`,
      "Districts whose record changed at or after this instant (last_updated_at), for incremental sync.",
    ),
    callerListsFilter(
      "listId",
      Uuid,
      sql`d.id`,
      "district",
      `A district list of the caller's organization: its districts. ${LIST_FILTER("districts")}`,
    ),
    rangeFilter("enrollment", sql`d.student_count`, {
      integer: true,
      min: "Enrolled students (studentCount) at least this many.",
      max: "Enrolled students (studentCount) at most this many.",
    }),
    rangeFilter("schoolCount", sql`d.school_count`, {
      integer: true,
      min: "Operational schools (count, schoolCount) at least this many.",
      max: "Operational schools (count, schoolCount) at most this many.",
    }),
    rangeFilter("revenuePerStudent", sql`d.revenue_per_student`, {
      integer: false,
      min: "Revenue per enrolled student (revenuePerStudent, USD) at least.",
      max: "Revenue per enrolled student (revenuePerStudent, USD) at most.",
    }),
    rangeFilter("expendituresPerStudent", sql`d.expenditures_per_student`, {
      integer: false,
      min: "Total expenditures per enrolled student (expendituresPerStudent, USD) at least.",
      max: "Total expenditures per enrolled student (expendituresPerStudent, USD) at most.",
    }),
    rangeFilter("studentTeacherRatio", sql`d.student_teacher_ratio`, {
      integer: false,
      min: "Students per FTE teacher (studentTeacherRatio, a ratio) at least.",
      max: "Students per FTE teacher (studentTeacherRatio, a ratio) at most.",
    }),
    rangeFilter("totalStaff", sql`d.total_staff`, {
      integer: false,
      min: "All staff in FTE (totalStaff) at least.",
      max: "All staff in FTE (totalStaff) at most.",
    }),
    localeFilter(
      sql`d.locale_code`,
      "NCES locale bucket (first digit of the locale code); only districts with a locale (CA, FL, MI, WA) can match.",
    ),
    equalsIgnoringCaseFilter("districtType", sql`d.district_type`, "Federal district type (NCES LEA type text), exact, case-insensitive."),
    containsFilter("county", sql`d.county`, "Text contained in the county name (case-insensitive), at most 200 characters."),
    cityFilter(sql`d.physical_city`, "Cities of the district's physical address (physicalCity), exact names, any case."),
    gradeLevelsFilter(sql`d.grade_levels`, "Districts whose grade span covers any of these grade buckets (GradeLevel)."),
    intelligenceFilters(recordOwner("d", "district_id", "u"), intelligenceDescriptions("Districts")),
  ],
  sorts: {
    name: "District name.",
    state: "State abbreviation.",
    student_count: "Enrolled students (persons).",
    school_count: "Operational schools (count).",
    revenue_per_student: "Revenue per enrolled student (USD).",
    expenditures_per_student: "Total expenditures per enrolled student (USD).",
    student_teacher_ratio: "Students per FTE teacher.",
    total_staff: "Total staff (FTE).",
    created_at: "When the record was first stored.",
    last_updated_at: "When the record last changed.",
  },
  defaultSort: "name",
  maxLimit: DISTRICT_MAX_LIMIT,
  metricQuery: true,
  context: {} as Viewer,
});

export const DistrictFilter = DISTRICT_LIST.Filter;
export type DistrictFilter = InstanceType<typeof DistrictFilter>;
export const DistrictOrderField = DISTRICT_LIST.OrderField;
export type DistrictOrderField = keyof typeof DistrictOrderField;

/** The arguments of `districts` (GET /districts). */
export const DistrictListArgs = DISTRICT_LIST.Args;
export type DistrictListArgs = ListArgsOf<DistrictFilter, DistrictOrderField>;

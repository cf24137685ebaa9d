import { sql } from "../../../db/sql-template";
import { LIST_FILTER } from "../../../graphql/dictionary/common";
import type { Viewer } from "../../account/auth/viewer";
import {
  callerListsFilter,
  containsFilter,
  defineList,
  equalsIgnoringCaseFilter,
  fedIdsFilter,
  filter,
  gradeLevelsFilter,
  idsFilter,
  localeFilter,
  pipelineStatusFilter,
  rangeFilter,
  stateFilter,
  updatedSinceFilter,
  Uuid,
  Uuids,
} from "../../kits/common/define-list";
import { ListArgs, type ListArgsOf } from "../../kits/common/list-kit";
import { intelligenceDescriptions, intelligenceFilters, recordOwner } from "../../research/intelligence/intelligence.service";

export const SCHOOL_MAX_LIMIT = 200;
export const DISTRICT_SCHOOLS_DEFAULT_LIMIT = 50;

/**
 * The school list (GET /schools, `schools`): every filter and sort, once. The filter's SQL is over the
 * school `s` and its access join `u` (record.service.ts). Intelligence filters (vendors, pain points,
 * funding, contracts, bids) only match schools the caller's organization has unlocked.
 */
export const SCHOOL_LIST = defineList({
  name: "School",
  items: "schools",
  description: "Filters of the school list (GET /schools); every given filter must hold.",
  filters: [
    filter("districtId", Uuid, "Schools of this district (our district id, UUID).", (id) => sql`s.district_id = ${id}::uuid`),
    idsFilter(sql`s.id`, "Our school ids (UUID)."),
    fedIdsFilter(sql`s.fed_id`, 12, "NCES school ids (NCESSCH, 12 digits), at most 1,000."),
    updatedSinceFilter(
      sql`s.last_updated_at`,
      "Schools whose record changed at or after this instant (last_updated_at), for incremental sync.",
    ),
    stateFilter(sql`s.state`),
    containsFilter("search", sql`s.name`, "Text contained in the school name (case-insensitive)."),
    pipelineStatusFilter(sql`s.status`),
    rangeFilter("enrollment", sql`s.student_count`, {
      integer: true,
      min: "Enrolled students (studentCount, persons) at least this many.",
      max: "Enrolled students (studentCount, persons) at most this many.",
    }),
    rangeFilter("studentTeacherRatio", sql`s.student_teacher_ratio`, {
      integer: false,
      min: "Students per FTE teacher (studentTeacherRatio, a ratio) at least.",
      max: "Students per FTE teacher (studentTeacherRatio, a ratio) at most.",
    }),
    equalsIgnoringCaseFilter("schoolType", sql`s.school_type`, "Federal school type (NCES school type text), exact, case-insensitive."),
    gradeLevelsFilter(sql`s.grade_buckets`, "Schools whose grade span covers any of these grade buckets (GradeLevel)."),
    localeFilter(sql`s.locale_code`, "NCES locale bucket (first digit of the locale code)."),
    containsFilter("county", sql`s.county`, "Text contained in the county name (case-insensitive), at most 200 characters."),
    callerListsFilter(
      "listId",
      Uuid,
      sql`s.id`,
      "school",
      `A school list of the caller's organization: its schools. ${LIST_FILTER("schools")}`,
    ),
    callerListsFilter(
      "districtListIds",
      Uuids,
      sql`s.district_id`,
      "district",
      `Schools whose district is in any of these district lists of the caller's organization. ${LIST_FILTER("districts")}`,
    ),
    intelligenceFilters(recordOwner("s", "school_id", "u"), intelligenceDescriptions("Schools")),
  ],
  sorts: {
    name: "School name.",
    state: "State abbreviation.",
    student_count: "Enrolled students (persons).",
    student_teacher_ratio: "Students per FTE teacher.",
    created_at: "When the record was first stored.",
    last_updated_at: "When the record last changed.",
  },
  defaultSort: "name",
  maxLimit: SCHOOL_MAX_LIMIT,
  metricQuery: true,
  context: {} as Viewer,
});

export const SchoolFilter = SCHOOL_LIST.Filter;
export type SchoolFilter = InstanceType<typeof SchoolFilter>;
export const SchoolOrderField = SCHOOL_LIST.OrderField;
export type SchoolOrderField = keyof typeof SchoolOrderField;

/** The arguments of `schools` (GET /schools). */
export const SchoolListArgs = SCHOOL_LIST.Args;
export type SchoolListArgs = ListArgsOf<SchoolFilter, SchoolOrderField>;

/** The arguments of District.schools: a page of the district's schools (no filter). */
export const DistrictSchoolsArgs = ListArgs<never, SchoolOrderField>({
  orderBy: { type: SchoolOrderField, default: SchoolOrderField.name },
  maxLimit: SCHOOL_MAX_LIMIT,
  defaultLimit: DISTRICT_SCHOOLS_DEFAULT_LIMIT,
});
export type DistrictSchoolsArgs = Omit<ListArgsOf<never, SchoolOrderField>, "filter" | "metricQuery">;

/**
 * The metric allowlists of the metric query (api-contract §8) and of GET /metrics. Every identifier the
 * metric compiler puts into SQL comes from here, never from the request.
 */

export type MetricEntity = "district" | "school";
export type MetricType = "integer" | "number";
export type MetricSource = "annual_statistics" | "assessment";

export interface MetricDef {
  /** The name clients use; equal to the column name. */
  readonly metric: string;
  readonly type: MetricType;
  readonly source: MetricSource;
  readonly table: string;
  readonly column: string;
  /** The school-year column of `table` (school_year_start, or school_year for assessments). */
  readonly yearColumn: string;
  /** The column of `table` that holds the district or school id. */
  readonly entityColumn: string;
}

type ColumnList = ReadonlyArray<readonly [column: string, type: MetricType]>;

/**
 * The numeric fields of the district statistics entry (interface spec, "District annual_statistics"),
 * finance fields included. school_year_start is the year key, addressed through `year`/`change`, not a metric.
 */
const DISTRICT_STAT_COLUMNS: ColumnList = [
  ["total_enrollment", "integer"],
  ["operational_school_count", "integer"],
  ["total_population", "integer"],
  ["school_age_population", "integer"],
  ["school_age_children_in_poverty", "integer"],
  ["finance_fiscal_year", "integer"],
  ["total_staff_fte", "number"],
  ["teachers_fte", "number"],
  ["school_counselors_fte", "number"],
  ["school_psychologists_fte", "number"],
  ["student_support_staff_fte", "number"],
  ["instructional_aides_fte", "number"],
  ["district_administrators_fte", "number"],
  ["school_administrators_fte", "number"],
  ["total_revenue", "number"],
  ["local_revenue", "number"],
  ["state_revenue", "number"],
  ["federal_revenue", "number"],
  ["property_tax_revenue", "number"],
  ["title_i_revenue", "number"],
  ["state_special_education_revenue", "number"],
  ["total_expenditures", "number"],
  ["current_expenditures", "number"],
  ["instruction_expenditures", "number"],
  ["support_services_expenditures", "number"],
  ["student_support_expenditures", "number"],
  ["instructional_staff_support_expenditures", "number"],
  ["general_administration_expenditures", "number"],
  ["school_administration_expenditures", "number"],
  ["operations_maintenance_expenditures", "number"],
  ["student_transportation_expenditures", "number"],
  ["capital_outlay_expenditures", "number"],
  ["interest_on_debt_expenditures", "number"],
  ["total_salaries", "number"],
  ["instructional_salaries", "number"],
  ["special_education_teacher_salaries", "number"],
  ["employee_benefits", "number"],
  ["long_term_debt_outstanding", "number"],
  ["utilities_energy_expenditures", "number"],
  ["technology_supplies_services_expenditures", "number"],
  ["technology_equipment_expenditures", "number"],
  ["student_teacher_ratio", "number"],
  ["counselors_per_1000_students", "number"],
  ["psychologists_per_1000_students", "number"],
  ["school_age_poverty_pct", "number"],
  ["revenue_per_student", "number"],
  ["current_expenditures_per_student", "number"],
  ["federal_revenue_share_pct", "number"],
];

/** The numeric fields of the school statistics entry (interface spec, "School annual_statistics"). */
const SCHOOL_STAT_COLUMNS: ColumnList = [
  ["total_enrollment", "integer"],
  ["free_lunch_eligible", "integer"],
  ["reduced_price_lunch_eligible", "integer"],
  ["free_or_reduced_price_lunch_eligible", "integer"],
  ["teachers_fte", "number"],
  ["student_teacher_ratio", "number"],
  ["free_or_reduced_price_lunch_pct", "number"],
];

/** Scalar columns of assessment_summaries, the same for districts and schools. */
const ASSESSMENT_COLUMNS: ColumnList = [
  ["ela_proficiency_pct", "number"],
  ["math_proficiency_pct", "number"],
  ["science_proficiency_pct", "number"],
];

function defs(columns: ColumnList, source: MetricSource, table: string, yearColumn: string, entityColumn: string): MetricDef[] {
  return columns.map(([column, type]) => ({ metric: column, type, source, table, column, yearColumn, entityColumn }));
}

export const METRICS: Readonly<Record<MetricEntity, readonly MetricDef[]>> = {
  district: [
    ...defs(DISTRICT_STAT_COLUMNS, "annual_statistics", "district_annual_stats", "school_year_start", "district_id"),
    ...defs(ASSESSMENT_COLUMNS, "assessment", "assessment_summaries", "school_year", "district_id"),
  ],
  school: [
    ...defs(SCHOOL_STAT_COLUMNS, "annual_statistics", "school_annual_stats", "school_year_start", "school_id"),
    ...defs(ASSESSMENT_COLUMNS, "assessment", "assessment_summaries", "school_year", "school_id"),
  ],
};

const METRIC_INDEX: Record<MetricEntity, ReadonlyMap<string, MetricDef>> = {
  district: new Map(METRICS.district.map((def) => [def.metric, def])),
  school: new Map(METRICS.school.map((def) => [def.metric, def])),
};

export function findMetric(entity: MetricEntity, metric: string): MetricDef | undefined {
  return METRIC_INDEX[entity].get(metric);
}

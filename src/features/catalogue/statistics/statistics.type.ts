/**
 * Statistics entries exactly as the spec lists them: one object per entity and school year, read
 * straight from district_annual_stats / school_annual_stats rows, plus the envelopes around them.
 */
import { Field, Int, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

@ObjectType()
export class DistrictStatisticsEntry {
  @Col("int", { required: true }) school_year_start: number;
  @Col("int") total_enrollment: number | null;
  @Col("int") operational_school_count: number | null;
  @Col("int") total_population: number | null;
  @Col("int") school_age_population: number | null;
  @Col("int") school_age_children_in_poverty: number | null;
  @Col("int") finance_fiscal_year: number | null;
  @Col("float") total_staff_fte: number | null;
  @Col("float") teachers_fte: number | null;
  @Col("float") school_counselors_fte: number | null;
  @Col("float") school_psychologists_fte: number | null;
  @Col("float") student_support_staff_fte: number | null;
  @Col("float") instructional_aides_fte: number | null;
  @Col("float") district_administrators_fte: number | null;
  @Col("float") school_administrators_fte: number | null;
  @Col("float") total_revenue: number | null;
  @Col("float") local_revenue: number | null;
  @Col("float") state_revenue: number | null;
  @Col("float") federal_revenue: number | null;
  @Col("float") property_tax_revenue: number | null;
  @Col("float") title_i_revenue: number | null;
  @Col("float") state_special_education_revenue: number | null;
  @Col("float") total_expenditures: number | null;
  @Col("float") current_expenditures: number | null;
  @Col("float") instruction_expenditures: number | null;
  @Col("float") support_services_expenditures: number | null;
  @Col("float") student_support_expenditures: number | null;
  @Col("float") instructional_staff_support_expenditures: number | null;
  @Col("float") general_administration_expenditures: number | null;
  @Col("float") school_administration_expenditures: number | null;
  @Col("float") operations_maintenance_expenditures: number | null;
  @Col("float") student_transportation_expenditures: number | null;
  @Col("float") capital_outlay_expenditures: number | null;
  @Col("float") interest_on_debt_expenditures: number | null;
  @Col("float") total_salaries: number | null;
  @Col("float") instructional_salaries: number | null;
  @Col("float") special_education_teacher_salaries: number | null;
  @Col("float") employee_benefits: number | null;
  @Col("float") long_term_debt_outstanding: number | null;
  @Col("float") utilities_energy_expenditures: number | null;
  @Col("float") technology_supplies_services_expenditures: number | null;
  @Col("float") technology_equipment_expenditures: number | null;
  @Col("float") student_teacher_ratio: number | null;
  @Col("float") counselors_per_1000_students: number | null;
  @Col("float") psychologists_per_1000_students: number | null;
  @Col("float") school_age_poverty_pct: number | null;
  @Col("float") revenue_per_student: number | null;
  @Col("float") current_expenditures_per_student: number | null;
  @Col("float") federal_revenue_share_pct: number | null;
  @Col("string") enrollment_status: string | null;
  @Col("string")
  agency_type: string | null;
  @Col("json")
  value_statuses: Record<string, string> | null;
  @Col("string") fed_directory_version: string | null;
  @Col("string") fed_membership_version: string | null;
  @Col("string") fed_staff_version: string | null;
  @Col("string") saipe_version: string | null;
  @Col("string") f33_version: string | null;
  @Col("json") source_urls: Record<string, string> | null;
  @Col("datetime") loaded_at: Timestamp | null;
}

@ObjectType()
export class SchoolStatisticsEntry {
  @Col("int", { required: true }) school_year_start: number;
  @Col("int") total_enrollment: number | null;
  @Col("int") free_lunch_eligible: number | null;
  @Col("int") reduced_price_lunch_eligible: number | null;
  @Col("int") free_or_reduced_price_lunch_eligible: number | null;
  @Col("float") teachers_fte: number | null;
  @Col("float") student_teacher_ratio: number | null;
  @Col("float") free_or_reduced_price_lunch_pct: number | null;
  @Col("string") enrollment_status: string | null;
  @Col("string") teachers_status: string | null;
  @Col("string") lunch_status: string | null;
  @Col("string") operational_status: string | null;
  @Col("string") school_type: string | null;
  @Col("string") school_level: string | null;
  @Col("string") low_grade: string | null;
  @Col("string") high_grade: string | null;
  @Col("string") charter_status: string | null;
  @Col("string") magnet_status: string | null;
  @Col("string") title_i_status: string | null;
  @Col("string") nslp_status: string | null;
  @Col("string") virtual_status: string | null;
  @Col("string") fed_directory_version: string | null;
  @Col("string") fed_membership_version: string | null;
  @Col("string") fed_staff_version: string | null;
  @Col("string") fed_characteristics_version: string | null;
  @Col("string") fed_lunch_version: string | null;
  @Col("json") source_urls: Record<string, string> | null;
  @Col("datetime") loaded_at: Timestamp | null;
}

@ObjectType()
export class SpecialEducationFinanceEntry {
  @Col("int", { required: true }) fiscal_year: number;
  @Col("int") school_year_start: number | null;
  @Col("int") total_enrollment: number | null;
  @Col("int") idea_child_count: number | null;
  @Col("float") idea_part_b_revenue: number | null;
  @Col("float") total_federal_revenue: number | null;
  @Col("float") total_revenue: number | null;
  @Col("float") total_expenditures: number | null;
  @Col("float") special_ed_current_expenditures: number | null;
  @Col("float") special_ed_instructional_expenditures: number | null;
  @Col("float") special_ed_student_support_expenditures: number | null;
  @Col("float") special_ed_instructional_staff_support_expenditures: number | null;
  @Col("float") special_ed_transportation_expenditures: number | null;
  @Col("float") idea_revenue_per_sped_student: number | null;
  @Col("float") special_ed_current_expenditures_per_sped_student: number | null;
  @Col("float") sped_enrollment_pct: number | null;
  @Col("float") idea_revenue_share_of_total_revenue_pct: number | null;
  @Col("string") idea_child_count_status: string | null;
  @Col("string") idea_part_b_revenue_flag: string | null;
  @Col("string") f33_version: string | null;
  @Col("string") child_count_version: string | null;
  @Col("string") source_f33_url: string | null;
  @Col("string") source_child_count_url: string | null;
  @Col("string") data_source: string | null;
  @Col("datetime") loaded_at: Timestamp | null;
}

@ObjectType()
export class BreakdownRow {
  @Col("string", { required: true }) category: string;
  @Col("string", { required: true }) subgroup: string;
  @Col("float") value: number | null;
  @Col("string") value_status: string | null;
}

/** One breakdown for one school year (latest_breakdowns.<key>, and each item of breakdowns.<key>.trend). */
@ObjectType()
export class BreakdownYear {
  @Col("int", { required: true }) school_year_start: number;
  @Col("string") source_version: string | null;
  @Col("string") source_url: string | null;
  @Field(() => [BreakdownRow]) rows: BreakdownRow[];
}

@ObjectType()
export class BreakdownHistory {
  @Field(() => [BreakdownYear]) trend: BreakdownYear[];
  @Col("bool", { required: true }) history_gated: boolean;
  @Field(() => Int, { name: "historyYearsAvailable" }) history_years_available: number;
}

@ObjectType()
export class DistrictLatestBreakdowns {
  @Field(() => BreakdownYear, { nullable: true, name: "enrollmentGrade" }) enrollment_grade: BreakdownYear | null;
  @Field(() => BreakdownYear, { nullable: true, name: "enrollmentRaceSex" }) enrollment_race_sex: BreakdownYear | null;
  @Field(() => BreakdownYear, { nullable: true, name: "staffCategory" }) staff_category: BreakdownYear | null;
  @Field(() => BreakdownYear, { nullable: true, name: "ideaDisability" }) idea_disability: BreakdownYear | null;
}

@ObjectType()
export class DistrictBreakdowns {
  @Field(() => BreakdownHistory, { name: "enrollmentGrade" }) enrollment_grade: BreakdownHistory;
  @Field(() => BreakdownHistory, { name: "enrollmentRaceSex" }) enrollment_race_sex: BreakdownHistory;
  @Field(() => BreakdownHistory, { name: "staffCategory" }) staff_category: BreakdownHistory;
  @Field(() => BreakdownHistory, { name: "ideaDisability" }) idea_disability: BreakdownHistory;
}

@ObjectType()
export class SchoolLatestBreakdowns {
  @Field(() => BreakdownYear, { nullable: true, name: "enrollmentGrade" }) enrollment_grade: BreakdownYear | null;
  @Field(() => BreakdownYear, { nullable: true, name: "enrollmentRaceSex" }) enrollment_race_sex: BreakdownYear | null;
}

@ObjectType()
export class SchoolBreakdowns {
  @Field(() => BreakdownHistory, { name: "enrollmentGrade" }) enrollment_grade: BreakdownHistory;
  @Field(() => BreakdownHistory, { name: "enrollmentRaceSex" }) enrollment_race_sex: BreakdownHistory;
}

/** latestBreakdowns and breakdowns are field resolvers (loaded only when asked for). */
@ObjectType()
export class DistrictAnnualStatistics {
  @Field(() => DistrictStatisticsEntry, { nullable: true }) latest: DistrictStatisticsEntry | null;
  @Field(() => DistrictStatisticsEntry, { nullable: true, name: "latestFinance" }) latest_finance: DistrictStatisticsEntry | null;
  @Field(() => [DistrictStatisticsEntry]) trend: DistrictStatisticsEntry[];
  @Col("bool", { required: true }) history_gated: boolean;
  @Field(() => Int, { name: "historyYearsAvailable" }) history_years_available: number;
  @Col("string") caveat: string | null;
}

@ObjectType()
export class SchoolAnnualStatistics {
  @Field(() => SchoolStatisticsEntry, { nullable: true }) latest: SchoolStatisticsEntry | null;
  @Field(() => [SchoolStatisticsEntry]) trend: SchoolStatisticsEntry[];
  @Col("bool", { required: true }) history_gated: boolean;
  @Field(() => Int, { name: "historyYearsAvailable" }) history_years_available: number;
  @Col("string") caveat: string | null;
}

@ObjectType()
export class SpecialEducationFinance {
  @Col("string") data_source: string | null;
  @Field(() => SpecialEducationFinanceEntry, { nullable: true }) latest: SpecialEducationFinanceEntry | null;
  @Field(() => [SpecialEducationFinanceEntry]) trend: SpecialEducationFinanceEntry[];
  @Col("bool", { required: true }) history_gated: boolean;
  @Field(() => Int, { name: "historyYearsAvailable" }) history_years_available: number;
  @Col("string") caveat: string | null;
}

/** The school's view of its parent district's special-education finance. */
@ObjectType()
export class ParentDistrictSpecialEducationFinance extends SpecialEducationFinance {
  @Col("uuid") district_id: string | null;
  @Col("string") district_name: string | null;
}

import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Access } from "../../account/access/access.type";
import { Page } from "../../kits/common/list-kit";

/**
 * A school district: the federal directory record (NCES CCD), its rolled-up finance and staffing
 * figures, pipeline state, and (only once the caller's organization unlocked it) extracted intelligence.
 * Gated fields arrive already nulled for locked records (src/features/account/access/); nested blocks are
 * block field resolvers (src/features/kits/blocks/).
 */
@ObjectType()
export class District {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) fed_id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) state: string;
  @Col("string") website_url: string | null;
  @Col("int") student_count: number | null;
  @Col("int") school_count: number | null;
  @Col("string") grade_span: string | null;
  @Col("string") locale_type: string | null;
  @Col("float") total_revenue: number | null;
  @Col("float") revenue_per_student: number | null;
  @Col("float") total_expenditures: number | null;
  @Col("float") expenditures_per_student: number | null;
  @Col("float") instructional_expenditures: number | null;
  @Col("float") instructional_expenditures_percent: number | null;
  @Col("float") support_services_expenditures: number | null;
  @Col("float") student_teacher_ratio: number | null;
  @Col("float") total_staff: number | null;
  @Col("strings") meeting_minutes_pdfs: string[] | null;
  @Col("string") physical_address: string | null;
  @Col("string") physical_city: string | null;
  @Col("string") physical_state: string | null;
  @Col("string") physical_zip: string | null;
  @Col("string") mailing_address: string | null;
  @Col("string") mailing_city: string | null;
  @Col("string") mailing_state: string | null;
  @Col("string") mailing_zip: string | null;
  @Col("string") phone: string | null;
  @Col("string") county: string | null;
  @Col("string") state_district_id: string | null;
  @Col("string") district_type: string | null;
  @Col("float") teachers_fte: number | null;
  @Col("int") fed_data_year: number | null;
  @Col("float") latitude: number | null;
  @Col("float") longitude: number | null;
  @Col("strings") strategic_priorities: string[] | null;
  @Col("string") ai_summary: string | null;
  @Col("datetime") summary_generated_at: Timestamp | null;
  @Col("string", { required: true }) status: string;
  @Col("datetime") website_mapped_at: Timestamp | null;
  @Col("datetime") content_fetched_at: Timestamp | null;
  @Col("datetime") content_extracted_at: Timestamp | null;
  @Col("uuid") last_analysis_job_id: string | null;
  @Col("string") data_source: string | null;
  @Col("datetime") crawled_at: Timestamp | null;
  @Col("string") error_message: string | null;
  @Col("int", { required: true }) retry_count: number;
  @Col("string") notes: string | null;
  @Col("datetime", { required: true }) last_updated_at: Timestamp;
  @Col("datetime", { required: true }) created_at: Timestamp;
  @Field(() => Access) _access: Access;
  @Col("json")
  metric_values: Record<string, number | null> | null;
}

export const DistrictPage = Page(District, "DistrictPage");

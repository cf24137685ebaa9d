import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Access } from "../../account/access/access.type";
import { Page } from "../../kits/common/list-kit";

/**
 * A school: the federal directory record (NCES CCD), pipeline state, and (only once the caller's
 * organization unlocked it) extracted intelligence. Gated fields arrive already nulled for locked
 * records (src/features/account/access/); nested blocks are block field resolvers (src/features/kits/blocks/), and
 * `district` a field resolver of school.resolver.ts.
 */
@ObjectType()
export class School {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid") district_id: string | null;
  @Col("string", { required: true }) fed_id: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) state: string;
  @Col("string") website_url: string | null;
  @Col("int") student_count: number | null;
  @Col("string") grade_levels: string | null;
  @Col("string") state_school_id: string | null;
  @Col("string") school_type: string | null;
  @Col("string") locale_type: string | null;
  @Col("int") fed_data_year: number | null;
  @Col("float") teachers_fte: number | null;
  @Col("float") student_teacher_ratio: number | null;
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
  @Col("float") latitude: number | null;
  @Col("float") longitude: number | null;
  @Col("string") ai_summary: string | null;
  @Col("datetime") summary_generated_at: Timestamp | null;
  @Col("string") source: string | null;
  @Col("string") source_url: string | null;
  @Col("string", { required: true }) status: string;
  @Col("datetime") website_mapped_at: Timestamp | null;
  @Col("datetime") content_fetched_at: Timestamp | null;
  @Col("datetime") content_extracted_at: Timestamp | null;
  @Col("uuid") last_analysis_job_id: string | null;
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

export const SchoolPage = Page(School, "SchoolPage");

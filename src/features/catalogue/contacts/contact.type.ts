import { Field, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Access, AccessSummary } from "../../account/access/access.type";
import { Pagination } from "../../kits/common/common.type";

/**
 * A person at a district or school (spec "Contact record"). Listed only once its parent (its school
 * when school_id is set, else its district) went through extraction. email, phone, linkedin_url,
 * profile_summary and key_facts arrive already nulled unless the caller's organization unlocked the
 * contact (src/features/account/access/). District.contacts, School.contacts and Contact.district/school are
 * relations the catalogue relations add with this type and contact.loaders.ts.
 */
@ObjectType()
export class Contact {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid") district_id: string | null;
  @Col("uuid") school_id: string | null;
  @Col("uuid") association_id: string | null;
  @Col("uuid") head_start_program_id: string | null;
  @Col("uuid") childcare_center_id: string | null;
  @Col("string", { required: true }) name: string;
  @Col("string") title: string | null;
  @Col("string") email: string | null;
  @Col("string") phone: string | null;
  @Col("string") state: string | null;
  @Col("bool", { required: true }) is_district_contact: boolean;
  @Col("string") linkedin_url: string | null;
  @Col("string") profile_summary: string | null;
  @Col("json") key_facts: Record<string, unknown> | null;
  @Col("string") source: string | null;
  @Col("string") source_url: string | null;
  @Col("string", { required: true })
  data_source: string;
  @Col("string", { required: true }) enrichment_status: string;
  @Col("datetime") enriched_at: Timestamp | null;
  @Col("string") enrichment_error: string | null;
  @Col("int", { required: true }) enrichment_retry_count: number;
  @Col("float") qualification_score: number | null;
  @Col("string") qualification_justification: string | null;
  @Col("datetime") qualified_at: Timestamp | null;
  @Col("string", { required: true }) email_status: string;
  @Col("string") email_error: string | null;
  @Col("int", { required: true }) email_retry_count: number;
  @Col("bool", { required: true }) emailed: boolean;
  @Col("bool", { required: true }) email_bounced: boolean;
  @Col("datetime") emailed_at: Timestamp | null;
  @Col("datetime") email_bounced_at: Timestamp | null;
  @Col("int") email_confidence_score: number | null;
  @Col("string") email_verification_status: string | null;
  @Col("datetime") email_verified_at: Timestamp | null;
  @Col("string") crm_contact_id: string | null;
  @Col("datetime") crm_synced_at: Timestamp | null;
  @Col("string", { required: true }) crm_sync_status: string;
  @Col("string") crm_sync_error: string | null;
  @Col("string") notes: string | null;
  @Col("datetime") discovered_at: Timestamp | null;
  @Col("datetime", { required: true }) last_updated_at: Timestamp;
  @Col("datetime", { required: true }) created_at: Timestamp;
  @Field(() => Access) _access: Access;
}

/** A page of contacts: the list kit's page plus the access summary over the whole result set. */
@ObjectType()
export class ContactPage {
  @Field(() => [Contact]) data: Contact[];
  @Field(() => Pagination) pagination: Pagination;
  @Field(() => AccessSummary, { name: "_accessSummary" })
  _access_summary: AccessSummary;
}

import { ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

/**
 * A Head Start program: a federal grant as its recipient runs it, or a delegate agency running part of
 * one (delegate_number set, parent_program_id pointing at the grant's program). Loaded from the
 * federal Program Information Report; status active means the program reports an open site.
 */
@ObjectType()
export class HeadStartProgram {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) slug: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) grant_number: string;
  @Col("string") delegate_number: string | null;
  @Col("uuid") parent_program_id: string | null;
  @Col("string") parent_program_name: string | null;
  @Col("string") recipient_name: string | null;
  @Col("string", { required: true }) state: string;
  @Col("string") physical_address: string | null;
  @Col("string") physical_city: string | null;
  @Col("string") physical_zip: string | null;
  @Col("string") county: string | null;
  @Col("string") phone: string | null;
  @Col("string") website_url: string | null;
  @Col("string") email: string | null;
  @Col("uuid") district_id: string | null;
  @Col("string") district_name: string | null;
  @Col("strings", {
    required: true,
  })
  program_types: string[];
  @Col("int") funded_slots: number | null;
  @Col("int") open_site_count: number | null;
  @Col("int") site_count: number | null;
  @Col("string", { required: true }) status: string;
  @Col("float") grant_amount: number | null;
  @Col("date") grant_start: string | null;
  @Col("date") grant_end: string | null;
  @Col("string") source_url: string | null;
  @Col("string") source_version: string | null;
  @Col("uuid")
  operator_id: string | null;
  @Col("datetime", { required: true }) created_at: Date;
  @Col("datetime", { required: true }) updated_at: Date;
}

export const HeadStartProgramPage = Page(HeadStartProgram, "HeadStartProgramPage");

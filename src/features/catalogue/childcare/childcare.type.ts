import { ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

@ObjectType()
export class ChildcarePerson {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") title: string | null;
  @Col("string") role: string | null;
}

/**
 * A licensed or license-exempt childcare center from a state's own roster (family homes excluded).
 * license_type and license_status are mapped values; the roster's own words are kept in *_raw.
 */
@ObjectType()
export class ChildcareCenter {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) slug: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) state: string;
  @Col("string", { required: true }) license_number: string;
  @Col("string", { required: true }) source: string;
  @Col("string") physical_address: string | null;
  @Col("string") physical_city: string | null;
  @Col("string") physical_zip: string | null;
  @Col("string") county: string | null;
  @Col("float") latitude: number | null;
  @Col("float") longitude: number | null;
  @Col("string") phone: string | null;
  @Col("string") email: string | null;
  @Col("string") website_url: string | null;
  @Col("string", { required: true }) license_type: string;
  @Col("string") license_type_raw: string | null;
  @Col("string", { required: true }) license_status: string;
  @Col("string") license_status_raw: string | null;
  @Col("date") first_licensed: string | null;
  @Col("date") license_expires: string | null;
  @Col("int") capacity: number | null;
  @Col("json")
  capacity_by_age: Record<string, number> | null;
  @Col("string") ages_served: string | null;
  @Col("string") licensee_name: string | null;
  @Col("string")
  chain: string | null;
  @Col("string") director_name: string | null;
  @Col("string") quality_rating: string | null;
  @Col("bool") accepts_subsidy: boolean | null;
  @Col("bool") district_operated: boolean | null;
  @Col("string") source_url: string | null;
  @Col("string") source_version: string | null;
  @Col("uuid") operator_id: string | null;
  @Col("uuid") district_id: string | null;
  @Col("datetime", { required: true }) created_at: Date;
  @Col("datetime", { required: true }) updated_at: Date;
}

export const ChildcareCenterPage = Page(ChildcareCenter, "ChildcareCenterPage");

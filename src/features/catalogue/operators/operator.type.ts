import { Field, ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

@ObjectType()
export class ContractorMatch {
  @Col("string", { required: true }) name: string;
  @Col("float", { required: true }) amount: number;
  @Col("string") services: string | null;
  @Col("string") line_key: string | null;
  @Col("string") fiscal_year_end: string | null;
}

/**
 * An organization that runs childcare centers or Head Start programs and is not a school district.
 * Counts and program_states are computed by the list statement; the 990 figures come from the latest
 * current return on file (operator_filings), else from the IRS master file columns of the operator.
 */
@ObjectType()
export class Operator {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) slug: string;
  @Col("string", { required: true }) name: string;
  @Col("string", { required: true }) kind: string;
  @Col("string") ein: string | null;
  @Col("string") uei: string | null;
  @Col("string") chain_key: string | null;
  @Col("string") ntee_code: string | null;
  @Col("string") physical_address: string | null;
  @Col("string") physical_city: string | null;
  @Col("string") state: string | null;
  @Col("string") physical_zip: string | null;
  @Col("string") website_url: string | null;
  @Col("string") website_domain: string | null;
  @Col("string") brand_favicon_url: string | null;
  @Col("string") brand_hero_url: string | null;
  @Col("string") brand_color: string | null;
  @Col("datetime", { required: true }) created_at: Date;
  @Col("datetime", { required: true }) updated_at: Date;
  @Col("int", { required: true })
  center_count: number;
  @Col("int")
  center_seats: number | null;
  @Col("int", {
    required: true,
  })
  head_start_count: number;
  @Col("int")
  head_start_slots: number | null;
  @Col("strings", { required: true })
  program_states: string[];
  @Col("float") total_revenue: number | null;
  @Col("float") government_grants: number | null;
  @Col("string") fiscal_year_end: string | null;
  @Col("string") latest_990_form: string | null;
  @Col("string") latest_990_object_id: string | null;
  @Field(() => [ContractorMatch], {
    name: "contractorMatches",
  })
  contractor_matches: ContractorMatch[];
  @Col("string")
  contractor_paid: string | null;
}

export const OperatorPage = Page(Operator, "OperatorPage");

import { Field, ObjectType } from "type-graphql";
import { Col } from "../../graphql/fields";
import { Page } from "../common/list-kit";

@ObjectType({ description: "A contractor the operator's latest Form 990 reports paying over $100,000 (Schedule/Part VII section B)." })
export class ContractorMatch {
  @Col("string", { required: true }) name: string;
  @Col("float", { required: true }) amount: number;
  @Col("string") services: string | null;
  @Col("string", { description: "Where on the return the line sits (e-file line key), as filed." }) line_key: string | null;
  @Col("string", { description: "Fiscal year end of the return, YYYY-MM-DD." }) fiscal_year_end: string | null;
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
  @Col("string", { required: true, description: "nonprofit, company, government, tribe, church or other." }) kind: string;
  @Col("string", { description: "IRS employer identification number, 9 digits." }) ein: string | null;
  @Col("string") uei: string | null;
  @Col("string", { description: "Chain key shared by its childcare centers (childcare_centers.chain)." }) chain_key: string | null;
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
  @Col("int", { required: true, description: "Active childcare centers it runs (in the filtered states when `state` is given)." })
  center_count: number;
  @Col("int", { description: "Summed licensed capacity of those centers (null when none reports a capacity)." })
  center_seats: number | null;
  @Col("int", {
    required: true,
    description: "Head Start programs with an open site it runs (in the filtered states when `state` is given).",
  })
  head_start_count: number;
  @Col("int", { description: "Summed funded slots of those programs (null when none reports slots)." })
  head_start_slots: number | null;
  @Col("strings", { required: true, description: "States where it runs active centers or open Head Start programs (all states)." })
  program_states: string[];
  @Col("float", { description: "Total revenue of the latest Form 990." }) total_revenue: number | null;
  @Col("float", { description: "Government grants of the latest Form 990." }) government_grants: number | null;
  @Col("string", { description: "Fiscal year end of the latest return, YYYY-MM-DD." }) fiscal_year_end: string | null;
  @Col("string", { description: "Form of the latest return: 990, 990EZ, 990PF." }) latest_990_form: string | null;
  @Col("string", { description: "IRS e-file object id of the latest return." }) latest_990_object_id: string | null;
  @Field(() => [ContractorMatch], {
    name: "contractorMatches",
    description: "Contractors paid over $100,000 on the latest return, largest first.",
  })
  contractor_matches: ContractorMatch[];
  @Col("string", {
    description: "With a `contractor` filter: the matching contractors' names as filed (several joined by '; '); otherwise null.",
  })
  contractor_paid: string | null;
}

export const OperatorPage = Page(Operator, "OperatorPage");

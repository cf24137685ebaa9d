import { ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Page } from "../../kits/common/list-kit";

/** What a redacted person's name reads as, whatever the source stored: a redacted name stays redacted. */
export const REDACTED_NAME = "[redacted]";

@ObjectType()
export class AssociationPerson {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") title: string | null;
  @Col("bool", { required: true }) redacted: boolean;
}

/**
 * An education association (state athletic or activities association, superintendents', school boards',
 * principals' association ...) or a section under one (parent_association_id set).
 */
@ObjectType()
export class Association {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) slug: string;
  @Col("string", { required: true }) name: string;
  @Col("string") short_name: string | null;
  @Col("string", {
    required: true,
  })
  kind: string;
  @Col("string") state: string | null;
  @Col("uuid") parent_association_id: string | null;
  @Col("string") parent_association_name: string | null;
  @Col("string") website_url: string | null;
  @Col("string") phone: string | null;
  @Col("string") physical_address: string | null;
  @Col("string") physical_city: string | null;
  @Col("string") physical_zip: string | null;
  @Col("int") member_school_count: number | null;
  @Col("string") member_count_source_url: string | null;
  @Col("string") source_url: string | null;
  @Col("datetime") verified_at: Timestamp | null;
  @Col("string", { required: true })
  data_source: string;
  @Col("datetime", { required: true }) created_at: Timestamp;
  @Col("datetime", { required: true }) updated_at: Timestamp;
}

export const AssociationPage = Page(Association, "AssociationPage");

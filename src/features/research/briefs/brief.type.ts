/**
 * Deep-research briefs (spec "Brief" state table, contract section 7). Descriptions of every type and
 * field here live in the field dictionary (src/graphql/dictionary/briefs.ts), not in decorators.
 */
import { Field, ObjectType, registerEnumType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";
import { Contact } from "../../catalogue/contacts/contact.type";

export enum BriefEntityType {
  district = "district",
  school = "school",
}
registerEnumType(BriefEntityType, { name: "BriefEntityType" });

export enum BriefStatus {
  building = "building",
  ready = "ready",
  failed = "failed",
}
registerEnumType(BriefStatus, { name: "BriefStatus" });

/** A brief as GET /briefs and the poll URL serve it (`{ brief: ... }`). */
@ObjectType()
export class Brief {
  @Col("uuid", { required: true }) brief_id: string;
  @Col("uuid", { required: true }) project_id: string;
  @Col(() => BriefEntityType, { required: true }) entity_type: BriefEntityType;
  @Col("uuid", { required: true }) entity_id: string;
  @Col(() => BriefStatus, { required: true }) status: BriefStatus;
  @Col("json") dossier: Record<string, unknown> | null;
  @Col("string") error: string | null;
  @Col("datetime", { required: true }) started_at: Timestamp;
  @Col("datetime") finished_at: Timestamp | null;
}

/** The answer of POST /briefs. */
@ObjectType()
export class BriefRequestOutcome {
  @Col("uuid", { required: true }) brief_id: string;
  @Col(() => BriefStatus, { required: true }) status: BriefStatus;
  @Col("bool", { required: true }) started: boolean;
  @Col("string", { required: true }) poll: string;
}

/** The organization's contact record made from a brief's person (POST /briefs/{id}/people/{key}/promote). */
@ObjectType()
export class PromotedContact {
  @Col("uuid", { required: true }) id: string;
  @Col("uuid", { required: true }) brief_id: string;
  @Col("string", { required: true }) person_key: string;
  @Col("uuid", { required: true }) project_id: string;
  @Col(() => BriefEntityType, { required: true }) entity_type: BriefEntityType;
  @Col("uuid", { required: true }) entity_id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") title: string | null;
  @Col("uuid") contact_id: string | null;
  @Col("bool", { required: true }) linked: boolean;
  @Col("json", { required: true }) brief_reference: Record<string, unknown>;
  @Col("datetime") linked_at: Timestamp | null;
  @Col("datetime", { required: true }) created_at: Timestamp;
  @Col("datetime", { required: true }) updated_at: Timestamp;
  @Field(() => Contact, { nullable: true }) contact?: Contact | null;
}

@ObjectType()
export class PromoteOutcome {
  @Col("bool", { required: true }) created: boolean;
  @Field(() => PromotedContact) contact: PromotedContact;
}

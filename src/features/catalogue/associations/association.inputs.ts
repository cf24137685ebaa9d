import { registerEnumType } from "type-graphql";
import { sql } from "../../../db/sql-template";
import { BadRequestError } from "../../../graphql/errors";
import { anyOfFilter, defineList, enumsOf, filter, statesFilter, Text, Uuid, Uuids } from "../../kits/common/define-list";
import { checkText, containsPattern, LimitArgs, type LimitArgsOf, type ListArgsOf } from "../../kits/common/list-kit";

export const ASSOCIATION_MAX_LIMIT = 200;
/** Association.people and Association.sections: at most this many per association (GET /associations/{id} asks for the maximum). */
export const ASSOCIATION_NESTED_MAX_LIMIT = 200;
export const ASSOCIATION_NESTED_DEFAULT_LIMIT = 50;

/** The arguments of Association.people and Association.sections. */
export const AssociationNestedArgs = LimitArgs({ defaultLimit: ASSOCIATION_NESTED_DEFAULT_LIMIT, maxLimit: ASSOCIATION_NESTED_MAX_LIMIT });
export type AssociationNestedArgs = LimitArgsOf;

/** Association kinds (contract section 9). */
export enum AssociationKind {
  state_athletic_association = "state_athletic_association",
  state_activities_association = "state_activities_association",
  superintendents_association = "superintendents_association",
  school_boards_association = "school_boards_association",
  principals_association = "principals_association",
  other = "other",
}
registerEnumType(AssociationKind, { name: "AssociationKind" });

/** The association list (GET /associations, `associations`): every filter and sort, once, over the association `a`. */
export const ASSOCIATION_LIST = defineList({
  name: "Association",
  items: "associations",
  description: "Filters of the association list (GET /associations); every given filter must hold.",
  filters: [
    statesFilter(sql`a.state`, "Two-letter state abbreviations."),
    filter("kind", enumsOf(AssociationKind), "Associations of any of these kinds (AssociationKind).", (kinds) => {
      if (!kinds.length) throw new BadRequestError("kind must be a non-empty comma-separated list");
      return sql`a.kind = ANY(${[...new Set(kinds)]}::text[])`;
    }),
    filter("search", Text, "Name or short name contains it (case-insensitive); at most 200 characters.", (search) => {
      const pattern = sql.value(containsPattern(checkText("search", search)));
      return sql`(a.name ILIKE ${pattern} OR a.short_name ILIKE ${pattern})`;
    }),
    anyOfFilter("ids", Uuids, sql`a.id`, "uuid", "Our association ids (UUID).", { nonEmpty: true }),
    filter("parentAssociationId", Uuid, "Only the sections under this association.", (id) => sql`a.parent_association_id = ${id}::uuid`),
  ],
  sorts: {
    name: "Association name.",
    state: "State abbreviation.",
    member_school_count: "Member schools.",
    created_at: "When the record was first stored.",
  },
  defaultSort: "name",
  maxLimit: ASSOCIATION_MAX_LIMIT,
});

export const AssociationFilter = ASSOCIATION_LIST.Filter;
export type AssociationFilter = InstanceType<typeof AssociationFilter>;
export const AssociationOrderField = ASSOCIATION_LIST.OrderField;
export type AssociationOrderField = keyof typeof AssociationOrderField;

/** The arguments of `associations` (GET /associations). */
export const AssociationListArgs = ASSOCIATION_LIST.Args;
export type AssociationListArgs = ListArgsOf<AssociationFilter, AssociationOrderField>;

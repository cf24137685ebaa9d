/** GET /opportunities (`opportunities`, Project.opportunities): the list's filters and sorts, declared once. */
import { sql } from "../../../db/sql-template";
import { Bool, defineList, filter, Uuid } from "../../kits/common/define-list";
import type { ListArgsOf } from "../../kits/common/list-kit";

export const OPPORTUNITY_MAX_LIMIT = 200;

/** Over the opportunity `o`; the statement itself keeps the caller's organization's rows only (opportunity.service.ts). */
export const OPPORTUNITY_LIST = defineList({
  name: "Opportunity",
  items: "opportunities",
  description:
    "Filters of the opportunity list (GET /opportunities): the caller's organization's projects only; every given filter must hold.",
  filters: [
    filter(
      "projectId",
      Uuid,
      "Only this project's opportunities (a project of the caller's organization; another id is a 404).",
      (id) => sql`o.project_id = ${id}::uuid`,
    ),
    filter(
      "supplementary",
      Bool,
      "false: signal-based opportunities only; true: fallback prospecting against the ideal customer profile only.",
      (value) => sql`o.supplementary = ${value}::boolean`,
    ),
  ],
  sorts: {
    created_at: "When the agent wrote it (the default: new rows come last, so paging through is stable).",
    confidence: "The agent's confidence, 0 to 1.",
    event_date: "The date of the event behind it.",
    window_ends_on: "When its window ends.",
  },
  defaultSort: "created_at",
  maxLimit: OPPORTUNITY_MAX_LIMIT,
});

export const OpportunityFilter = OPPORTUNITY_LIST.Filter;
export type OpportunityFilter = InstanceType<typeof OpportunityFilter>;
export const OpportunityOrderField = OPPORTUNITY_LIST.OrderField;
export type OpportunityOrderField = keyof typeof OpportunityOrderField;

export const OpportunityListArgs = OPPORTUNITY_LIST.Args;
export type OpportunityListArgs = ListArgsOf<OpportunityFilter, OpportunityOrderField>;

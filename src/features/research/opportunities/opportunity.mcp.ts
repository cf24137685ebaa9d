import { parse } from "graphql";
import { clip, httpError } from "../../../graphql/errors";
import { definedOnly, MCP_PAGINATION, type McpToolSpec } from "../../../graphql/mcp-tool";
import { OPPORTUNITY_MAX_LIMIT, OpportunityOrderField } from "./opportunity.inputs";

const CHECKS = "sourceChecks { url checkedAt status note }";
const OPPORTUNITY = `id projectId entityType districtId schoolId geoScope title signalType eventDate eventDateBasis whyNow suggestedAction
  caveats confidence sourceUrls signalIds contacts { contactId name title email emailStatus source } suggestedPrompts supplementary
  verificationStatus windowStatus lastVerifiedAt verificationNote windowEndsOn ${CHECKS} dataSource createdAt updatedAt`;

const LIST = parse(`
  query McpOpportunities($filter: OpportunityFilter, $orderBy: OpportunityOrderField, $orderAscending: Boolean, $limit: Int, $offset: Int) {
    opportunities(filter: $filter, orderBy: $orderBy, orderAscending: $orderAscending, limit: $limit, offset: $offset) {
      data { ${OPPORTUNITY} } ${MCP_PAGINATION}
    }
  }`);
const REFRESH = parse(`
  mutation McpRefreshOpportunity($id: UUID!) {
    refreshOpportunity(id: $id) { verificationStatus started }
  }`);
const VERIFICATION = parse(`
  query McpOpportunityVerification($id: UUID!) {
    opportunityVerification(id: $id) { verificationStatus windowStatus lastVerifiedAt verificationNote ${CHECKS} }
  }`);

const ID = { id: { type: "string", format: "uuid", description: "Our id of the opportunity (UUID)." } };

/** The MCP face of opportunities: GET /opportunities, POST /opportunities/{id}/refresh, GET /opportunities/{id}/verification. */
export const opportunityTools: McpToolSpec[] = [
  {
    name: "list_opportunities",
    title: "List the organization's sales opportunities",
    description:
      "Agent-written opportunities of the caller's projects, as GET /api/v1/opportunities: each with title, why_now, suggested_action, " +
      "caveats, confidence, source URLs and signal ids, event date and window, contacts, and its verification verdict. A row is written " +
      "once and never re-checked on its own: read verificationStatus and lastVerifiedAt, and call refresh_opportunity before acting. " +
      "supplementary true rows are fallback prospects against the project's ideal customer profile.",
    inputSchema: {
      type: "object",
      properties: {
        filter: {
          type: "object",
          properties: {
            projectId: { type: "string", format: "uuid", description: "One project of the organization (list_projects)." },
            supplementary: { type: "boolean", description: "false: signal-based only; true: fallback prospects only." },
          },
          additionalProperties: false,
        },
        orderBy: { type: "string", enum: Object.values(OpportunityOrderField), description: "Sort field (default createdAt order)." },
        orderAscending: { type: "boolean", description: "Ascending (default true); ties by ascending id." },
        limit: { type: "integer", minimum: 1, maximum: OPPORTUNITY_MAX_LIMIT, description: `1 to ${OPPORTUNITY_MAX_LIMIT} (default 50).` },
        offset: { type: "integer", minimum: 0, description: "Rows to skip (default 0)." },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["filter", "orderBy", "orderAscending", "limit", "offset"],
    required: [],
    plan: (args) => ({
      document: LIST,
      variables: definedOnly({
        filter: args.filter,
        orderBy: args.orderBy,
        orderAscending: args.orderAscending,
        limit: args.limit,
        offset: args.offset,
      }),
      shape: (data) => data.opportunities as Record<string, unknown>,
    }),
  },
  {
    name: "refresh_opportunity",
    title: "Re-check an opportunity at its sources",
    description:
      "Starts a verification run, as POST /api/v1/opportunities/{id}/refresh: each source URL is fetched again and the verdict " +
      "(confirmed, or unreachable when the claim cannot be settled) and window are stored; read them with opportunity_verification. " +
      "A refresh while a run is in flight starts no second one (started false).",
    inputSchema: { type: "object", properties: ID, required: ["id"], additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    args: ["id"],
    required: ["id"],
    plan: (args) => ({
      document: REFRESH,
      variables: { id: args.id },
      shape: (data) => data.refresh_opportunity as Record<string, unknown>,
    }),
  },
  {
    name: "opportunity_verification",
    title: "Read an opportunity's verification verdict",
    description:
      "The stored verdict, as GET /api/v1/opportunities/{id}/verification: verificationStatus, windowStatus, lastVerifiedAt, " +
      "verificationNote and the last run's source checks (url, checkedAt, status ok/changed/gone/unreachable, note).",
    inputSchema: { type: "object", properties: ID, required: ["id"], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["id"],
    required: ["id"],
    plan: (args) => ({
      document: VERIFICATION,
      variables: { id: args.id },
      shape: (data) =>
        (data.opportunity_verification as Record<string, unknown>) ??
        httpError("NOT_FOUND", `opportunity ${clip(String(args.id))} not found`),
    }),
  },
];

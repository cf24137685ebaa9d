import { parse } from "graphql";
import { BadRequestError, clip, httpError } from "../../../graphql/errors";
import { oneOf, type McpToolSpec } from "../../../graphql/mcp-tool";

const BRIEF = "briefId projectId entityType entityId status dossier error startedAt finishedAt";

const REQUEST_BRIEF = parse(`
  mutation McpRequestBrief($input: BriefRequestInput!) {
    requestBrief(input: $input) { briefId status started poll }
  }`);

const BRIEF_OF_PAIR = parse(`
  query McpBrief($projectId: UUID!, $entityType: BriefEntityType!, $entityId: UUID!) {
    brief(projectId: $projectId, entityType: $entityType, entityId: $entityId) { ${BRIEF} }
  }`);

const BRIEF_BY_ID = parse(`
  query McpBriefById($briefId: UUID!) {
    briefById(briefId: $briefId) { ${BRIEF} }
  }`);

const ENTITIES = ["district", "school"] as const;

const pairProperties = {
  project_id: { type: "string", format: "uuid", description: "A project of the caller's organization (UUID)." },
  entity_type: { type: "string", enum: [...ENTITIES], description: "district or school." },
  entity_id: { type: "string", format: "uuid", description: "Our id of the district or school (UUID)." },
};

/** The MCP face of POST /briefs and its reads (docs/briefs.md). */
export const briefTools: McpToolSpec[] = [
  {
    name: "request_brief",
    title: "Request a deep-research brief of a district or school",
    description:
      "Requests the brief of a (project, district or school) pair, as POST /api/v1/briefs: starts a build (started true) or reuses the " +
      "ready brief or the build in flight (started false); never a second build. Builds run in the background: read the result with " +
      "get_brief (brief_id) until status is ready or failed. Free and pro organizations must follow the entity in the project first " +
      "(forbidden otherwise); enterprise and internal need not. Errors: forbidden, not_found (project not the caller's, unknown entity).",
    inputSchema: {
      type: "object",
      properties: pairProperties,
      required: ["project_id", "entity_type", "entity_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: ["project_id", "entity_type", "entity_id"],
    required: ["project_id", "entity_type", "entity_id"],
    plan(args) {
      const entityType = oneOf("request_brief", "entity_type", args.entity_type, ENTITIES);
      return {
        document: REQUEST_BRIEF,
        variables: { input: { projectId: args.project_id, entityType, entityId: args.entity_id } },
        shape: (data) => data.request_brief as Record<string, unknown>,
      };
    },
  },
  {
    name: "get_brief",
    title: "Read a deep-research brief",
    description:
      "Reads a brief by brief_id (the poll URL GET /api/v1/briefs/{brief_id}) or by its pair project_id, entity_type, entity_id " +
      "(GET /api/v1/briefs): { brief } with status building, ready or failed (a build over 60 minutes in building reads failed) and, " +
      "when ready, the dossier: profile, statistics trend, finance, people (person_key, name, title, contact_id), extracted findings " +
      "with source_url (when the organization unlocked the entity), events, narrative and data_source per section. brief is null " +
      "when the pair never had a build; an unknown brief_id is not_found.",
    inputSchema: {
      type: "object",
      properties: {
        brief_id: { type: "string", format: "uuid", description: "Our id of the brief (from request_brief)." },
        ...pairProperties,
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: ["brief_id", "project_id", "entity_type", "entity_id"],
    required: [],
    plan(args) {
      const byPair = ["project_id", "entity_type", "entity_id"].filter((name) => args[name] !== undefined);
      if (args.brief_id !== undefined) {
        if (byPair.length) throw new BadRequestError("get_brief: give brief_id, or project_id, entity_type and entity_id, not both");
        return {
          document: BRIEF_BY_ID,
          variables: { briefId: args.brief_id },
          shape: (data) =>
            data.brief_by_id ? { brief: data.brief_by_id } : httpError("NOT_FOUND", `brief ${clip(String(args.brief_id))} not found`),
        };
      }
      if (byPair.length !== 3) throw new BadRequestError("get_brief: give brief_id, or project_id, entity_type and entity_id");
      const entityType = oneOf("get_brief", "entity_type", args.entity_type, ENTITIES);
      return {
        document: BRIEF_OF_PAIR,
        variables: { projectId: args.project_id, entityType, entityId: args.entity_id },
        shape: (data) => ({ brief: data.brief ?? null }),
      };
    },
  },
];

import { parse } from "graphql";
import { definedOnly, type McpToolSpec } from "../../../graphql/mcp-tool";
import { ICP_PROPERTIES } from "./project.icp";

const PROJECT = "id name icp createdAt";

/** GET /projects's operation: the caller's organization's projects, oldest first. */
const PROJECTS = parse(`
  query McpProjects {
    projects { ${PROJECT} }
  }`);

/** POST /projects's operation: a project of the caller's organization. */
const CREATE_PROJECT = parse(`
  mutation McpCreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { ${PROJECT} }
  }`);

/** Briefs and follows belong to a project: an agent lists or creates one first (issue 20 point 14). */
export const projectTools: McpToolSpec[] = [
  {
    name: "list_projects",
    title: "The organization's projects",
    description:
      "The projects of the caller's organization, oldest first, as GET /api/v1/projects: { data: [{ id, name, icp, created_at }] }. " +
      "A project's id is the project_id of request_brief and get_brief.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: [],
    required: [],
    plan: () => ({ document: PROJECTS, variables: {}, shape: (data) => ({ data: data.projects }) }),
  },
  {
    name: "create_project",
    title: "Create a project",
    description:
      "Creates a project of the caller's organization, as POST /api/v1/projects: { data: { id, name, icp, created_at } }. Its id is " +
      "the project_id of request_brief and get_brief. Each call creates a new project: list_projects first to reuse one.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 200, description: "1 to 200 characters (surrounding spaces are trimmed)." },
        icp: {
          type: "object",
          description: `The ideal-customer profile (optional); its properties: ${Object.keys(ICP_PROPERTIES).join(", ")} (any other is refused with a 400 naming it).`,
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    args: ["name", "icp"],
    required: ["name"],
    plan: (args) => ({
      document: CREATE_PROJECT,
      variables: { input: definedOnly({ name: args.name, icp: args.icp }) },
      shape: (data) => ({ data: data.create_project }),
    }),
  },
];

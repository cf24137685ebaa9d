/** Field dictionary: the caller's projects. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { ICP_PROPERTIES } from "./project.icp";

const ICP_DESCRIPTION = Object.entries(ICP_PROPERTIES)
  .map(([property, { description }]) => `${property}: ${description}`)
  .join(" ");

export const projectsDictionary: Dictionary = {
  CreateProjectInput: {
    [TYPE]: "POST /projects body.",
    name: "1 to 200 characters (surrounding spaces are trimmed).",
    icp: `The ideal-customer profile, or null: an object of optional properties (any other is a 400 naming it). ${ICP_DESCRIPTION}`,
  },
  UpdateProjectInput: {
    [TYPE]: "PATCH /projects/{id} body: the properties to change (an absent one stays as it is).",
    name: "1 to 200 characters (surrounding spaces are trimmed); null is refused.",
    icp: `The new ideal-customer profile (replaces the old one whole), or null to clear it; checked as CreateProjectInput.icp. A change makes the opportunity agent run again for the project.`,
  },
  Project: {
    [TYPE]: "A project of the caller's organization: a name and an ideal-customer profile (GET /projects).",
    id: "Our id of the project (UUID).",
    name: "Project name (1 to 200 characters).",
    createdAt: "When the project was created (UTC).",
    icp: "The ideal-customer profile as checked (states upper-cased, lists without repeats), or null; see CreateProjectInput.icp.",
  },
  Query: {
    projects: "The projects of the caller's organization, oldest first (GET /api/v1/projects).",
  },
  Mutation: {
    "createProject(input)": "The project's name and ideal-customer profile.",
    createProject: "A new project of the caller's organization (POST /api/v1/projects).",
    updateProject: "Renames a project of the caller's organization or replaces its profile (PATCH /api/v1/projects/{id}).",
    "updateProject(id)": "Our id of the project (UUID); another organization's is a 404.",
    "updateProject(input)": "What changes.",
  },
};

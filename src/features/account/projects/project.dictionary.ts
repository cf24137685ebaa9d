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
  },
};

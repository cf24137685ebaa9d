/** Field dictionary: the caller's projects. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const projectsDictionary: Dictionary = {
  CreateProjectInput: {
    [TYPE]: "POST /projects body.",
    name: "1 to 200 characters (surrounding spaces are trimmed).",
    icp: "The ideal-customer profile: any JSON object, or null.",
  },
  Project: {
    [TYPE]: "A project of the caller's organization: a name and an ideal-customer profile (GET /projects).",
    id: "Our id of the project (UUID).",
    name: "Project name (1 to 200 characters).",
    createdAt: "When the project was created (UTC).",
    icp: "The ideal-customer profile: a JSON object as it was given, or null.",
  },
  Query: {
    projects: "The projects of the caller's organization, oldest first (GET /api/v1/projects).",
  },
  Mutation: {
    "createProject(input)": "The project's name and ideal-customer profile.",
    createProject: "A new project of the caller's organization (POST /api/v1/projects).",
  },
};

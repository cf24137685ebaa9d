import { defineFeature } from "../../../graphql/feature";
import { projectTools } from "./project.mcp";
import { projectsDictionary } from "./project.dictionary";
import { ProjectResolver } from "./project.resolver";

/** The caller's projects (GET/POST /projects, PATCH /projects/{id}). */
export const projectsFeature = defineFeature({
  name: "projects",
  dictionary: projectsDictionary,
  resolvers: [ProjectResolver],
  rest: [
    { method: "GET", path: "/projects", operation: "Projects", input: "none", select: ["projects"], wrap: true },
    {
      method: "POST",
      path: "/projects",
      operation: "CreateProject",
      input: "json-body",
      select: ["create_project"],
      wrap: true,
      status: 201,
    },
    { method: "PATCH", path: "/projects/:id", operation: "UpdateProject", input: "json-body", select: ["update_project"], wrap: true },
  ],
  mcp: projectTools,
});

import { defineFeature } from "../../../graphql/feature";
import { ProjectResolver } from "./project.resolver";

/** The caller's projects (GET/POST /projects). */
export const projectsFeature = defineFeature({ name: "projects", resolvers: [ProjectResolver] });

import { defineFeature } from "../../../graphql/feature";
import { schoolRecords } from "./school.mcp";
import { listEndpoints } from "../../../graphql/rest";
import { DistrictSchoolsResolver } from "./district-schools.resolver";
import { schoolsDictionary } from "./school.dictionary";
import { createSchoolLoaders } from "./school.loaders";
import { SchoolResolver } from "./school.resolver";

/** Schools (GET /schools, /schools/{id}, PATCH /schools/{id}) and District.schools. */
export const schoolsFeature = defineFeature({
  name: "schools",
  resolvers: [SchoolResolver, DistrictSchoolsResolver],
  loaders: { schools: createSchoolLoaders },
  dictionary: schoolsDictionary,
  rest: [
    ...listEndpoints("/schools", "Schools", "schools"),
    { method: "GET", path: "/schools/:id", operation: "School", input: "query", select: ["school"], wrap: true },
    {
      method: "GET",
      path: "/schools/by-fed-id/:fed_id",
      operation: "SchoolByFedId",
      input: "query",
      select: ["school_by_fed_id"],
      wrap: true,
    },
    {
      method: "PATCH",
      path: "/schools/:id",
      operation: "UpdateSchool",
      input: "json-body",
      select: ["update_school"],
      wrap: true,
      errors: ["FORBIDDEN", "CONFLICT"],
    },
  ],
  mcpRecord: schoolRecords,
});

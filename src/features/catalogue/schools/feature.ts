import { defineFeature } from "../../../graphql/feature";
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
});
